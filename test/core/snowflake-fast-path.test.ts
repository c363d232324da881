/**
 * The generator's fast path: calls that need no wait are issued synchronously,
 * all others go through the queue.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Clock } from "../../src/ids/clock";
import type { IdRun, SnowflakeGenerator } from "../../src/ids/snowflake/generator";
import { SnowflakeLayout } from "../../src/ids/snowflake/layout";
import { FrozenClock, ScriptedClock } from "../shared/fake-clock";
import { expectSnowflakesIncreasing } from "../shared/order";
import { fieldsOf, generator } from "./snowflake-setup";

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

	it("takes the fast path for every call that needs no wait nor write, at each bound", async () => {
		const clock = new FrozenClock(0); // at the epoch
		const { gen } = generator(clock, { leaseMs: 20, maxBorrowMs: 2, maxWaitMs: 0 });
		const paths = watchPaths(gen);
		await gen.next(); // no mark yet: queued, writes mark 20
		expect(paths.take()).toEqual(["at once?", "queued"]);
		await gen.next(); // the same tick with room: the cached tick's text
		expect(paths.take()).toEqual([]);
		await gen.next(2); // at the epoch still, a batch in the same tick
		expect(paths.take()).toEqual(["at once?"]);
		clock.time = 1;
		await gen.next(); // a new tick under the mark
		expect(paths.take()).toEqual(["at once?"]);
		await gen.nextRuns(4_096 + 4_096); // to the end of tick 3: 2 ms ahead, the borrowing bound
		expect(paths.take()).toEqual(["at once?"]);
		clock.time = 18;
		// The largest count the budget allows (three ticks at their surest room), its last tick
		// exactly the mark (20) and exactly 2 ms ahead.
		await gen.nextRuns(3 * 4_033);
		expect(paths.take()).toEqual(["at once?"]);
		await gen.nextRuns(1); // the last tick (20) leads the clock by exactly the bound
		expect(paths.take()).toEqual(["at once?"]);
		// And the calls that need the queue: past the mark (a write), past the bound (a wait).
		clock.time = 21;
		await gen.nextRuns(1);
		expect(paths.take()).toEqual(["at once?", "queued"]);
		clock.time = 15; // 6 ms behind the last tick: a wait (refused here, with no budget)
		await expect(gen.nextRuns(1)).rejects.toMatchObject({ code: "clock_regression" });
		expect(paths.take()).toEqual(["at once?", "queued"]);
	});

	it("gives a batch all its IDs when a new tick's random start leaves too little room", async () => {
		// A new tick starts at a sequence up to 63, leaving at least 4,033 of 4,096.
		const clock = new FrozenClock(4);
		const { gen } = generator(clock, { random: () => 0.999 });
		await gen.next(); // tick 4, and a lease that covers the ticks below
		clock.time = 5;
		const ids = await gen.next(4_034);
		expect(ids).toHaveLength(4_034);
		expectSnowflakesIncreasing(ids);
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
		expectSnowflakesIncreasing([...a, ...b]);
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
					count: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 120 }), fc.constant(300)),
					strings: fc.boolean(),
				}),
				{ minLength: 1, maxLength: 4, size: "max" },
			),
			awaitEach: fc.boolean(),
			slowStorage: fc.boolean(),
		});
		await fc.assert(
			// Up to 12 ops of up to 4 calls. Ticks of 64 sequences: batches of a few ticks and
			// rollovers at every few calls, for a fiftieth of the IDs Twitter's 4,096 would take.
			fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12, size: "max" }), async (ops) => {
				const clock = new FrozenClock(50_000);
				let slowStorage = false;
				let durable = -1; // the highest mark whose write has completed
				const { gen } = generator(clock, {
					layout: TINY,
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
					result.map((x) => (typeof x === "string" ? TINY.decompose(BigInt(x)).tick : x.tick));
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
				expectSnowflakesIncreasing(all);
			}),
			{ seed: 0xfa57, numRuns: 50 },
		);
	}, 30_000);
});

/**
 * Records which path each call of `gen` went through: "at once?" when the fast path was
 * asked (it may decline), "queued" for the queued path. A single ID in the last tick with
 * room asks neither (its cached text). `take()` returns and clears the record.
 */
function watchPaths(gen: SnowflakeGenerator) {
	const seen: string[] = [];
	for (const [method, label] of [
		["issueAtOnce", "at once?"],
		["issue", "queued"],
	] as const) {
		const original = Reflect.get(gen, method) as (...args: unknown[]) => unknown;
		expect(typeof original).toBe("function"); // a rename must fail here
		Object.defineProperty(gen, method, {
			value: (...args: unknown[]) => {
				seen.push(label);
				return original.apply(gen, args);
			},
		});
	}
	return { take: () => seen.splice(0) };
}

/** 64 sequences a tick (epoch 0, 1 ms ticks): rollovers with small batches. */
const TINY = new SnowflakeLayout({
	epoch: 0,
	timeBits: 41,
	workerBits: 16,
	sequenceBits: 6,
	timeUnitMs: 1,
});

/** The IDs of `next` (checked to be canonical decimals of worker 7) or of `nextRuns`, as BigInts. */
function expandIds(result: string[] | IdRun[]): bigint[] {
	const ids: bigint[] = [];
	const malformed: string[] = [];
	for (const x of result) {
		if (typeof x === "string") {
			const id = BigInt(x);
			// Plain comparisons here, one expect below: thousands of IDs per call.
			if (id.toString() !== x || TINY.decompose(id).workerId !== 7) malformed.push(x);
			ids.push(id);
		} else {
			for (let k = 0; k < x.count; k++) {
				ids.push(TINY.compose({ tick: x.tick, workerId: 7, sequence: x.firstSequence + k }));
			}
		}
	}
	expect(malformed).toEqual([]);
	return ids;
}
