/**
 * The fleet catalog's SQLite tables (./fleet-catalog.ts is the object): the leases
 * held or in grace, each worker ID's counts as its object last pushed them, the
 * fleet's per-minute totals (a day of them), and the named sequences' table
 * (./catalog-sequences.ts). Every read is one query over at most one row per worker
 * ID (or per minute, or per sequence).
 *
 *   const tables = new CatalogTables(ctx.storage.sql);
 *   tables.noteLease({ workerId: 600, holder: "pod-7", fromMs, toMs, spanMs, acquiredAtMs }, now);
 *   tables.report({ workerId: 7, counts, minutes, lease: undefined }, now);
 *   tables.leases(); // [{ workerId: 600, holder: "pod-7", state: "held", … }]
 */
import type { MinuteCounts } from "../../ids/minute-tally";
import type { FleetTotals, LeaseListing, WorkerIdCounts } from "../../wire/operations";
import { SequenceTable } from "./catalog-sequences";
import { ShardSizes, ShardSummaries } from "./catalog-summaries";
import { addMinutes, HISTORY_MS } from "./history";

/** A lease as an acquire tells the catalog. */
export type LeaseNote = Omit<LeaseListing, "state" | "reportedAtMs">;

/** What a worker ID's object pushes, at most once a minute. */
export interface WorkerIdReport {
	workerId: number;
	/** Its counts since `since` (refusals are added up here from the minutes). */
	counts: Omit<WorkerIdCounts, "workerId" | "refusals" | "reportedAtMs">;
	/** The minutes closed since its last report. */
	minutes: MinuteCounts[];
	/** Its lease as it stands (by the span's first instant); undefined: never leased. */
	lease?: { fromMs: number; toMs: number; state: "held" | "grace" | "free" } | undefined;
}

const SCHEMA = [
	"CREATE TABLE IF NOT EXISTS leases (worker_id INTEGER PRIMARY KEY, holder TEXT, state TEXT NOT NULL, from_ms INTEGER NOT NULL, to_ms INTEGER NOT NULL, span_ms INTEGER NOT NULL, acquired_at_ms INTEGER NOT NULL, reported_at_ms INTEGER NOT NULL)",
	"CREATE TABLE IF NOT EXISTS worker_ids (worker_id INTEGER PRIMARY KEY, issued INTEGER NOT NULL, requests INTEGER NOT NULL, clock_regressions INTEGER NOT NULL, waits INTEGER NOT NULL, refusals INTEGER NOT NULL, last_timestamp INTEGER, since TEXT NOT NULL, reported_at_ms INTEGER NOT NULL)",
	"CREATE TABLE IF NOT EXISTS fleet_minutes (minute INTEGER PRIMARY KEY, counts TEXT NOT NULL)",
];

type LeaseRow = {
	worker_id: number;
	holder: string | null;
	state: "held" | "grace";
	from_ms: number;
	to_ms: number;
	span_ms: number;
	acquired_at_ms: number;
	reported_at_ms: number;
};
type WorkerIdRow = {
	worker_id: number;
	issued: number;
	requests: number;
	clock_regressions: number;
	waits: number;
	refusals: number;
	last_timestamp: number | null;
	since: string;
	reported_at_ms: number;
};

export class CatalogTables {
	/** The named sequences: their names (the directory), their counts (a shard). */
	readonly sequences: SequenceTable;
	/** The root's copy of each shard's summary. */
	readonly summaries: ShardSummaries;
	/** The directory's count of names per shard. */
	readonly shardSizes: ShardSizes;

	constructor(private readonly sql: SqlStorage) {
		for (const statement of SCHEMA) sql.exec(statement);
		this.sequences = new SequenceTable(sql);
		this.summaries = new ShardSummaries(sql);
		this.shardSizes = new ShardSizes(sql);
	}

	/** An acquire (a takeover too): the worker ID's row, unless a later lease's is there already. */
	noteLease(lease: LeaseNote, nowMs: number): void {
		this.sql.exec(
			`INSERT INTO leases VALUES (?, ?, 'held', ?, ?, ?, ?, ?)
			 ON CONFLICT (worker_id) DO UPDATE SET holder = excluded.holder, state = 'held',
			   from_ms = excluded.from_ms, to_ms = excluded.to_ms, span_ms = excluded.span_ms,
			   acquired_at_ms = excluded.acquired_at_ms, reported_at_ms = excluded.reported_at_ms
			 WHERE excluded.from_ms >= leases.from_ms`,
			lease.workerId,
			lease.holder,
			lease.fromMs,
			lease.toMs,
			lease.spanMs,
			lease.acquiredAtMs,
			nowMs,
		);
	}

	/** A release (or a lease found free): gone, unless a later lease took the worker ID since. */
	dropLease(workerId: number, fromMs: number): void {
		this.sql.exec("DELETE FROM leases WHERE worker_id = ? AND from_ms <= ?", workerId, fromMs);
	}

