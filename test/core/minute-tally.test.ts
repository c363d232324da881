/** MinuteTally: a worker ID's counts per clock minute, from the generator's running counters. */
import { describe, expect, it } from "vitest";
import { MinuteTally, minuteOf, windowStart } from "../../src/ids/minute-tally";

const M = 1_800_000_000_000 - (1_800_000_000_000 % 60_000); // a minute's first instant
const counters = (issued: number, requests: number, rolloverWaits = 0, clockRegressions = 0) => ({
	issued,
	requests,
	rolloverWaits,
	clockRegressions,
});

describe("MinuteTally", () => {
	it("counts each minute as the difference of the counters at its ends", () => {
		const tally = new MinuteTally(counters(100, 10, 1, 0));
		expect(tally.enter(M + 5, counters(100, 10, 1, 0))).toBe(true);
		expect(tally.enter(M + 59_999, counters(130, 13, 2, 0))).toBe(false);
		tally.refused("overloaded", M + 59_999);
		// The next minute's first call closes the first minute with the counters before it.
		expect(tally.enter(M + 60_000, counters(140, 15, 3, 1))).toBe(true);
		expect(tally.takeClosed(M + 60_001, counters(150, 16, 3, 1))).toEqual([
			{
				minute: M,
				issued: 40,
				requests: 5,
				waits: 2,
				clockRegressions: 1,
				refusals: { overloaded: 1 },
			},
		]);
		// The open minute is handed over once its end has passed, and only then.
		expect(tally.takeClosed(M + 119_999, counters(150, 16, 3, 1))).toEqual([]);
		expect(tally.takeClosed(M + 120_000, counters(150, 16, 3, 1))).toEqual([
			{ minute: M + 60_000, issued: 10, requests: 1, waits: 0, clockRegressions: 0, refusals: {} },
		]);
		expect(tally.openMinute).toBeUndefined();
	});

	it("keeps a clock step back in the open minute and ignores a reading that is no time", () => {
		const tally = new MinuteTally(counters(0, 0));
		tally.enter(M + 61_000, counters(0, 0));
		expect(tally.enter(M + 1_000, counters(5, 1))).toBe(false);
		expect(tally.enter(Number.NaN, counters(6, 2))).toBe(false);
		expect(tally.unsaved(counters(7, 3))).toEqual([
			{ minute: M + 60_000, issued: 7, requests: 3, waits: 0, clockRegressions: 0, refusals: {} },
		]);
		expect(tally.takeClosed(Number.POSITIVE_INFINITY, counters(7, 3))).toEqual([]);
	});

	it("opens the minute of a refusal made before the generator counted anything", () => {
		const tally = new MinuteTally(counters(0, 0));
		tally.refused("unavailable", M + 10);
		tally.refused("unavailable", M + 20);
		expect(tally.takeClosed(M + 60_000, counters(0, 0))).toEqual([
			{
				minute: M,
				issued: 0,
				requests: 0,
				waits: 0,
				clockRegressions: 0,
				refusals: { unavailable: 2 },
			},
		]);
	});

	it("closes a minute an earlier life opened and stored, from the counters restored since", () => {
		const first = new MinuteTally(counters(10, 2));
		first.enter(M + 1, counters(10, 2));
		first.refused("overloaded", M + 2);
		const stored = first.openState;
		expect(stored).toEqual({ minute: M, base: counters(10, 2), refusals: { overloaded: 1 } });
		const restored = new MinuteTally(counters(25, 5), stored);
		expect(restored.takeClosed(M + 60_000, counters(25, 5))).toEqual([
			{
				minute: M,
				issued: 15,
				requests: 3,
				waits: 0,
				clockRegressions: 0,
				refusals: { overloaded: 1 },
			},
		]);
		// What an earlier version stored (no refusals) is read too.
		const older = new MinuteTally(counters(12, 3), { minute: M, base: counters(10, 2) });
		expect(older.unsaved(counters(12, 3))[0]).toMatchObject({ issued: 2, refusals: {} });
		// Counters restored from before the base (a stale stats record) count nothing, never less.
		const stale = new MinuteTally(counters(0, 0), stored);
		expect(stale.takeClosed(M + 60_000, counters(0, 0))[0]).toMatchObject({
			issued: 0,
			requests: 0,
		});
	});

	it("lists closed minutes and the open one as unsaved until taken", () => {
		const tally = new MinuteTally(counters(0, 0));
		tally.enter(M, counters(0, 0));
		tally.enter(M + 60_000, counters(2, 2));
		expect(tally.unsaved(counters(3, 3)).map((m) => [m.minute, m.issued])).toEqual([
			[M, 2],
			[M + 60_000, 1],
		]);
		expect(minuteOf(M + 59_999)).toBe(M);
		expect(minuteOf(Number.NaN)).toBeUndefined();
	});

	it("windowStart: the first minute of the last N, the current one included", () => {
		expect(windowStart(M + 30_000, 1)).toBe(M);
		expect(windowStart(M + 59_999, 60)).toBe(M - 59 * 60_000);
		expect(windowStart(M, 1440)).toBe(M - 1439 * 60_000);
	});
});
