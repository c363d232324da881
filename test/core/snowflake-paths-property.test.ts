/**
 * The generator's fast paths (a single ID from the tick's cached text; calls that
 * need no wait issued synchronously) against its queued path: on the same clock
 * they must issue the very same IDs, write the same marks and count the same stats.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatRuns, type SnowflakeGenerator } from "../../src/ids/snowflake/generator";
import { FrozenClock } from "../shared/fake-clock";
import { generator, layout } from "./snowflake-setup";

/** The same pseudo-random sequence for both generators (sequence starts of new ticks). */
function seeded(seed: number): () => number {
	let state = seed >>> 0 || 1;
	return () => {
		state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
		return state / 2 ** 32;
	};
}

/** Every call through the queue: the fast path declines, as it does whenever a wait is needed. */
function queuedOnly(gen: SnowflakeGenerator): SnowflakeGenerator {
	expect(typeof Reflect.get(gen, "issueAtOnce")).toBe("function"); // a rename must fail here
	Object.defineProperty(gen, "issueAtOnce", { value: () => undefined });
	return gen;
}

/** A life of a generator: it, its clock and the marks (with their leases) it stored. */
interface Life {
	gen: SnowflakeGenerator;
	clock: FrozenClock;
	marks: [tick: number, leaseMs: number][];
}

const LEASE_MS = 20;

/** A new life on `clock`, restored from the last mark `before` stored (a restart), if any. */
function life(clock: FrozenClock, random: () => number, maxBorrowMs: number, before?: Life): Life {
	const marks: Life["marks"] = [];
	const [restoredMark, restoredLeaseMs] = before?.marks.at(-1) ?? [];
	const { gen } = generator(clock, {
		leaseMs: LEASE_MS,
		maxBorrowMs,
		random,
		restoredMark,
		restoredLeaseMs,
		restoredCounters: before?.gen.stats(),
		persistMark: (tick, leaseMs) => {
			marks.push([tick, leaseMs]);
		},
	});
	return { gen, clock, marks: before ? [...before.marks, ...marks] : marks };
}

// Sized to reach what the fast paths must agree on: a run has up to 120 steps (fast-check's
// default size would give about 5), the clock passes the 20-ms lease many times, ticks run
// full ("fill" takes exactly the room left, then a single ID must move on), batches span
// ticks, and about one step in fifteen restarts both generators from their stored marks.
const step = fc.record({
	advance: fc.oneof(
		{ weight: 6, arbitrary: fc.constant(0) },
		{ weight: 3, arbitrary: fc.integer({ min: -3, max: 4 }) },
		{ weight: 1, arbitrary: fc.integer({ min: 5, max: 45 }) },
	),
	count: fc.oneof(
		{ weight: 8, arbitrary: fc.constant<number | "fill">(1) },
		{ weight: 1, arbitrary: fc.integer({ min: 2, max: 5_000 }) },
		{ weight: 1, arbitrary: fc.constant<number | "fill">("fill") },
	),
	restart: fc.integer({ min: 0, max: 14 }).map((n) => n === 0),
});

/** The room left in the tick of the last ID issued (at least 1). */
function roomAfter(lastId: string | undefined): number {
	if (lastId === undefined) return 1;
	return Math.max(1, layout.maxSequence - layout.decompose(BigInt(lastId)).sequence);
}

describe("SnowflakeGenerator paths", () => {
	it("issues the same IDs, marks and stats on the fast paths as on the queued path", async () => {
		const reached = { fullTicks: 0, leaseWrites: 0, restarts: 0, steps: 0 };
		await fc.assert(
			fc.asyncProperty(
				fc.array(step, { minLength: 1, maxLength: 100, size: "max" }),
				fc.integer({ min: 1, max: 2 ** 31 }),
				fc.integer({ min: 0, max: 3 }),
				async (steps, seed, maxBorrowMs) => {
					const fastRandom = seeded(seed);
					const queuedRandom = seeded(seed);
					let fast = life(new FrozenClock(100), fastRandom, maxBorrowMs);
					let queued = life(new FrozenClock(100), queuedRandom, maxBorrowMs);
					queuedOnly(queued.gen);
					let lastId: string | undefined;
					for (const { advance, count: wanted, restart } of steps) {
						if (restart) {
							fast = life(fast.clock, fastRandom, maxBorrowMs, fast);
							queued = life(queued.clock, queuedRandom, maxBorrowMs, queued);
							queuedOnly(queued.gen);
							reached.restarts++;
						}
						fast.clock.time += advance;
						queued.clock.time += advance;
						const count = wanted === "fill" ? roomAfter(lastId) : wanted;
						const got = await fast.gen.next(count);
						const expected = formatRuns(layout, 7, await queued.gen.nextRuns(count));
						expect(got).toEqual(expected);
						expect(fast.clock.time).toBe(queued.clock.time); // the same waits
						lastId = got.at(-1);
						if (roomAfter(lastId) === 1) reached.fullTicks++;
						reached.steps++;
					}
					expect(fast.marks).toEqual(queued.marks);
					expect(fast.gen.stats()).toEqual(queued.gen.stats());
					reached.leaseWrites += fast.gen.stats().leaseWrites;
				},
			),
			{ seed: 0x9a75, numRuns: 60 },
		);
		// The runs reached what they are sized for (a change of the arbitraries must keep it so).
		expect(reached.fullTicks).toBeGreaterThan(50);
		expect(reached.leaseWrites).toBeGreaterThan(200);
		expect(reached.restarts).toBeGreaterThan(50);
	});
});
