/**
 * The generator's fast paths (a single ID from the tick's cached text; calls that
 * need no wait issued synchronously) against its queued path: on the same clock
 * they must issue the very same IDs, write the same marks and count the same stats.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatRuns, type SnowflakeGenerator } from "../../src/ids/snowflake";
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

const step = fc.record({
	// Clock moves between calls: mostly none or forward, sometimes back a little.
	advance: fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, fc.integer({ min: -3, max: 4 })),
	// Mostly single IDs (the fast path's case), sometimes a batch that spans ticks.
	count: fc.oneof({ weight: 8, arbitrary: fc.constant(1) }, fc.integer({ min: 2, max: 9_000 })),
});

describe("SnowflakeGenerator paths", () => {
	it("issues the same IDs, marks and stats on the fast paths as on the queued path", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(step, { minLength: 1, maxLength: 300 }),
				fc.integer({ min: 1, max: 2 ** 31 }),
				fc.integer({ min: 0, max: 3 }),
				async (steps, seed, maxBorrowMs) => {
					const fastClock = new FrozenClock(100);
					const queuedClock = new FrozenClock(100);
					const options = { maxBorrowMs, leaseMs: 20 };
					const fast = generator(fastClock, { ...options, random: seeded(seed) });
					const queued = generator(queuedClock, { ...options, random: seeded(seed) });
					queuedOnly(queued.gen);
					for (const { advance, count } of steps) {
						fastClock.time += advance;
						queuedClock.time += advance;
						const got = await fast.gen.next(count);
						const expected = formatRuns(layout, 7, await queued.gen.nextRuns(count));
						expect(got).toEqual(expected);
						expect(fastClock.time).toBe(queuedClock.time); // the same waits
					}
					expect(fast.marks).toEqual(queued.marks);
					expect(fast.gen.stats()).toEqual(queued.gen.stats());
				},
			),
			{ numRuns: 150 },
		);
	});
});
