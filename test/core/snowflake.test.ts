import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Clock } from "../../src/ids/clock";
import { IdError } from "../../src/ids/errors";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/layout";
import {
	type IdRun,
	SnowflakeGenerator,
	type SnowflakeGeneratorOptions,
} from "../../src/ids/snowflake";
import { FrozenClock, ScriptedClock } from "./fake-clock";

/** Twitter's bits with epoch 0, so clock readings are ticks. */
const layout = new SnowflakeLayout({ ...TWITTER_LAYOUT, epoch: 0 });

function generator(
	clock: SnowflakeGeneratorOptions["clock"],
	options: Partial<SnowflakeGeneratorOptions> = {},
) {
	const marks: number[] = [];
	const gen = new SnowflakeGenerator({
		layout,
		workerId: 7,
		clock,
		maxBackwardMs: 1000,
		leaseMs: 1000,
		persistMark: (tick) => {
			marks.push(tick);
		},
		random: () => 0,
		...options,
	});
	return { gen, marks };
}

const fieldsOf = (ids: string[]) => ids.map((id) => layout.decompose(BigInt(id)));

function expectStrictlyIncreasing(ids: string[]) {
	for (let i = 1; i < ids.length; i++) {
		expect(BigInt(ids[i] as string) > BigInt(ids[i - 1] as string)).toBe(true);
	}
}

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
		expectStrictlyIncreasing(ids);
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
		expectStrictlyIncreasing(ids);
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
				fc.array(step, { minLength: 1, maxLength: 30 }),
				fc.integer({ min: 1, max: 1_000 }),
				async (steps, seed) => {
					const clock = new FrozenClock(10_000);
					let rng = seed;
					const { gen, marks } = generator(clock, {
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
			{ numRuns: 200 },
		);
	});
});

/**
 * A clock whose sleeps end only when the test says so; reads return `time`, which
 * only the test moves. For holding one call inside its critical section.
 */
class GatedClock implements Clock {
	private readonly waiting: (() => void)[] = [];
	constructor(public time: number) {}
	now(): number {
		return this.time;
	}
	sleep(): Promise<void> {
		return new Promise((resolve) => this.waiting.push(resolve));
	}
	get sleeping(): number {
		return this.waiting.length;
	}
	wake(): void {
		for (const resolve of this.waiting.splice(0)) resolve();
	}
}

const tickOf = (id: string) => layout.decompose(BigInt(id)).tick;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

