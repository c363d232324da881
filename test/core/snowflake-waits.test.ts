/**
 * Bounded waits: every wait inside one call fits a budget (`maxWaitMs`), queueing
 * behind other calls included; a call that cannot finish within it is refused,
 * before issuing anything where that can be known, and the queue moves on. And a
 * restart whose stored mark leads the clock by an earlier, longer lease goes on at
 * once from the mark + 1 instead of waiting (or answering 503) until the mark passes.
 */
import { describe, expect, it } from "vitest";
import { SnowflakeLayout } from "../../src/ids/snowflake/layout";
import { FrozenClock, ScriptedClock } from "../shared/fake-clock";
import { generator } from "./snowflake-setup";

/** One-second ticks of two IDs each: batches need many ticks. */
const slow = new SnowflakeLayout({
	epoch: 0,
	timeBits: 40,
	workerBits: 22,
	sequenceBits: 1,
	timeUnitMs: 1000,
});

/** A clock that never moves, not even while sleeping; sleeps return at once. */
class StuckClock extends FrozenClock {
	override async sleep(ms: number): Promise<void> {
		this.sleeps.push(ms);
	}
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe("the wait budget", () => {
	it("refuses a batch that needs more ticks than the budget allows, without sleeping (1 s ticks of 2 IDs, count 10,000)", async () => {
		const clock = new FrozenClock(5_000);
		const { gen } = generator(clock, { layout: slow, maxWaitMs: 2_000 });
		// Three ticks are reachable within 2 s from any clock phase: 6 IDs.
		await expect(gen.next(10_000)).rejects.toMatchObject({
			code: "invalid_count",
			detail: expect.stringContaining("at most 6"),
		});
		expect(clock.sleeps).toEqual([]);
		expect(await gen.next(6)).toHaveLength(6);
		expect(sum(clock.sleeps)).toBe(2_000);
	});

	it("refuses with overloaded before issuing anything when borrowed time is used up", async () => {
		const clock = new FrozenClock(5_000);
		const { gen } = generator(clock, { layout: slow, maxWaitMs: 2_000 });
		await gen.next(6); // ticks 5, 6, 7: the clock is now at 7
		const refused = await gen.nextRuns(6).catch((error: unknown) => error);
		// Ticks 8, 9, 10 need the clock to move 3 s.
		expect(refused).toMatchObject({ code: "overloaded", retryAfterSeconds: 3 });
		expect(clock.sleeps).toEqual([1_000, 1_000]);
		// Nothing was taken: the next ID follows the last one directly.
		expect(await gen.nextRuns(1)).toEqual([{ tick: 8, firstSequence: 0, count: 1 }]);
	});

	it("on a clock that never moves, gives up after the budget and the queue moves on", async () => {
		const clock = new StuckClock(100);
		const { gen } = generator(clock, { maxWaitMs: 50 });
		await gen.next(4_096); // tick 100 is full
		const calls = [gen.next(1), gen.next(1), gen.nextRuns(1)];
		const results = await Promise.allSettled(calls);
		for (const result of results) {
			expect(result).toMatchObject({ status: "rejected", reason: { code: "overloaded" } });
		}
		// The first polled for its whole budget; the ones queued behind it had spent theirs waiting.
		expect(sum(clock.sleeps)).toBe(50);
		expect(clock.sleeps.every((ms) => ms === 1)).toBe(true);
		expect(gen.stats()).toMatchObject({ rolloverWaits: 1, requests: 4 });
	});

	it("counts the time queued behind a regression wait against the budget", async () => {
		const clock = new FrozenClock(1_000);
		const { gen } = generator(clock, { layout: slow, maxWaitMs: 2_500, maxBackwardMs: 2_000 });
		await gen.next(2); // tick 1 full
		clock.time = 0; // a second back: the first call waits 2 s (back, then the next tick)
		const first = gen.next(1);
		const second = gen.next(2); // would need the clock to move 1 s more: 3 s in all
		expect(await first).toHaveLength(1);
		await expect(second).rejects.toMatchObject({ code: "overloaded" });
		expect(sum(clock.sleeps)).toBe(2_000);
	});

	it("refuses a regression that fits MAX_CLOCK_BACKWARD_MS but not the budget as clock_regression", async () => {
		const clock = new FrozenClock(10_000);
		const { gen } = generator(clock, { maxWaitMs: 300 });
		await gen.next();
		clock.time = 9_500;
		await expect(gen.next()).rejects.toMatchObject({
			code: "clock_regression",
			retryAfterSeconds: 1,
		});
		expect(clock.sleeps).toEqual([]);
	});
});

describe("the wait budget's measures", () => {
	it("counts from the highest reading: a clock back at queueing does not lengthen the budget", async () => {
		// Readings: the first ID at 10,000; the next call sees 9,500 (waits out 500 ms), then
		// 11,800 after its wait, 1,800 ms after the highest reading it was queued at.
		const clock = new ScriptedClock([10_000, 9_500, 11_800, 11_800, 11_801]);
		const { gen } = generator(clock, { maxWaitMs: 2_000 });
		await gen.next();
		// 5,000 IDs: tick 11,800 and a wait of 1 ms for tick 11,801; 200 ms of budget are left.
		const runs = await gen.nextRuns(5_000);
		expect(runs.map((run) => run.tick)).toEqual([11_800, 11_801]);
		expect(clock.sleeps).toEqual([500, 1]);
	});

	it("a wait that ended counts against the calls queued during it, not against later ones", async () => {
		const clock = new FrozenClock(10_000);
		const { gen } = generator(clock, { layout: slow, maxWaitMs: 2_000, maxBackwardMs: 1_000 });
		await gen.next(2); // tick 10 full
		clock.time = 9_500; // back half a second: the next call waits 1.5 s (back, then tick 11)
		expect(await gen.nextRuns(1)).toEqual([{ tick: 11, firstSequence: 0, count: 1 }]);
		// Later, alone: four IDs need two more ticks, a wait of 2 s, all of a fresh budget.
		const later = await gen.nextRuns(4);
		expect(later.map((run) => run.tick)).toEqual([11, 12, 13]);
		expect(sum(clock.sleeps)).toBe(1_500 + 2_000);
	});

	it("waits out a regression of exactly MAX_CLOCK_BACKWARD_MS; one more is refused", async () => {
		for (const [backMs, outcome] of [
			[1_000, "waited"],
			[1_001, "clock_regression"],
		] as const) {
			const clock = new FrozenClock(10_000);
			const { gen } = generator(clock, { maxWaitMs: 2_000, maxBackwardMs: 1_000 });
			await gen.next();
			clock.time -= backMs;
			const result = await gen.nextRuns(1).then(
				() => "waited",
				(error: { code: string }) => error.code,
			);
			expect(result).toBe(outcome);
		}
	});
});

/** A frozen clock whose timers fire late: each sleep moves time by twice what it asked for. */
class LateTimerClock extends FrozenClock {
	override async sleep(ms: number): Promise<void> {
		await super.sleep(ms);
		this.time += ms;
	}
}

describe("the wait budget on late timers", () => {
	it("measures the time that passed, not the time asked for: nobody waits past the budget plus one timer's lateness", async () => {
		const clock = new LateTimerClock(1_000_000);
		const { gen } = generator(clock, { maxWaitMs: 2_000, maxBorrowMs: 5 });
		// Twelve blocks of 1,000,000 (about 250 ticks each) and one single ID, all at once.
		const started = clock.now();
		const answered: number[] = [];
		const counts = [...Array.from({ length: 12 }, () => 1_000_000), 1];
		const results = await Promise.allSettled(
			counts.map((count) =>
				gen.nextRuns(count).finally(() => {
					answered.push(clock.now() - started);
				}),
			),
		);
		const lateness = Math.max(...clock.sleeps);
		for (const ms of answered) expect(ms).toBeLessThanOrEqual(2_000 + lateness);
		// The budget ran out for some: refused as retryable, the rest answered.
		const refused = results.filter((r) => r.status === "rejected");
		expect(refused.length).toBeGreaterThan(0);
		for (const r of refused) expect(r).toMatchObject({ reason: { code: "overloaded" } });
		expect(results.filter((r) => r.status === "fulfilled").length).toBeGreaterThan(0);
	});
});

describe("a restart after LEASE_MS shrank", () => {
	it("goes on from the mark + 1 at once when the mark leads by the old 60 s lease", async () => {
		const clock = new FrozenClock(100_000);
		const mark = 160_000; // written by a life with LEASE_MS=60000 just before it stopped
		const { gen, marks } = generator(clock, {
			restoredMark: mark,
			restoredLeaseMs: 60_000,
			leaseMs: 1_000,
			maxBorrowMs: 5,
		});
		const runs = await gen.nextRuns(1);
		expect(runs).toEqual([{ tick: mark + 1, firstSequence: 0, count: 1 }]);
		expect(clock.sleeps).toEqual([]);
		expect(marks).toEqual([mark + 1]); // covers the borrowed tick, not a lease beyond it
		// Calls keep going above the mark while the clock catches up.
		for (let i = 0; i < 10; i++) await gen.next(100);
		expect(clock.sleeps).toEqual([]);
		expect(gen.stats()).toMatchObject({ clockRegressions: 0, maxLeadMs: 60_001 });
	});

	it("waits (within budget) only for what the old lease does not explain", async () => {
		const clock = new FrozenClock(100_000);
		const { gen } = generator(clock, { restoredMark: 101_500, restoredLeaseMs: 1_000 });
		const [run] = await gen.nextRuns(1);
		expect(run?.tick).toBe(101_501);
		expect(clock.sleeps).toEqual([500]); // 1,501 ahead, 1,001 of it borrowed
	});
});
