/**
 * The generator's marks and what is stored with them: the lease each mark is written
 * with (what a later life may borrow from it), in whole ticks of the layout; the first
 * mark even at the epoch; the catch-up after a restore measured in ticks; the stats a
 * host shows (`lastTimestamp`, requests of failed calls, regressions, rollover waits);
 * and the refusals of a generator whose mark already covers the clock.
 */
import { describe, expect, it } from "vitest";
import type { Clock } from "../../src/ids/clock";
import {
	SnowflakeGenerator,
	type SnowflakeGeneratorOptions,
} from "../../src/ids/snowflake/generator";
import { SnowflakeLayout } from "../../src/ids/snowflake/layout";
import { FrozenClock } from "../shared/fake-clock";
import { generator, layout } from "./snowflake-setup";

/** Ten-millisecond ticks, epoch 0: a reading of 10 × t is the start of tick t. */
const tens = new SnowflakeLayout({
	epoch: 0,
	timeBits: 41,
	workerBits: 10,
	sequenceBits: 12,
	timeUnitMs: 10,
});

/** A generator that records each mark with the lease it was written with. */
function leased(clock: Clock, options: Partial<SnowflakeGeneratorOptions> = {}) {
	const stored: [tick: number, leaseMs: number][] = [];
	const { gen } = generator(clock, {
		persistMark: (tick, leaseMs) => {
			stored.push([tick, leaseMs]);
		},
		...options,
	});
	return { gen, stored };
}

describe("marks and their leases", () => {
	it("a mark is written a lease ahead of the clock, with that lease", async () => {
		const clock = new FrozenClock(1_000);
		const { gen, stored } = leased(clock, { leaseMs: 20 });
		await gen.next();
		clock.time = 1_021; // past the mark
		await gen.next();
		expect(stored).toEqual([
			[1_020, 20],
			[1_041, 20],
		]);
	});

	it("in whole ticks: a 25 ms lease on 10 ms ticks is 3 ticks, stored as 30 ms", async () => {
		const clock = new FrozenClock(10_000); // tick 1,000
		const { gen, stored } = leased(clock, { layout: tens, leaseMs: 25 });
		await gen.next();
		expect(stored).toEqual([[1_003, 30]]);
	});

	it("writes the first mark before the first ID even at the epoch (tick 0)", async () => {
		const clock = new FrozenClock(0);
		const { gen, stored } = leased(clock, { leaseMs: 20 });
		await gen.next();
		expect(stored).toEqual([[20, 20]]);
	});

	it("catching up after a restore, a mark keeps its lead up to the restored lease, not more", async () => {
		// The earlier life wrote mark 1,050 with a 50 ms lease; the clock is at 1,000.
		const clock = new FrozenClock(1_000);
		const { gen, stored } = leased(clock, {
			leaseMs: 20,
			maxBorrowMs: 30,
			restoredMark: 1_050,
			restoredLeaseMs: 50,
		});
		// Tick 1,051 leads by 51 ms: the mark written for it is 1,051, stored with 50 ms.
		const runs = await gen.nextRuns(1);
		expect(runs[0]).toMatchObject({ tick: 1_051 });
		expect(stored).toEqual([[1_051, 50]]);
		// Once the clock has caught up, marks carry this life's own lease again.
		clock.time = 1_100;
		await gen.nextRuns(1);
		expect(stored.at(-1)).toEqual([1_120, 20]);
	});

	it("catching up, a mark whose lead lies between the two leases stores that lead", async () => {
		const clock = new FrozenClock(1_000);
		const { gen, stored } = leased(clock, {
			leaseMs: 20,
			restoredMark: 1_030,
			restoredLeaseMs: 50,
		});
		await gen.nextRuns(1); // tick 1,031, 31 ms ahead
		expect(stored).toEqual([[1_031, 31]]);
	});

	it("the ticks borrowed after a restore are counted in ticks of the layout", async () => {
		// 10 ms ticks, 20 ms of borrowing: ticks up to the mark + 1 + 2 may lead by the restored
		// lease (plus borrowing and a tick); the next one only by 20 ms, so it waits for the clock.
		const clock = new FrozenClock(10_000); // tick 1,000
		const { gen } = leased(clock, {
			layout: tens,
			leaseMs: 50,
			maxBorrowMs: 20,
			restoredMark: 1_005,
			restoredLeaseMs: 50,
			random: () => 0,
		});
		const runs = await gen.nextRuns(4_096 * 4);
		expect(runs.map((run) => run.tick)).toEqual([1_006, 1_007, 1_008, 1_009]);
		// Ticks 1,006-1,008 at once; tick 1,009 (90 ms ahead) waited until it led by 20 ms.
		expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(70);
	});
});

