/**
 * What the operations routes answer (`GET /leases`, `GET /stats`, the history
 * routes), as plain types: the same values over HTTP, RPC and the client.
 *
 *   const { workerIds, totals, cursor } = await client.fleetStats({ limit: 100 }); // [{ workerId: 7, issued: 1200, … }]
 */
import type { MinuteCounts } from "../ids/minute-tally";

export type { MinuteCounts };

/** A leased worker ID as the catalog lists it: never its leaseId. */
export interface LeaseListing {
	workerId: number;
	/** The holder's label, null without one. */
	holder: string | null;
	/** As its object last reported it (at the acquire, then at most a minute old). */
	state: "held" | "grace";
	/** The span's first instant (Unix ms). */
	fromMs: number;
	/** The span's end as last reported (Unix ms); renewals move it on. */
	toMs: number;
	/** LEASE_SPAN_MS when the lease was granted: how far a renewal reaches past the clock. */
	spanMs: number;
	/**
	 * When this holder acquired it (Unix ms); the span's first instant when the catalog
	 * missed the acquire and learned of the lease from its object's report.
	 */
	acquiredAtMs: number;
	/** When its object last told the catalog about it (Unix ms). */
	reportedAtMs: number;
}

/** What `GET /leases` answers. */
export interface FleetLeases {
	leases: LeaseListing[];
	serverNowMs: number;
}

/** One worker ID's counts since `since`, as its object last pushed them (at most once a minute). */
export interface WorkerIdCounts {
	workerId: number;
	issued: number;
	requests: number;
	clockRegressions: number;
	/** Calls that waited for a later tick. */
	waits: number;
	/** Refused calls (every code), counted since the catalog first heard of the worker ID. */
	refusals: number;
	/** Unix ms of the last issued ID's tick, null before the first. */
	lastTimestamp: number | null;
	/** When counting began (ISO). */
	since: string;
	reportedAtMs: number;
}

/** A sequence's settings as it was created with them (plain values only). */
export type SequenceSettings = Record<string, string | number | boolean | null>;

/** A named sequence: its settings, when it was made, and its counts as its object last reported them (at most a minute old). */
export interface SequenceCounts {
	name: string;
	settings: SequenceSettings;
	createdAtMs: number;
	/** The next number it gives, as decimal text; null until it reports, and once the last was issued. */
	next: string | null;
	/** Numbers issued, in every period, as decimal text (it may pass 2^53, as the numbers do). */
	issued: string;
	/** Calls that issued numbers. */
	requests: number;
	/** Unix ms of the last call that issued numbers; null before the first. */
	lastIssuedAtMs: number | null;
	/** The current period ("2026-11-27", "2026-11", "2026"); null without a reset. */
	period: string | null;
	/** When its object last reported (Unix ms); null until it has. */
	reportedAtMs: number | null;
}

/** The whole fleet's counts, on every page of `GET /stats`. */
export interface FleetTotals {
	/** Worker IDs that have issued, and their IDs and calls (as their objects last reported). */
	workerIds: number;
	issued: number;
	requests: number;
	/** Named sequences with counts, numbers issued (decimal text) and calls, as the catalog shards last summed them (at most a minute behind their rows). */
	sequences: number;
	sequencesIssued: string;
	sequenceRequests: number;
}

/**
 * What `GET /stats` answers: one page of worker IDs (in ID order), then of sequences (in
 * catalog order: by shard, then name), at most `limit` rows in all, with the fleet's
 * totals; `cursor` (null on the last page) asks for the next page.
 */
export interface FleetStats {
	workerIds: WorkerIdCounts[];
	sequences: SequenceCounts[];
	totals: FleetTotals;
	cursor: string | null;
	/** The Snowflake layout's last instant, and the years until it. */
	layout: { exhaustsAt: string; exhaustsAtMs: number; yearsLeft: number };
	serverNowMs: number;
}

/** Options of `fleetStats`: rows a page holds, 1-1000 (default 100), and the previous page's cursor. */
export interface FleetStatsOptions {
	limit?: number | undefined;
	cursor?: string | undefined;
}

/** What the history routes answer: per active minute, oldest first (idle minutes are absent). */
export interface StatsHistory {
	/** The worker ID, or null for the whole fleet. */
	workerId: number | null;
	/** The window asked for, in minutes back from now. */
	minutes: number;
	history: MinuteCounts[];
	serverNowMs: number;
}

/** Options of the history calls: a worker ID (none: the fleet) and the window, 1-1440 minutes (default 60). */
export interface StatsHistoryOptions {
	workerId?: number | undefined;
	minutes?: number | undefined;
}
