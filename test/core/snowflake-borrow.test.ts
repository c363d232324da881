/**
 * Borrowed time (`maxBorrowMs`): on rollover the generator moves to the next tick
 * at once while it starts at most `maxBorrowMs` ahead of the clock, waits on a
 * timer beyond that, absorbs clock steps back that stay within the bound, and has
 * the high-water mark cover every borrowed tick before an ID in it is issued.
 */
import { describe, expect, it } from "vitest";
import type { IdRun, SnowflakeGeneratorOptions } from "../../src/ids/snowflake/generator";
import { FrozenClock } from "../shared/fake-clock";
import { layout, generator as sharedGenerator } from "./snowflake-setup";

const BORROW = 5;

/** The shared test generator (snowflake-setup.ts), borrowing up to BORROW ms. */
const generator = (clock: FrozenClock, options: Partial<SnowflakeGeneratorOptions> = {}) =>
	sharedGenerator(clock, { maxBorrowMs: BORROW, ...options });

const ticksOf = (runs: IdRun[]) => runs.map((run) => run.tick);
const total = (runs: IdRun[]) => runs.reduce((n, run) => n + run.count, 0);

describe("borrowed time on a frozen clock", () => {
	it("issues a batch across ticks up to the bound without waiting, then waits on a timer", async () => {
		const clock = new FrozenClock(100);
		const { gen } = generator(clock);
		// 6 ticks of 4,096 (random start 0): 100 … 105 without a wait.
		const first = await gen.nextRuns(6 * 4096);
		expect(ticksOf(first)).toEqual([100, 101, 102, 103, 104, 105]);
		expect(clock.sleeps).toEqual([]);
		expect(gen.stats()).toMatchObject({ maxLeadMs: 5, rolloverWaits: 0 });
		// Tick 106 starts 6 ms ahead: one timer wait of 1 ms brings it within the bound.
		const next = await gen.nextRuns(10);
		expect(next).toEqual([{ tick: 106, firstSequence: 0, count: 10 }]);
		expect(clock.sleeps).toEqual([1]);
		expect(gen.stats()).toMatchObject({ maxLeadMs: 5, rolloverWaits: 1 });
	});

	it("never waits mid-way through a batch that fits within the bound", async () => {
		const clock = new FrozenClock(100);
		const { gen } = generator(clock);
		const runs = await gen.nextRuns(10_000);
		expect(ticksOf(runs)).toEqual([100, 101, 102]);
		expect(total(runs)).toBe(10_000);
		expect(clock.sleeps).toEqual([]);
	});

	it("never starts a tick more than the bound ahead of the clock, over many batches", async () => {
		const clock = new FrozenClock(100);
		const { gen } = generator(clock);
		for (let i = 0; i < 50; i++) {
			const runs = await gen.nextRuns(7_000);
			for (const run of runs) expect(run.tick - clock.time).toBeLessThanOrEqual(BORROW);
		}
		expect(gen.stats().maxLeadMs).toBe(BORROW);
		// 350,000 IDs at 4,096 per tick: the clock had to move about 85 ms, minus the lead.
		expect(clock.time).toBeGreaterThanOrEqual(100 + Math.ceil(350_000 / 4096) - 1 - BORROW);
	});

	it("stores a mark covering a borrowed tick before issuing in it", async () => {
		const clock = new FrozenClock(100);
		let durable = -1;
		const issuedAbove: number[] = [];
		const { gen } = generator(clock, {
			leaseMs: 2, // a lease shorter than the lead: borrowed ticks need their own writes
			persistMark: async (tick) => {
				await Promise.resolve();
				durable = tick;
			},
		});
		for (let i = 0; i < 4; i++) {
			const runs = await gen.nextRuns(5_000);
			for (const run of runs) if (run.tick > durable) issuedAbove.push(run.tick);
		}
		expect(issuedAbove).toEqual([]);
		// 20,000 IDs in ticks 100 … 104, all borrowed at once: several lease writes, no wait.
		expect(clock.sleeps).toEqual([]);
		expect(gen.stats()).toMatchObject({ maxLeadMs: 4, leaseWrites: 3 }); // marks 102, 103, 104
	});

	it("with maxBorrowMs 0, waits at every rollover (the behaviour without borrowing)", async () => {
		const clock = new FrozenClock(100);
		const { gen } = generator(clock, { maxBorrowMs: 0 });
		const runs = await gen.nextRuns(10_000);
		expect(ticksOf(runs)).toEqual([100, 101, 102]);
		expect(clock.sleeps).toEqual([1, 1]);
		expect(gen.stats()).toMatchObject({ rolloverWaits: 2, maxLeadMs: 0 });
	});
});

describe("a clock stepping back", () => {
	it("is absorbed while the last tick stays within the bound: no wait, no error", async () => {
		const clock = new FrozenClock(100);
		const { gen } = generator(clock);
		await gen.nextRuns(2);
		clock.time = 97; // 3 ms back
		expect(await gen.nextRuns(2)).toEqual([{ tick: 100, firstSequence: 2, count: 2 }]);
		expect(clock.sleeps).toEqual([]);
		expect(gen.stats()).toMatchObject({ clockRegressions: 0, maxLeadMs: 3 });
	});

	it("beyond the bound, waits out only what borrowing does not cover", async () => {
		const clock = new FrozenClock(100);
		const { gen } = generator(clock);
		await gen.nextRuns(2);
		clock.time = 80; // 20 ms back: 15 to wait
		expect(await gen.nextRuns(1)).toEqual([{ tick: 100, firstSequence: 2, count: 1 }]);
		expect(clock.sleeps).toEqual([15]);
		expect(gen.stats()).toMatchObject({ clockRegressions: 1, maxRegressionMs: 20 });
	});

	it("beyond the bound and MAX_CLOCK_BACKWARD_MS, refuses with clock_regression", async () => {
		const clock = new FrozenClock(10_000);
		const { gen } = generator(clock, { maxBackwardMs: 100 });
		await gen.nextRuns(1);
		clock.time = 9_800; // 200 back: 195 to wait, more than 100
		await expect(gen.nextRuns(1)).rejects.toMatchObject({
			code: "clock_regression",
			retryAfterSeconds: 1,
		});
		expect(clock.sleeps).toEqual([]);
	});
});

describe("a restart after borrowing", () => {
	it("never repeats an ID of the earlier life, whose ticks ran ahead of the clock", async () => {
		const clock = new FrozenClock(100);
		const earlier = generator(clock, { leaseMs: 2 });
		const before = await earlier.gen.nextRuns(6 * 4096); // ticks 100 … 105, borrowed
		expect(clock.sleeps).toEqual([]);
		const mark = earlier.marks.at(-1) as number;
		expect(mark).toBeGreaterThanOrEqual(105);
		// The new life starts at once, on the same (frozen) clock, with the stored mark.
		const later = generator(clock, { leaseMs: 2, restoredMark: mark, restoredLeaseMs: 2 });
		const after = await later.gen.nextRuns(3 * 4096);
		const ceiling = layout.compose({ tick: 105, workerId: 7, sequence: layout.maxSequence });
		const firstAfter = layout.compose({
			tick: after[0]?.tick as number,
			workerId: 7,
			sequence: after[0]?.firstSequence as number,
		});
		expect(firstAfter > ceiling).toBe(true);
		expect(Math.min(...ticksOf(after))).toBeGreaterThan(Math.max(...ticksOf(before)));
		expect(Math.min(...ticksOf(after))).toBeGreaterThan(mark);
	});
});
