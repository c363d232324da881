/**
 * The monitor page's numbers, from the API's answers (pure, unit-tested): a history
 * as chart columns with every minute of the window (idle minutes are zeros), a
 * lease's time left, the busiest worker ID or sequence, digits grouped, and which
 * worker IDs serve the auto route (from pools that take IDs in blocks).
 *
 *   chartColumns(history, 60, now); // [[t0, t1, …] (s), issued[], requests[], waits[], refusals[]]
 *   groupDigits("1234567");         // "1,234,567"
 */
import { WorkerIdSet } from "../ids/pools/worker-id-set";
import type { MinuteCounts, RegionsInfo } from "../wire";

const MINUTE_MS = 60_000;

/** A chart's columns: times (Unix s), then issued, requests, waits and refusals per minute. */
export type ChartColumns = [number[], number[], number[], number[], number[]];

/**
 * Columns for a chart of the `minutes` minutes up to `nowMs`: times (Unix s), issued
 * (the left axis), and the calls (the right axis): requests, waits, refusals.
 */
export function chartColumns(
	history: readonly MinuteCounts[],
	minutes: number,
	nowMs: number,
): ChartColumns {
	const last = nowMs - (nowMs % MINUTE_MS);
	const byMinute = new Map(history.map((m) => [m.minute, m]));
	const columns: ChartColumns = [[], [], [], [], []];
	for (let i = minutes - 1; i >= 0; i--) {
		const minute = last - i * MINUTE_MS;
		const counts = byMinute.get(minute);
		columns[0].push(minute / 1000);
		columns[1].push(counts?.issued ?? 0);
		columns[2].push(counts?.requests ?? 0);
		columns[3].push((counts?.waits ?? 0) + (counts?.clockRegressions ?? 0));
		columns[4].push(Object.values(counts?.refusals ?? {}).reduce((a, b) => a + b, 0));
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

/** Decimal digits for people, grouped by thousands ("1234567" → "1,234,567"), any length (a sequence's next may pass 2^53). */
export function groupDigits(digits: string): string {
	return /^[0-9]+$/.test(digits) ? digits.replace(/\B(?=([0-9]{3})+$)/g, ",") : digits;
}

/**
 * Whether a worker ID serves the auto route (`/snowflake` without one): AUTO_WORKER_IDS
 * or a region's. Its isolates take IDs in blocks for their pools, so its object counts
 * more issued than callers received.
 */
export function autoRoute(regions: Pick<RegionsInfo, "autoWorkerIds" | "regions">) {
	const sets = [regions.autoWorkerIds, ...regions.regions.map((r) => r.workerIds)]
		.filter((text) => text !== "")
		.map((text) => WorkerIdSet.parse(text, Number.MAX_SAFE_INTEGER));
	return (workerId: number) => sets.some((set) => set.has(workerId));
}
