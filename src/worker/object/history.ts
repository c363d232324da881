/**
 * A worker ID's per-minute history in its own object's SQLite storage: one row per
 * active minute (./snowflake-worker.ts writes the minutes its MinuteTally closed, from
 * its alarm), pruned past HISTORY_MS. Reads never create the table: asking an
 * unused worker ID for its history writes nothing.
 *
 *   const history = new ObjectHistory(ctx.storage.sql);
 *   history.write(closedMinutes, now);   // and prunes what is older than a day
 *   history.read(now - 60 * 60_000);     // the last hour's rows, oldest first
 */
import type { MinuteCounts } from "../../ids/minute-tally";

/** How long minutes are kept: a day, and the minute in progress. */
export const HISTORY_MS = 24 * 60 * 60_000;

const TABLE = "history_minutes";

type Row = {
	minute: number;
	issued: number;
	requests: number;
	waits: number;
	clock_regressions: number;
	refusals: string;
};

export class ObjectHistory {
	constructor(private readonly sql: SqlStorage) {}

	/** Adds `minutes` (a minute already stored adds up: a restart within it) and prunes past a day before `nowMs`. */
	write(minutes: readonly MinuteCounts[], nowMs: number): void {
		if (minutes.length === 0) return;
		this.sql.exec(
			`CREATE TABLE IF NOT EXISTS ${TABLE} (minute INTEGER PRIMARY KEY, issued INTEGER NOT NULL, requests INTEGER NOT NULL, waits INTEGER NOT NULL, clock_regressions INTEGER NOT NULL, refusals TEXT NOT NULL)`,
		);
		for (const m of minutes) {
			const stored = this.rows(m.minute, m.minute)[0];
			const sum = stored ? addMinutes(stored, m) : m;
			this.sql.exec(
				`INSERT OR REPLACE INTO ${TABLE} VALUES (?, ?, ?, ?, ?, ?)`,
				sum.minute,
				sum.issued,
				sum.requests,
				sum.waits,
				sum.clockRegressions,
				JSON.stringify(sum.refusals),
			);
		}
		if (Number.isFinite(nowMs))
			this.sql.exec(`DELETE FROM ${TABLE} WHERE minute < ?`, nowMs - HISTORY_MS);
	}

	/** The stored minutes from `sinceMs` on, oldest first. */
	read(sinceMs: number): MinuteCounts[] {
		return this.rows(sinceMs, Number.MAX_SAFE_INTEGER);
	}

	private rows(from: number, to: number): MinuteCounts[] {
		if (!this.hasTable()) return [];
		return this.sql
			.exec<Row>(
				`SELECT * FROM ${TABLE} WHERE minute >= ? AND minute <= ? ORDER BY minute`,
				from,
				to,
			)
			.toArray()
			.map((row) => ({
				minute: row.minute,
				issued: row.issued,
				requests: row.requests,
				waits: row.waits,
				clockRegressions: row.clock_regressions,
				refusals: JSON.parse(row.refusals) as Record<string, number>,
			}));
	}

	private hasTable(): boolean {
		return (
			this.sql
				.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", TABLE)
				.toArray().length > 0
		);
	}
}

/** Two counts of one minute (or of many worker IDs' minute) added up. */
export function addMinutes(a: MinuteCounts, b: MinuteCounts): MinuteCounts {
	const refusals = { ...a.refusals };
	for (const [code, n] of Object.entries(b.refusals)) refusals[code] = (refusals[code] ?? 0) + n;
	return {
		minute: a.minute,
		issued: a.issued + b.issued,
		requests: a.requests + b.requests,
		waits: a.waits + b.waits,
		clockRegressions: a.clockRegressions + b.clockRegressions,
		refusals,
	};
}

/** Minutes of one source merged by minute (stored rows and the unsaved ones), oldest first, from `sinceMs`. */
export function mergeMinutes(minutes: readonly MinuteCounts[], sinceMs: number): MinuteCounts[] {
	const byMinute = new Map<number, MinuteCounts>();
	for (const m of minutes) {
		if (m.minute < sinceMs) continue;
		const seen = byMinute.get(m.minute);
		byMinute.set(m.minute, seen ? addMinutes(seen, m) : m);
	}
	return [...byMinute.values()].sort((a, b) => a.minute - b.minute);
}
