/**
 * The monitor page's numbers, from the API's answers (pure, unit-tested): a history
 * as chart columns with every minute of the window (idle minutes are zeros), a
 * lease's time left, the busiest worker ID or sequence.
 *
 *   chartColumns(history, 60, now); // [[t0, t1, …] (s), issued[], waits[], refusals[]]
 */
import type { MinuteCounts } from "../wire";

const MINUTE_MS = 60_000;

/** Columns for a chart of the `minutes` minutes up to `nowMs`: times (Unix s), issued, waits, refusals. */
export function chartColumns(
	history: readonly MinuteCounts[],
	minutes: number,
	nowMs: number,
): [number[], number[], number[], number[]] {
	const last = nowMs - (nowMs % MINUTE_MS);
	const byMinute = new Map(history.map((m) => [m.minute, m]));
	const columns: [number[], number[], number[], number[]] = [[], [], [], []];
	for (let i = minutes - 1; i >= 0; i--) {
		const minute = last - i * MINUTE_MS;
		const counts = byMinute.get(minute);
		columns[0].push(minute / 1000);
		columns[1].push(counts?.issued ?? 0);
		columns[2].push((counts?.waits ?? 0) + (counts?.clockRegressions ?? 0));
		columns[3].push(Object.values(counts?.refusals ?? {}).reduce((a, b) => a + b, 0));
	}
	return columns;
}

/** "12 s", "3 min 5 s", "expired": how long until `toMs`. */
export function timeLeft(toMs: number, nowMs: number): string {
	const left = Math.floor((toMs - nowMs) / 1000);
	if (left <= 0) return "ended";
	if (left < 60) return `${left} s`;
	return `${Math.floor(left / 60)} min ${left % 60} s`;
}

/** The row that issued the most (a chart's default: a worker ID, a sequence), or undefined. */
export function busiest<T extends { issued: number | string }>(rows: readonly T[]): T | undefined {
	let best: T | undefined;
	for (const row of rows) if (!best || BigInt(row.issued) > BigInt(best.issued)) best = row;
	return best;
}

/** A count for people, exact at any size (a sequence's come as decimal text): 1,234,567. */
export function count(n: number | string): string {
	return BigInt(n).toLocaleString("en-US");
}
