/**
 * The fleet catalog's table of named sequences (./fleet-catalog.ts is the object): a
 * row per sequence created, written by the create (once; again is a no-op) and by
 * its object's report at most once a minute (its counts). The directory holds the
 * names (`GET /sequences` pages through them), each shard its sequences' counts
 * (`GET /stats` pages through them; its summary for `/metrics` reads the busiest).
 * A retire drops the row and leaves a marker (with the final counts), so that a
 * report or create written late never lists the name again.
 *
 *   const table = new SequenceTable(ctx.storage.sql);
 *   table.register("orders", { start: "1", mode: "ordered", reset: "never", timeZone: "UTC" }, now);
 *   table.report({ name: "orders", settings, createdAtMs, next: "42", issued: "41", … }, now);
 *   table.page(null, 100); // { names: ["orders"], more: false }
 *   table.retire({ name: "orders", retiredAtMs, issued: "41", requests: 9 }); // listed nowhere since
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
	/** Decimal text: exact above 2^53. */
	issued: string;
	requests: number;
}

/** `issued` as text: exact above 2^53. */
const COLUMNS =
	"name, settings, created_at_ms, next, CAST(issued AS TEXT) AS issued, requests, last_issued_at_ms, period, reported_at_ms";

type Row = {
	name: string;
	settings: string;
	created_at_ms: number;
	next: string | null;
	issued: string;
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

	/** A sequence created (or found by a create again): its row, unless it is there already or retired (then false). */
	register(name: string, settings: SequenceSettings, createdAtMs: number): boolean {
		const { rowsWritten } = this.sql.exec(
			`INSERT INTO ${TABLE} (name, settings, created_at_ms) SELECT ?, ?, ? ${NOT_RETIRED} ON CONFLICT (name) DO NOTHING`,
			name,
			JSON.stringify(settings),
			createdAtMs,
			name,
		);
		return rowsWritten > 0;
	}

	/** Whether the name has a row. */
	has(name: string): boolean {
		return this.sql.exec(`SELECT 1 FROM ${TABLE} WHERE name = ?`, name).toArray().length > 0;
	}

	/** Every name, in name order (the directory's sizes are rebuilt from them once). */
	*names(): Iterable<string> {
		for (const row of this.sql.exec<{ name: string }>(`SELECT name FROM ${TABLE}`)) yield row.name;
	}

	/** A sequence retired: its row gone (whether it had one), its marker (written once) keeps late writes out. */
	retire(retired: RetiredSequence): boolean {
		const { name, retiredAtMs, issued, requests } = retired;
		const { rowsWritten } = this.sql.exec(`DELETE FROM ${TABLE} WHERE name = ?`, name);
		this.sql.exec(
			`INSERT INTO ${RETIRED} VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`,
			name,
			retiredAtMs,
			issued,
			requests,
		);
		return rowsWritten > 0;
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

	/**
	 * Up to `limit` names after `after` (and starting with `prefix`, if given), in name
	 * order, and whether more follow. Names use only `-.0-9A-Z_a-z`, all below "{".
	 */
	page(after: string | null, limit: number, prefix = ""): { names: string[]; more: boolean } {
		const names = this.sql
			.exec<{ name: string }>(
				`SELECT name FROM ${TABLE} WHERE name > ? AND name >= ? AND name < ? ORDER BY name LIMIT ?`,
				after ?? "",
				prefix,
				`${prefix}{`,
				limit + 1,
			)
			.toArray()
			.map((row) => row.name);
		return { names: names.slice(0, limit), more: names.length > limit };
	}

	/** Up to `limit` sequences with their counts after `after`, in name order. */
	countsAfter(after: string | null, limit: number): SequenceCounts[] {
		return this.sql
			.exec<Row>(
				`SELECT ${COLUMNS} FROM ${TABLE} WHERE name > ? ORDER BY name LIMIT ?`,
				after ?? "",
				limit,
			)
			.toArray()
			.map(countsOf);
	}

	/** Up to `limit` sequences that issued since `sinceMs`, the most calls first (then by name). */
	busiest(sinceMs: number, limit: number): SequenceCounts[] {
		if (limit <= 0) return [];
		return this.sql
			.exec<Row>(
				`SELECT ${COLUMNS} FROM ${TABLE} WHERE last_issued_at_ms >= ? ORDER BY requests DESC, name LIMIT ?`,
				sinceMs,
				limit,
			)
			.toArray()
			.map(countsOf);
	}

	/**
	 * How many sequences, their numbers issued (exact, decimal text) and their calls;
	 * retired ones' final counts included, so that a retire never lowers a total.
	 */
	totals(): { sequences: number; issued: string; requests: number } {
		let issued = 0n;
		let requests = 0;
		let sequences = 0;
		for (const row of this.sql.exec<{ issued: string; requests: number }>(
			`SELECT CAST(issued AS TEXT) AS issued, requests FROM ${TABLE}`,
		)) {
			issued += BigInt(row.issued);
			requests += row.requests;
			sequences++;
		}
		for (const row of this.sql.exec<{ issued: string; requests: number }>(
			`SELECT CAST(issued AS TEXT) AS issued, requests FROM ${RETIRED}`,
		)) {
			issued += BigInt(row.issued);
			requests += row.requests;
		}
		return { sequences, issued: `${issued}`, requests };
	}
}

function countsOf(row: Row): SequenceCounts {
	return {
		name: row.name,
		settings: JSON.parse(row.settings) as SequenceSettings,
		createdAtMs: row.created_at_ms,
		next: row.next,
		issued: row.issued,
		requests: row.requests,
		lastIssuedAtMs: row.last_issued_at_ms,
		period: row.period,
		reportedAtMs: row.reported_at_ms,
	};
}
