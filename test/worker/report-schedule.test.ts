/**
 * The report schedule (src/worker/object/minute-alarm.ts) at the fleet size the design
 * names: 1,024 worker IDs and 1,000,000 active sequences, each reporting once a minute.
 * Offsets cover the report window evenly, shards get even shares, and no catalog object
 * (a shard, or the root with the worker IDs' reports and the shards' summaries) takes
 * more than 100 reports in any second of the minute.
 */
import { describe, expect, it } from "vitest";
import {
	CATALOG_SHARDS,
	REPORT_SPREAD_MS,
	sequenceReportOffset,
	shardOf,
	untilMinuteAlarm,
	untilShardSummary,
	workerIdReportOffset,
} from "../../src/worker/object/minute-alarm";

const MINUTE_MS = 60_000;
const SEQUENCES = 1_000_000;
const WORKER_IDS = 1_024;
const BOUND = 100;

/** Names as tenants make them: a prefix and a counter. */
const nameOf = (i: number) => `tenant-${String(i).padStart(7, "0")}-orders`;

/** The second of the minute (0-59) an alarm set at `nowMs` fires in. */
function secondOf(nowMs: number, untilMs: number): number {
	return Math.floor(((nowMs + untilMs) % MINUTE_MS) / 1000);
}

describe("the report schedule at 1,024 worker IDs and 1,000,000 sequences", () => {
	it("sets each alarm at its offset past the end of the minute it counted", () => {
		const now = Date.parse("2026-01-01T12:00:30Z");
		expect(untilMinuteAlarm(now, 0)).toBe(31_000);
		expect(untilMinuteAlarm(now, 20_000)).toBe(51_000);
		expect(untilMinuteAlarm(now + 29_999, REPORT_SPREAD_MS - 1)).toBe(1_001 + REPORT_SPREAD_MS - 1);
		for (const name of ["orders", "a", nameOf(7)]) {
			const offset = sequenceReportOffset(name);
			expect(offset).toBeGreaterThanOrEqual(0);
			expect(offset).toBeLessThan(REPORT_SPREAD_MS);
			expect(shardOf(name)).toBe(shardOf(name)); // stable
		}
		expect(workerIdReportOffset(0)).toBe(0);
		expect(workerIdReportOffset(1_023)).toBeLessThan(REPORT_SPREAD_MS);
	});

	it("keeps every shard under 100 reports a second, with offsets over the whole window", () => {
		// reports[shard * 60 + second]: one minute of reports, by shard and second.
		const reports = new Uint16Array(CATALOG_SHARDS * 60);
		const perShard = new Uint32Array(CATALOG_SHARDS);
		const perSecond = new Uint32Array(60);
		const minuteStart = Date.parse("2026-01-01T12:00:00Z");
		for (let i = 0; i < SEQUENCES; i++) {
			const name = nameOf(i);
			const shard = shardOf(name);
			const second = secondOf(
				minuteStart,
				untilMinuteAlarm(minuteStart, sequenceReportOffset(name)),
			);
			reports[shard * 60 + second] = (reports[shard * 60 + second] ?? 0) + 1;
			perShard[shard] = (perShard[shard] ?? 0) + 1;
			perSecond[second] = (perSecond[second] ?? 0) + 1;
		}
		const busiestShardSecond = Math.max(...reports);
		expect(busiestShardSecond).toBeLessThanOrEqual(BOUND);
		// Even shares: every shard within 10% of 1,000,000 / 512.
		const share = SEQUENCES / CATALOG_SHARDS;
		for (const n of perShard) expect(Math.abs(n - share) / share).toBeLessThan(0.1);
		// Offsets cover the window evenly: each of its 40 seconds gets 1/40 of the reports (within 2%).
		const window = REPORT_SPREAD_MS / 1000;
		const used = [...perSecond].map((n, second) => ({ n, second })).filter(({ n }) => n > 0);
		expect(used.map(({ second }) => second)).toEqual(
			Array.from({ length: window }, (_, i) => i + 1),
		);
		for (const { n } of used)
			expect(Math.abs(n - SEQUENCES / window) / (SEQUENCES / window)).toBeLessThan(0.02);
	});

	it("keeps the root under 100 reports a second: 1,024 worker IDs and 512 shard summaries", () => {
		const minuteStart = Date.parse("2026-01-01T12:00:00Z");
		const root = new Uint32Array(60);
		for (let workerId = 0; workerId < WORKER_IDS; workerId++) {
			const until = untilMinuteAlarm(minuteStart, workerIdReportOffset(workerId));
			const second = secondOf(minuteStart, until);
			root[second] = (root[second] ?? 0) + 1;
		}
		// A shard that took its first report at any second of the minute sends its summary once.
		for (let shard = 0; shard < CATALOG_SHARDS; shard++) {
			const tookReportAt = minuteStart + 60_000 + 2_000; // reports come from the second second on
			const second = secondOf(tookReportAt, untilShardSummary(tookReportAt, shard));
			root[second] = (root[second] ?? 0) + 1;
		}
		expect(Math.max(...root)).toBeLessThanOrEqual(BOUND);
		expect(root.reduce((a, b) => a + b, 0)).toBe(WORKER_IDS + CATALOG_SHARDS);
	});

	it("sends a shard's summary after the reports' window, in the minute it took them or the next", () => {
		const minuteStart = Date.parse("2026-01-01T12:00:00Z");
		for (const shard of [0, 1, 255, 511]) {
			const early = untilShardSummary(minuteStart + 2_000, shard);
			expect(early + 2_000).toBeGreaterThanOrEqual(1_000 + REPORT_SPREAD_MS);
			expect(early + 2_000).toBeLessThan(MINUTE_MS);
			const late = untilShardSummary(minuteStart + 59_500, shard); // past its slot: the next minute's
			expect(late).toBeGreaterThan(0);
			expect(late + 59_500).toBeLessThan(2 * MINUTE_MS);
		}
	});
});