	/** A worker ID's push: its counts, its closed minutes into the fleet's, its lease's state. */
	report(report: WorkerIdReport, nowMs: number): void {
		const { workerId, counts, minutes, lease } = report;
		const refused = minutes.reduce(
			(sum, m) => sum + Object.values(m.refusals).reduce((a, b) => a + b, 0),
			0,
		);
		// A worker ID that never issued (one only leased to holders) is not listed.
		if (counts.requests > 0 || minutes.length > 0) this.upsertWorkerId(report, refused, nowMs);
		for (const minute of minutes) this.addFleetMinute(minute);
		if (Number.isFinite(nowMs)) {
			this.sql.exec("DELETE FROM fleet_minutes WHERE minute < ?", nowMs - HISTORY_MS);
		}
		if (lease?.state === "free") this.dropLease(workerId, lease.fromMs);
		else if (lease) {
			this.sql.exec(
				"UPDATE leases SET to_ms = ?, state = ?, reported_at_ms = ? WHERE worker_id = ? AND from_ms = ?",
				lease.toMs,
				lease.state,
				nowMs,
				workerId,
				lease.fromMs,
			);
		}
	}

	leases(): LeaseListing[] {
		return this.sql
			.exec<LeaseRow>("SELECT * FROM leases ORDER BY worker_id")
			.toArray()
			.map((row) => ({
				workerId: row.worker_id,
				holder: row.holder,
				state: row.state,
				fromMs: row.from_ms,
				toMs: row.to_ms,
				spanMs: row.span_ms,
				acquiredAtMs: row.acquired_at_ms,
				reportedAtMs: row.reported_at_ms,
			}));
	}

	/** Up to `limit` worker IDs after `after`, in ID order, and whether more follow. */
	workerIdsAfter(
		after: number | null,
		limit: number,
	): { workerIds: WorkerIdCounts[]; more: boolean } {
		const rows = this.sql
			.exec<WorkerIdRow>(
				"SELECT * FROM worker_ids WHERE worker_id > ? ORDER BY worker_id LIMIT ?",
				after ?? -1,
				Math.min(limit + 1, Number.MAX_SAFE_INTEGER),
			)
			.toArray();
		const workerIds = rows.slice(0, limit).map((row) => ({
			workerId: row.worker_id,
			issued: row.issued,
			requests: row.requests,
			clockRegressions: row.clock_regressions,
			waits: row.waits,
			refusals: row.refusals,
			lastTimestamp: row.last_timestamp,
			since: row.since,
			reportedAtMs: row.reported_at_ms,
		}));
		return { workerIds, more: rows.length > limit };
	}

	/** The fleet's totals: the worker IDs' rows summed, and the shards' summaries. */
	totals(): FleetTotals {
		const [workers] = this.sql
			.exec<{ n: number; issued: number | null; requests: number | null }>(
				"SELECT COUNT(*) AS n, SUM(issued) AS issued, SUM(requests) AS requests FROM worker_ids",
			)
			.toArray();
		const sequences = this.summaries.totals();
		return {
			workerIds: workers?.n ?? 0,
			issued: workers?.issued ?? 0,
			requests: workers?.requests ?? 0,
			sequences: sequences.sequences,
			sequencesIssued: sequences.issued,
			sequenceRequests: sequences.requests,
		};
	}

	/** The fleet's minutes from `sinceMs` on, oldest first. */
	fleetHistory(sinceMs: number): MinuteCounts[] {
		return this.sql
			.exec<{ counts: string }>(
				"SELECT counts FROM fleet_minutes WHERE minute >= ? ORDER BY minute",
				sinceMs,
			)
			.toArray()
			.map((row) => JSON.parse(row.counts) as MinuteCounts);
	}

	private upsertWorkerId(report: WorkerIdReport, refused: number, nowMs: number): void {
		const { workerId, counts } = report;
		this.sql.exec(
			`INSERT INTO worker_ids VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			 ON CONFLICT (worker_id) DO UPDATE SET issued = excluded.issued, requests = excluded.requests,
			   clock_regressions = excluded.clock_regressions, waits = excluded.waits,
			   refusals = worker_ids.refusals + excluded.refusals, last_timestamp = excluded.last_timestamp,
			   since = excluded.since, reported_at_ms = excluded.reported_at_ms`,
			workerId,
			counts.issued,
			counts.requests,
			counts.clockRegressions,
			counts.waits,
			refused,
			counts.lastTimestamp,
			counts.since,
			nowMs,
		);
	}

	private addFleetMinute(minute: MinuteCounts): void {
		const [stored] = this.sql
			.exec<{ counts: string }>("SELECT counts FROM fleet_minutes WHERE minute = ?", minute.minute)
			.toArray();
		const sum = stored ? addMinutes(JSON.parse(stored.counts) as MinuteCounts, minute) : minute;
		this.sql.exec(
			"INSERT OR REPLACE INTO fleet_minutes VALUES (?, ?)",
			minute.minute,
			JSON.stringify(sum),
		);
	}
}