describe("stats a host shows", () => {
	it("lastTimestamp: none before the first ID, the last ID's time after, none while restored", async () => {
		const clock = new FrozenClock(0);
		const { gen } = generator(clock);
		expect(gen.stats().lastTimestamp).toBeNull();
		await gen.next(); // tick 0, at the epoch
		expect(gen.stats().lastTimestamp).toBe(0);
		clock.time = 7;
		await gen.next();
		expect(gen.stats().lastTimestamp).toBe(7);
		const restored = generator(clock, { restoredMark: 1_007 }).gen;
		expect(restored.stats().lastTimestamp).toBeNull(); // the mark is no ID's time
		await restored.next();
		expect(restored.stats().lastTimestamp).toBe(1_008);
	});

	it("a clock that throws fails the call and counts it, on every path", async () => {
		const fault = new Error("clock unavailable");
		const clock: Clock = {
			now: () => {
				throw fault;
			},
			sleep: async () => {},
		};
		const { gen } = generator(clock);
		await expect(gen.next()).rejects.toBe(fault);
		await expect(gen.next(3)).rejects.toBe(fault);
		await expect(gen.nextRuns(1)).rejects.toBe(fault);
		expect(gen.stats()).toMatchObject({ requests: 3, issued: 0 });
	});

	it("waiting for a restored mark is no clock regression", async () => {
		const clock = new FrozenClock(1_000);
		const { gen } = generator(clock, { leaseMs: 20, restoredMark: 1_500, restoredLeaseMs: 20 });
		// The mark + 1 leads by 501 ms, 480 more than the lease (and a tick) explains: waited out.
		const [run] = await gen.nextRuns(1);
		expect(run?.tick).toBe(1_501);
		expect(gen.stats()).toMatchObject({ clockRegressions: 0, maxRegressionMs: 0 });
		// A regression of this life is one.
		clock.time -= 100;
		await gen.nextRuns(1);
		expect(gen.stats()).toMatchObject({ clockRegressions: 1 });
	});

	it("the first rollover wait is counted, at tick 1 as at any other", async () => {
		const clock = new FrozenClock(0);
		const { gen } = generator(clock); // no borrowing: a full tick waits for the next
		await gen.next(4_096); // all of tick 0
		await gen.next();
		expect(clock.time).toBe(1);
		expect(gen.stats().rolloverWaits).toBe(1);
	});
});

describe("refusals of a generator whose mark covers the clock (the fast path's cases)", () => {
	it.each([-1, 1.5, Number.NaN, 1024])("refuses worker ID %s when made", (workerId) => {
		expect(() => generator(new FrozenClock(5), { workerId })).toThrow(
			expect.objectContaining({ code: "invalid_worker_id" }),
		);
	});

	it.each([0, -1, 2.5, Number.NaN])("refuses count %s", async (count) => {
		const clock = new FrozenClock(5);
		const { gen } = generator(clock);
		await gen.next(); // a mark 1 s ahead: a valid call would need no wait
		await expect(gen.next(count)).rejects.toMatchObject({ code: "invalid_count" });
		await expect(gen.nextRuns(count)).rejects.toMatchObject({ code: "invalid_count" });
		expect(gen.stats().issued).toBe(1);
	});

	it("refuses a count beyond the wait budget, and serves the largest", async () => {
		const clock = new FrozenClock(5);
		const { gen } = generator(clock, { maxWaitMs: 0, maxBorrowMs: 2 });
		await gen.next();
		const most = 3 * 4_033; // three ticks (the clock's and two borrowed), each at its surest room
		await expect(gen.nextRuns(most + 1)).rejects.toMatchObject({ code: "invalid_count" });
		expect((await gen.nextRuns(most)).reduce((n, run) => n + run.count, 0)).toBe(most);
	});

	it("refuses layout_exhausted past the layout's last tick, even with a mark beyond it", async () => {
		const end = layout.tickLimit; // epoch 0, 1 ms ticks: the clock reads ticks
		const make = () =>
			new SnowflakeGenerator({
				layout,
				workerId: 7,
				clock: new FrozenClock(end - 2),
				maxBackwardMs: 1_000,
				leaseMs: 1_000, // the mark lies past the layout's end
				maxBorrowMs: 5,
				persistMark: () => {},
				random: () => 0,
			});
		// After one ID, the last two ticks hold 8,191 more; one more needs a tick past the end.
		const full = make();
		await full.next();
		expect((await full.nextRuns(8_191)).at(-1)).toMatchObject({ tick: end - 1, count: 4_096 });
		await expect(full.next()).rejects.toMatchObject({ code: "layout_exhausted" });
		const over = make();
		await over.next();
		await expect(over.nextRuns(8_192)).rejects.toMatchObject({ code: "layout_exhausted" });
	});
});

describe("refusals say what was wrong", () => {
	it("a restored mark and lease of 0 are taken (a mark at the epoch); negative ones are not", () => {
		const clock = new FrozenClock(5);
		expect(() => generator(clock, { restoredMark: 0, restoredLeaseMs: 0 })).not.toThrow();
		expect(() => generator(clock, { restoredMark: -1 })).toThrow(
			expect.objectContaining({ code: "internal" }),
		);
		expect(() => generator(clock, { restoredLeaseMs: -1 })).toThrow(
			expect.objectContaining({ code: "internal" }),
		);
	});

	it("count, epoch, exhaustion and overload, each with its detail", async () => {
		const { gen } = generator(new FrozenClock(5));
		await expect(gen.next(0)).rejects.toMatchObject({
			detail: "count must be a positive integer, got 0",
		});
		const early = generator(new FrozenClock(-3_000)).gen;
		await expect(early.next()).rejects.toMatchObject({
			code: "invalid_config",
			detail:
				"the clock (1969-12-31T23:59:57.000Z) is before the Snowflake epoch (1970-01-01T00:00:00.000Z)",
		});
		const late = generator(new FrozenClock(layout.tickLimit)).gen;
		await expect(late.next()).rejects.toMatchObject({
			code: "layout_exhausted",
			detail: `the Snowflake layout ran out of time at ${new Date(layout.exhaustsAt).toISOString()}; configure a later epoch or more time bits`,
		});
		const stuck = generator(new FrozenClock(5), { maxWaitMs: 0 }).gen;
		for (const count of [1, 4_033, 62]) await stuck.nextRuns(count); // all of tick 5
		await expect(stuck.nextRuns(1)).rejects.toMatchObject({
			code: "overloaded",
			retryAfterSeconds: 1,
			detail:
				"worker ID 7 cannot issue these IDs in time: they need its clock to move 1 ms more, past the 0 ms one call may wait (queueing included); retry shortly, ask for fewer IDs or spread load over more worker IDs",
		});
	});
});
