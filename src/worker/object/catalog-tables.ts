/**
 * The fleet catalog's SQLite tables (./fleet-catalog.ts is the object): the leases
 * held or in grace, each worker ID's counts as its object last pushed them (never
 * lower than the row held), the fleet's per-minute totals (a day of them, each
 * worker ID's minute added once), and the named sequences' table
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
	/** Its counts since `since`, as stored (refusals are added up here from the minutes). */
	counts: Omit<WorkerIdCounts, "workerId" | "refusals" | "reportedAtMs">;
	/** The minutes closed and not yet reported (a failed report's come again), oldest first. */
	minutes: MinuteCounts[];
	/** Its lease as it stands (by the span's first instant); undefined: no news of one. */
	lease?: ReportedLease | undefined;
}

/** A lease as a report carries it: all a listing row needs, so a report alone repairs the row. */
export interface ReportedLease {
	fromMs: number;
	toMs: number;
	state: "held" | "grace" | "free";
	holder: string | null;
	spanMs: number;
}

const SCHEMA = [
	"CREATE TABLE IF NOT EXISTS leases (worker_id INTEGER PRIMARY KEY, holder TEXT, state TEXT NOT NULL, from_ms INTEGER NOT NULL, to_ms INTEGER NOT NULL, span_ms INTEGER NOT NULL, acquired_at_ms INTEGER NOT NULL, reported_at_ms INTEGER NOT NULL)",
	"CREATE TABLE IF NOT EXISTS worker_ids (worker_id INTEGER PRIMARY KEY, issued INTEGER NOT NULL, requests INTEGER NOT NULL, clock_regressions INTEGER NOT NULL, waits INTEGER NOT NULL, refusals INTEGER NOT NULL, last_timestamp INTEGER, since TEXT NOT NULL, reported_at_ms INTEGER NOT NULL, minutes_through INTEGER)",
	"CREATE TABLE IF NOT EXISTS fleet_minutes (minute INTEGER PRIMARY KEY, counts TEXT NOT NULL)",
];

/**
 * The last minute of each worker ID added to the fleet's: a report carried again
 * (its answer lost on the way back) adds nothing twice. Added to a table an earlier
 * version made; null there until the next report.
 */
const MINUTES_THROUGH = "minutes_through";

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
	minutes_through: number | null;
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
		const columns = sql.exec<{ name: string }>("PRAGMA table_info(worker_ids)").toArray();
		if (!columns.some((column) => column.name === MINUTES_THROUGH)) {
			sql.exec(`ALTER TABLE worker_ids ADD COLUMN ${MINUTES_THROUGH} INTEGER`);
		}
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

	/**
	 * A worker ID's push: its counts (never lowering one: a report from before a
	 * restart, or from a life that lost its last second, may carry less), its minutes
	 * not added yet into the fleet's, its lease's state (the row made, moved or dropped).
	 */
	report(report: WorkerIdReport, nowMs: number): void {
		const { workerId, counts, lease } = report;
		const [row] = this.sql
			.exec<{ through: number | null }>(
				`SELECT ${MINUTES_THROUGH} AS through FROM worker_ids WHERE worker_id = ?`,
				workerId,
			)
			.toArray();
		const through = row?.through ?? null;
		const minutes = report.minutes.filter((m) => through === null || m.minute > through);
		const refused = minutes.reduce(
			(sum, m) => sum + Object.values(m.refusals).reduce((a, b) => a + b, 0),
			0,
		);
		const last = minutes.reduce<number | null>(
			(max, m) => Math.max(max ?? m.minute, m.minute),
			through,
		);
		// A worker ID that never issued (one only leased to holders) is not listed.
		if (counts.requests > 0 || minutes.length > 0) {
			this.upsertWorkerId(report, refused, last, nowMs);
		}
		for (const minute of minutes) this.addFleetMinute(minute);
		if (Number.isFinite(nowMs)) {
			this.sql.exec("DELETE FROM fleet_minutes WHERE minute < ?", nowMs - HISTORY_MS);
		}
		if (lease?.state === "free") this.dropLease(workerId, lease.fromMs);
		else if (lease) this.reportLease(workerId, lease, nowMs);
	}

	/**
	 * A live lease as reported: its row made (the acquire's tell may have failed; its
	 * acquire time is then the span's first instant) or brought up to date, unless a
	 * later lease's row is there already.
	 */
	private reportLease(workerId: number, lease: ReportedLease, nowMs: number): void {
		this.sql.exec(
			`INSERT INTO leases VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			 ON CONFLICT (worker_id) DO UPDATE SET holder = excluded.holder, state = excluded.state,
			   to_ms = excluded.to_ms, reported_at_ms = excluded.reported_at_ms,
			   span_ms = CASE WHEN excluded.from_ms = leases.from_ms THEN leases.span_ms ELSE excluded.span_ms END,
			   acquired_at_ms = CASE WHEN excluded.from_ms = leases.from_ms THEN leases.acquired_at_ms ELSE excluded.acquired_at_ms END,
			   from_ms = excluded.from_ms
			 WHERE excluded.from_ms >= leases.from_ms`,
			workerId,
			lease.holder,
			lease.state,
			lease.fromMs,
			lease.toMs,
			lease.spanMs,
			lease.fromMs,
			nowMs,
		);
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

	/** The worker ID's row: each counter the larger of the stored and the reported, never less. */
	private upsertWorkerId(
		report: WorkerIdReport,
		refused: number,
		through: number | null,
		nowMs: number,
	): void {
		const { workerId, counts } = report;
		this.sql.exec(
			`INSERT INTO worker_ids VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			 ON CONFLICT (worker_id) DO UPDATE SET issued = MAX(worker_ids.issued, excluded.issued),
			   requests = MAX(worker_ids.requests, excluded.requests),
			   clock_regressions = MAX(worker_ids.clock_regressions, excluded.clock_regressions),
			   waits = MAX(worker_ids.waits, excluded.waits),
			   refusals = worker_ids.refusals + excluded.refusals,
			   last_timestamp = MAX(COALESCE(worker_ids.last_timestamp, excluded.last_timestamp), COALESCE(excluded.last_timestamp, worker_ids.last_timestamp)),
			   since = MIN(worker_ids.since, excluded.since), reported_at_ms = excluded.reported_at_ms,
			   ${MINUTES_THROUGH} = excluded.${MINUTES_THROUGH}`,
			workerId,
			counts.issued,
			counts.requests,
			counts.clockRegressions,
			counts.waits,
			refused,
			counts.lastTimestamp,
			counts.since,
			nowMs,
			through,
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
