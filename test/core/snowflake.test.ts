import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdError } from "../../src/ids/errors";
import type { IdRun } from "../../src/ids/snowflake/generator";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";
import { FrozenClock, ScriptedClock } from "../shared/fake-clock";
import { expectSnowflakesIncreasing } from "../shared/order";
import { fieldsOf, generator, layout } from "./snowflake-setup";

describe("SnowflakeGenerator", () => {
	it("waits exactly once when the sequence rolls over (clock 2, 2, 3)", async () => {
		const clock = new ScriptedClock([2, 2, 3]);
		const { gen } = generator(clock);
		const full = await gen.next(4096);
		expect(fieldsOf([full[0] as string, full[4095] as string])).toEqual([
			{ tick: 2, workerId: 7, sequence: 0 },
			{ tick: 2, workerId: 7, sequence: 4095 },
		]);
		const [after] = fieldsOf(await gen.next());
		expect(after).toEqual({ tick: 3, workerId: 7, sequence: 0 });
		expect(clock.sleeps).toEqual([1]);
		expect(gen.stats().rolloverWaits).toBe(1);
	});

	it("waits out a small regression without touching the sequence", async () => {
		const clock = new ScriptedClock([1, 1, 0, 1]);
		const { gen } = generator(clock);
		const ids = [...(await gen.next()), ...(await gen.next()), ...(await gen.next())];
		expect(fieldsOf(ids).map((f) => [f.tick, f.sequence])).toEqual([
			[1, 0],
			[1, 1],
			[1, 2],
		]);
		expect(clock.sleeps).toEqual([1]);
		expect(gen.stats()).toMatchObject({ clockRegressions: 1, maxRegressionMs: 1 });
	});

	it("refuses a regression beyond the bound, then continues where it was", async () => {
		const clock = new ScriptedClock([1, 0, 1]);
		const { gen } = generator(clock, { maxBackwardMs: 0 });
		await gen.next(2);
		const refused = await gen.next().catch((e: unknown) => e);
		expect(refused).toBeInstanceOf(IdError);
		expect(refused).toMatchObject({ code: "clock_regression", retryAfterSeconds: 1 });
		expect(clock.sleeps).toEqual([]);
		const [after] = fieldsOf(await gen.next());
		expect(after).toMatchObject({ tick: 1, sequence: 2 });
	});

	it("gives Retry-After seconds for a large regression", async () => {
		const clock = new ScriptedClock([10_000, 2_500]);
		const { gen } = generator(clock);
		await gen.next();
		await expect(gen.next()).rejects.toMatchObject({
			code: "clock_regression",
			retryAfterSeconds: 8,
		});
		expect(gen.stats().maxRegressionMs).toBe(7_500);
	});

	it("issues 10,000 unique IDs on a clock that moves only while sleeping", async () => {
		const clock = new FrozenClock(5);
		const { gen } = generator(clock);
		const ids = await gen.next(10_000);
		expect(new Set(ids).size).toBe(10_000);
		expectSnowflakesIncreasing(ids);
		expect(clock.sleeps).toEqual([1, 1]); // 10,000 IDs span three ticks of 4,096
		expect(fieldsOf(ids).at(-1)?.tick).toBe(7);
	});

	it("starts a new tick at a small random sequence", async () => {
		const clock = new FrozenClock(5);
		const { gen } = generator(clock, { random: () => 0.999 });
		const [first] = fieldsOf(await gen.next());
		expect(first?.sequence).toBe(63);
	});

	it("serializes concurrent calls: all unique and in call order", async () => {
		const clock = new FrozenClock(100);
		const { gen } = generator(clock);
		clock.time = 100;
		await gen.next();
		clock.time = 99; // a regression of 1 ms: the first caller blocks, the rest queue behind it
		const batches = await Promise.all(Array.from({ length: 50 }, () => gen.next(100)));
		const ids = batches.flat();
		expect(new Set(ids).size).toBe(5_000);
		expectSnowflakesIncreasing(ids);
	});

	it("persists a mark a lease ahead, once per lease, before issuing beyond it", async () => {
		const clock = new FrozenClock(1_000);
		const { gen, marks } = generator(clock, { leaseMs: 500 });
		for (let t = 1_000; t < 1_500; t += 7) {
			clock.time = t;
			await gen.next();
		}
		expect(marks).toEqual([1_500]);
		clock.time = 1_501;
		await gen.next();
		expect(marks).toEqual([1_500, 2_001]);
		expect(gen.stats().leaseWrites).toBe(2);
	});

	it("issues nothing before the mark is stored", async () => {
		const clock = new FrozenClock(1_000);
		let release: () => void = () => {};
		const stored = new Promise<void>((resolve) => {
			release = resolve;
		});
		const { gen } = generator(clock, { persistMark: () => stored });
		let done = false;
		const pending = gen.next().then(() => {
			done = true;
		});
		await new Promise((r) => setTimeout(r, 5));
		expect(done).toBe(false);
		release();
		await pending;
		expect(done).toBe(true);
	});

	it("does not advance when persisting the mark fails", async () => {
		const clock = new FrozenClock(1_000);
		let fail = true;
		const { gen } = generator(clock, {
			persistMark: () => {
				if (fail) throw new Error("storage down");
			},
		});
		await expect(gen.next()).rejects.toThrow("storage down");
		fail = false;
		const [id] = fieldsOf(await gen.next());
		expect(id).toMatchObject({ tick: 1_000, sequence: 0 });
		expect(gen.stats().leaseWrites).toBe(1);
	});

	it("restored from a mark, issues only above it even when the clock is behind", async () => {
		const mark = 5_000;
		const clock = new FrozenClock(4_200); // a new host whose clock is behind the lease
		const { gen, marks } = generator(clock, { restoredMark: mark });
		const ids = await gen.next(3);
		const ceiling = layout.compose({ tick: mark, workerId: 7, sequence: layout.maxSequence });
		for (const id of ids) expect(BigInt(id) > ceiling).toBe(true);
		expect(fieldsOf(ids)[0]?.tick).toBe(mark + 1);
		expect(marks).toEqual([4_200 + 1_000]); // a lease ahead of the clock, above the borrowed tick
		expect(gen.stats().clockRegressions).toBe(0);
	});

	it("restored from a mark far ahead of the clock, refuses instead of waiting", async () => {
		const clock = new FrozenClock(1_000);
		const { gen } = generator(clock, { restoredMark: 10_000 });
		await expect(gen.next()).rejects.toMatchObject({ code: "clock_regression" });
	});

	it("fails with layout_exhausted past the layout's range", async () => {
		const small = new SnowflakeLayout({
			epoch: 0,
			timeBits: 41,
			workerBits: 10,
			sequenceBits: 12,
			timeUnitMs: 1,
		});
		const clock = new FrozenClock(small.exhaustsAt - 1);
		const { gen } = generator(clock, { layout: small });
		await gen.next(4096); // the last tick, full
		await expect(gen.next()).rejects.toMatchObject({ code: "layout_exhausted" });
	});

	it("fails with invalid_config when the clock is before the epoch", async () => {
		const { gen } = generator(new FrozenClock(5), {
			layout: new SnowflakeLayout({ ...TWITTER_LAYOUT, epoch: 1_000 }),
		});
		await expect(gen.next()).rejects.toMatchObject({ code: "invalid_config" });
	});

	it.each([0, -1, 2.5, Number.NaN])("rejects count %s", async (count) => {
		const { gen } = generator(new FrozenClock(5));
		await expect(gen.next(count)).rejects.toMatchObject({ code: "invalid_count" });
	});

	it("rejects worker IDs outside the layout", () => {
		expect(() => generator(new FrozenClock(5), { workerId: 1024 })).toThrow(/\[0, 1023\]/);
	});

	it("stays strictly increasing and unique under random clocks that jump back within the bound", async () => {
		const step = fc.record({
			jump: fc.integer({ min: -900, max: 30 }),
			count: fc.integer({ min: 1, max: 9_000 }),
		});
		await fc.assert(
			fc.asyncProperty(
				// Up to 30 steps (fast-check's default size would give about 5), each up to
				// 9,000 IDs: rollovers, waits for the clock and lease writes in every run.
				fc.array(step, { minLength: 1, maxLength: 30, size: "max" }),
				fc.integer({ min: 1, max: 1_000 }),
				async (steps, seed) => {
					const clock = new FrozenClock(10_000);
					let rng = seed;
					const { gen, marks } = generator(clock, {
						leaseMs: 20, // so the clock passes the lease and marks are written often
						random: () => {
							rng = (rng * 48271) % 2147483647; // a seeded Lehmer generator
							return (rng % 1000) / 1000;
						},
					});
					let previous = -1n;
					for (const { jump, count } of steps) {
						clock.time = Math.max(0, clock.time + jump);
						const runs: IdRun[] = await gen.nextRuns(count);
						for (const run of runs) expect(run.tick).toBeLessThanOrEqual(marks.at(-1) ?? -1);
						// Compare whole runs: within a run the sequence counts up by construction.
						expect(runs.reduce((n, run) => n + run.count, 0)).toBe(count);
						for (const run of runs) {
							const first = layout.compose({
								tick: run.tick,
								workerId: 7,
								sequence: run.firstSequence,
							});
							expect(first > previous).toBe(true);
							expect(run.firstSequence + run.count - 1).toBeLessThanOrEqual(layout.maxSequence);
							previous = first + BigInt(run.count - 1);
						}
					}
				},
			),
			{ seed: 0x5f1a, numRuns: 100 },
		);
	});
});