// Calls that need no wait are issued synchronously (the fast path), all others go
// through the queue. These tests fail if the fast path ever jumps the queue, issues
// past the persisted mark, or formats differently from the queued path.
describe("SnowflakeGenerator fast path", () => {
	it("issues single calls on an idle generator in order, one clock read each", async () => {
		const clock = new ScriptedClock([5, 5, 5, 6, 6, 1_200]);
		const { gen, marks } = generator(clock);
		const ids: string[] = [];
		for (let i = 0; i < 6; i++) ids.push(...(await gen.next()));
		expect(fieldsOf(ids).map((f) => [f.tick, f.sequence])).toEqual([
			[5, 0],
			[5, 1],
			[5, 2],
			[6, 0],
			[6, 1],
			[1_200, 0],
		]);
		expect(clock.reads).toBe(6);
		expect(marks).toEqual([1_005, 2_200]); // the last call passed the mark: a new lease first
		expect(gen.stats()).toMatchObject({ issued: 6, requests: 6, leaseWrites: 2 });
	});

	it("gives a batch all its IDs when a new tick's random start leaves too little room", async () => {
		// A new tick starts at a sequence up to 63, leaving at least 4,033 of 4,096.
		const clock = new FrozenClock(4);
		const { gen } = generator(clock, { random: () => 0.999 });
		await gen.next(); // tick 4, and a lease that covers the ticks below
		clock.time = 5;
		const ids = await gen.next(4_034);
		expect(ids).toHaveLength(4_034);
		expectStrictlyIncreasing(ids);
		expect(fieldsOf(ids).at(0)).toMatchObject({ tick: 5, sequence: 63 });
		expect(fieldsOf(ids).at(-1)).toMatchObject({ tick: 6, sequence: 63 });
		expect(clock.sleeps).toEqual([1]);
		expect(gen.stats()).toMatchObject({ issued: 4_035, requests: 2 });
	});

	it("does not let a call that could be issued at once pass one waiting for the next tick", async () => {
		const clock = new GatedClock(10);
		const { gen } = generator(clock);
		const first = gen.next(5_000); // 4,096 in tick 10, then a wait for tick 11
		await settle();
		expect(clock.sleeping).toBe(1);
		clock.time = 11; // tick 11 is covered by the mark: alone, a call would be issued at once
		const second = gen.next(1);
		const third = gen.nextRuns(1);
		clock.wake();
		const [a, b, c] = await Promise.all([first, second, third]);
		expect(a).toHaveLength(5_000);
		expectStrictlyIncreasing([...a, ...b]);
		expect(fieldsOf(b)).toEqual([{ tick: 11, workerId: 7, sequence: 904 }]);
		expect(c).toEqual([{ tick: 11, firstSequence: 905, count: 1 }]);
	});

	it("does not let a call pass one waiting out a clock regression", async () => {
		const clock = new GatedClock(100);
		const { gen } = generator(clock);
		await gen.next();
		clock.time = 99;
		const first = gen.next(); // behind by 1 ms: waits
		await settle();
		clock.time = 100; // the clock caught up: alone, a call would be issued at once
		const second = gen.next();
		clock.wake();
		const ids = [...(await first), ...(await second)];
		expect(fieldsOf(ids).map((f) => f.sequence)).toEqual([1, 2]);
	});

	it("does not issue past the stored mark at once: it waits for the next lease write", async () => {
		const clock = new FrozenClock(1_000);
		let release: () => void = () => {};
		const writes: number[] = [];
		const { gen } = generator(clock, {
			leaseMs: 500,
			persistMark: (tick) => {
				writes.push(tick);
				if (writes.length === 1) return; // the first lease is stored at once
				return new Promise<void>((resolve) => {
					release = resolve;
				});
			},
		});
		await gen.next();
		clock.time = 1_501; // past the mark of 1,500
		let done = 0;
		const pending = [gen.next(), gen.next(), gen.nextRuns(2)].map((p) => p.then(() => done++));
		await settle();
		expect(writes).toEqual([1_500, 2_001]);
		expect(done).toBe(0);
		release();
		await Promise.all(pending);
		expect(done).toBe(3);
		expect(writes).toEqual([1_500, 2_001]);
	});

	it("keeps strict order, the lease contract and exact decimals under random interleavings", async () => {
		const op = fc.record({
			jump: fc.integer({ min: -40, max: 3 }),
			calls: fc.array(
				fc.record({
					count: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 2_000 }), fc.constant(4_500)),
					strings: fc.boolean(),
				}),
				{ minLength: 1, maxLength: 4 },
			),
			awaitEach: fc.boolean(),
			slowStorage: fc.boolean(),
		});
		await fc.assert(
			fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
				const clock = new FrozenClock(50_000);
				let slowStorage = false;
				let durable = -1; // the highest mark whose write has completed
				const { gen } = generator(clock, {
					leaseMs: 20,
					random: () => 0.5,
					persistMark: (tick) => {
						if (!slowStorage) {
							durable = Math.max(durable, tick);
							return;
						}
						return settle().then(() => {
							durable = Math.max(durable, tick);
						});
					},
				});
				const ticksOf = (result: string[] | IdRun[]): number[] =>
					result.map((x) => (typeof x === "string" ? tickOf(x) : x.tick));
				// Every call's IDs, as BigInts in call order, once all have resolved.
				const inCallOrder: Promise<bigint[]>[] = [];
				for (const { jump, calls, awaitEach, slowStorage: slow } of ops) {
					slowStorage = slow;
					clock.time = Math.max(0, clock.time + jump);
					const batch = calls.map(({ count, strings }) => {
						const call: Promise<string[] | IdRun[]> = strings
							? gen.next(count)
							: gen.nextRuns(count);
						return call.then((result) => {
							// Nothing is handed out above a mark that is not yet stored.
							expect(Math.max(...ticksOf(result))).toBeLessThanOrEqual(durable);
							const ids = expandIds(result);
							expect(ids).toHaveLength(count);
							return ids;
						});
					});
					inCallOrder.push(...batch);
					if (awaitEach) await Promise.all(batch);
				}
				const all = (await Promise.all(inCallOrder)).flat();
				let outOfOrder = 0;
				for (let i = 1; i < all.length; i++) {
					if ((all[i] as bigint) <= (all[i - 1] as bigint)) outOfOrder++;
				}
				expect(outOfOrder).toBe(0);
			}),
			{ numRuns: 80 },
		);
	}, 30_000);
});

/** The IDs of `next` (checked to be canonical decimals of worker 7) or of `nextRuns`, as BigInts. */
function expandIds(result: string[] | IdRun[]): bigint[] {
	const ids: bigint[] = [];
	const malformed: string[] = [];
	for (const x of result) {
		if (typeof x === "string") {
			const id = BigInt(x);
			// Plain comparisons here, one expect below: thousands of IDs per call.
			if (id.toString() !== x || layout.decompose(id).workerId !== 7) malformed.push(x);
			ids.push(id);
		} else {
			for (let k = 0; k < x.count; k++) {
				ids.push(layout.compose({ tick: x.tick, workerId: 7, sequence: x.firstSequence + k }));
			}
		}
	}
	expect(malformed).toEqual([]);
	return ids;
}
