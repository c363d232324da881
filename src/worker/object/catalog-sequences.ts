/**
 * The fleet catalog's table of named sequences (./fleet-catalog.ts is the object): a
 * row per sequence created, written by the create (once; again is a no-op) and by
 * its object's report at most once a minute (its counts). `GET /sequences` pages
 * through the names, `GET /stats` and `/metrics` read the counts: one query each.
 * A retire drops the row and leaves a marker (with the final counts), so that a
 * report or create written late never lists the name again.
 *
 *   const table = new SequenceTable(ctx.storage.sql);
 *   table.register("orders", { start: "1", mode: "ordered", reset: "never", timeZone: "UTC" }, now);
 *   table.report({ name: "orders", settings, createdAtMs, next: "42", issued: 41, … }, now);
 *   table.page(null, 100); // { names: ["orders"], more: false }
 *   table.retire({ name: "orders", retiredAtMs, issued: 41, requests: 9 }); // listed nowhere since
 */
import type { SequenceCounts, SequenceSettings } from "../../wire/operations";

/** What a sequence's object reports: everything its row holds, so a report alone lists the name. */
export type SequenceReport = Omit<SequenceCounts, "reportedAtMs">;

// Not "sequences": an earlier, never-written table of that name may exist in local state.
const TABLE = "named_sequences";
const SCHEMA = `CREATE TABLE IF NOT EXISTS ${TABLE} (name TEXT PRIMARY KEY, settings TEXT NOT NULL, created_at_ms INTEGER NOT NULL, next TEXT, issued INTEGER NOT NULL DEFAULT 0, requests INTEGER NOT NULL DEFAULT 0, last_issued_at_ms INTEGER, period TEXT, reported_at_ms INTEGER) WITHOUT ROWID`;
/** Retired names, with what they had issued when retired (for fleet totals that never go back). */
const RETIRED = "retired_sequences";
const RETIRED_SCHEMA = `CREATE TABLE IF NOT EXISTS ${RETIRED} (name TEXT PRIMARY KEY, retired_at_ms INTEGER NOT NULL, issued INTEGER NOT NULL, requests INTEGER NOT NULL) WITHOUT ROWID`;
/** Keeps a write from listing a retired name again. */
const NOT_RETIRED = `WHERE NOT EXISTS (SELECT 1 FROM ${RETIRED} WHERE name = ?)`;

/** A retired sequence as its retire tells the catalog. */
export interface RetiredSequence {
	name: string;
	retiredAtMs: number;
	issued: number;
	requests: number;
}

type Row = {
	name: string;
	settings: string;
	created_at_ms: number;
	next: string | null;
	issued: number;
	requests: number;
	last_issued_at_ms: number | null;
	period: string | null;
	reported_at_ms: number | null;
};

export class SequenceTable {
	constructor(private readonly sql: SqlStorage) {
		sql.exec(SCHEMA);
		sql.exec(RETIRED_SCHEMA);
	}

	/** A sequence created (or found by a create again): its row, unless it is there already (or retired). */
	register(name: string, settings: SequenceSettings, createdAtMs: number): void {
		this.sql.exec(
			`INSERT INTO ${TABLE} (name, settings, created_at_ms) SELECT ?, ?, ? ${NOT_RETIRED} ON CONFLICT (name) DO NOTHING`,
			name,
			JSON.stringify(settings),
			createdAtMs,
			name,
		);
	}

	/** A sequence retired: its row gone, its marker (written once) keeps late writes out. */
	retire(retired: RetiredSequence): void {
		const { name, retiredAtMs, issued, requests } = retired;
		this.sql.exec(`DELETE FROM ${TABLE} WHERE name = ?`, name);
		this.sql.exec(
			`INSERT INTO ${RETIRED} VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`,
			name,
			retiredAtMs,
			issued,
			requests,
		);
	}

	/**
	 * A sequence's counts as its object last stored them; its row is made if the
	 * create's write was lost (unless retired). A report older than the row (fewer
	 * requests or numbers) changes nothing: the counts never go back.
	 */
	report(report: SequenceReport, nowMs: number): void {
		this.sql.exec(
			`INSERT INTO ${TABLE} SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? ${NOT_RETIRED}
			 ON CONFLICT (name) DO UPDATE SET next = excluded.next, issued = excluded.issued,
			   requests = excluded.requests, last_issued_at_ms = excluded.last_issued_at_ms,
			   period = excluded.period, reported_at_ms = excluded.reported_at_ms
			 WHERE excluded.requests >= ${TABLE}.requests AND excluded.issued >= ${TABLE}.issued`,
			report.name,
			JSON.stringify(report.settings),
			report.createdAtMs,
			report.next,
			report.issued,
			report.requests,
			report.lastIssuedAtMs,
			report.period,
			nowMs,
			report.name,
		);
	}

	/** Up to `limit` names after `after`, in name order, and whether more follow. */
	page(after: string | null, limit: number): { names: string[]; more: boolean } {
		const names = this.sql
			.exec<{ name: string }>(
				`SELECT name FROM ${TABLE} WHERE name > ? ORDER BY name LIMIT ?`,
				after ?? "",
				limit + 1,
			)
			.toArray()
			.map((row) => row.name);
		return { names: names.slice(0, limit), more: names.length > limit };
	}

	/** Every sequence with its counts, in name order. */
	all(): SequenceCounts[] {
		return this.sql
			.exec<Row>(`SELECT * FROM ${TABLE} ORDER BY name`)
			.toArray()
			.map((row) => ({
				name: row.name,
				settings: JSON.parse(row.settings) as SequenceSettings,
				createdAtMs: row.created_at_ms,
				next: row.next,
				issued: row.issued,
				requests: row.requests,
				lastIssuedAtMs: row.last_issued_at_ms,
				period: row.period,
				reportedAtMs: row.reported_at_ms,
			}));
	}
}
