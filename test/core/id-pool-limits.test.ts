import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeValue } from "../../src/ids/errors";
import type { IssuedRuns } from "../../src/ids/pools/id-pool";
import { ids, setup } from "./pool-setup";
import { layout } from "./snowflake-setup";

const never = () => new Promise<IssuedRuns>(() => {});

describe("IdPool limits", () => {
	it("refuses a count that is not a positive safe integer, and keeps its state", async () => {
		const { pool, calls } = setup();
		await pool.take(1);
		const before = pool.stats();
		for (const count of [0, -3, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
			await expect(pool.take(count)).rejects.toMatchObject({
				code: "invalid_count",
				detail: `count must be a positive integer; got ${describeValue(count)}`,
			});
		}
		expect(pool.stats()).toEqual(before);
		// The held block still serves, in order, with no further object call.
		const next = await pool.take(2);
		expect(next.source).toBe("pool");
		expect(calls.refill).toHaveLength(1);
		expect(calls.direct).toEqual([]);
	});

	it("a count above the block size goes direct without dropping held IDs, and sizes later blocks for it", async () => {
		const { pool, calls } = setup();
		const first = await pool.take(1);
		const medium = await pool.take(100);
		expect(medium.source).toBe("direct");
		expect(calls).toEqual({ refill: [16], direct: [100] });
		expect(pool.stats()).toMatchObject({ wasted: 0, blockSize: 400 });
		// The leftovers of the first block still serve small counts.
		const after = await pool.take(1);
		expect(after.source).toBe("pool");
		expect(ids(after)[0]).toBe((ids(first)[0] as bigint) + 1n);
		// Once the old block is gone, 100 is served from a block of the new size.
		for (let i = 0; i < 14; i++) await pool.take(1);
		expect((await pool.take(100)).source).toBe("pool");
		expect(calls.refill).toContain(400);
	});

	it("a refill that never answers holds a take for at most refillTimeoutMs, then it goes direct", async () => {
		const { pool, calls } = setup({ refill: never, refillTimeoutMs: 20 });
		const started = performance.now();
		const takes = await Promise.all([pool.take(1), pool.take(2), pool.take(3)]);
		expect(performance.now() - started).toBeLessThan(2_000);
		expect(takes.map((t) => t.source)).toEqual(["direct", "direct", "direct"]);
		expect(calls.direct).toEqual([1, 2, 3]);
		expect(pool.stats().lateRefills).toBe(1);
	});

	it("a take after a refill has run past refillTimeoutMs starts a new one instead of waiting on it", async () => {
		let answer: ((block: IssuedRuns) => void) | undefined;
		const refills: number[] = [];
		const { clock, pool } = setup({
			refillTimeoutMs: 50,
			refill: (size) => {
				refills.push(size);
				// The first refill hangs (its request was cancelled, say); later ones answer.
				if (refills.length === 1) return new Promise<IssuedRuns>((resolve) => (answer = resolve));
				return Promise.resolve({
					workerId: 7,
					runs: [{ tick: clock.now(), firstSequence: 0, count: size }],
				});
			},
		});
		const hung = pool.take(1);
		clock.time += 51; // another request, later: the hung refill is given up on
		const served = await pool.take(1);
		expect(served.source).toBe("pool");
		expect(refills).toHaveLength(2);
		// The take that started the hung refill gives up on it after refillTimeoutMs.
		expect((await hung).source).toBe("direct");
		expect(pool.stats().lateRefills).toBe(1);
		expect(answer).toBeDefined();
	});

	it("hands every refill to the host's background hook, the first one included", async () => {
		const { pool } = setup();
		const background: Promise<unknown>[] = [];
		await pool.take(1, (work) => background.push(work));
		expect(background).toHaveLength(1);
		await Promise.all(background);
	});

	it("property: failing and late refills never repeat an ID or hand out a stale one", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(
					fc.record({
						advanceMs: fc.integer({ min: 0, max: 600 }),
						count: fc.integer({ min: 1, max: 120 }),
						concurrent: fc.integer({ min: 1, max: 3 }),
					}),
					// Up to 30 steps of up to 600 ms: blocks expire (500 ms) and refills fail or come
					// late many times in a run (fast-check's default size would give about 5 steps).
					{ minLength: 1, maxLength: 30, size: "max" },
				),
				fc.array(fc.constantFrom("ok", "fail", "late"), {
					minLength: 1,
					maxLength: 16,
					size: "max",
				}),
				async (schedule, refillOutcomes) => {
					let refillNo = 0;
					// A late refill's answer arrives only after the clock has moved on (next step).
					let arrivals: (() => void)[] = [];
					const maxAgeMs = 500;
					const { clock, pool } = setup(({ issue }) => ({
						maxAgeMs,
						maxSize: 256,
						refillTimeoutMs: 1,
						refill: async (size) => {
							const outcome = refillOutcomes[refillNo++ % refillOutcomes.length];
							if (outcome === "fail") throw new Error("object unreachable");
							const block = await issue(size);
							if (outcome === "late") await new Promise<void>((arrive) => arrivals.push(arrive));
							return block;
						},
					}));
					const seen = new Set<bigint>();
					for (const step of schedule) {
						clock.time += step.advanceMs;
						for (const arrive of arrivals) arrive();
						arrivals = [];
						const takes = await Promise.all(
							Array.from({ length: step.concurrent }, () => pool.take(step.count)),
						);
						for (const block of takes) {
							const got = ids(block);
							expect(got).toHaveLength(step.count);
							for (const run of block.runs) {
								expect(clock.now() - layout.msOf(run.tick)).toBeLessThanOrEqual(maxAgeMs);
							}
							for (const id of got) {
								expect(seen.has(id)).toBe(false);
								seen.add(id);
							}
						}
					}
				},
			),
			{ seed: 0x9001, numRuns: 40 },
		);
	});

	it("refuses a freshness bound shorter than one tick before any object call", async () => {
		// Ticks of 10 ms: an ID is up to 10 ms old when issued, so a 5 ms bound cannot hold.
		const { pool, calls } = setup({ msOfTick: (tick) => tick * 10, maxAgeMs: 5 });
		await expect(pool.take(1)).rejects.toMatchObject({
			code: "invalid_config",
			message: expect.stringMatching(
				/maxAgeMs \(5\) must be 0 \(pool off\) or at least one tick \(10 ms\)/,
			),
		});
		expect(calls).toEqual({ refill: [], direct: [] });
	});

	it("never hands out a direct fallback older than the bound: a stale one is asked for again", async () => {
		let slowDirects = 1;
		const calls = { refill: [] as number[], direct: [] as number[] };
		const { pool, clock } = setup(({ issue, clock }) => ({
			// Every refill and the first direct call arrive 1.5 s after issuing: stale.
			refill: async (size) => {
				calls.refill.push(size);
				const block = await issue(size);
				clock.time += 1_500;
				return block;
			},
			direct: async (count) => {
				calls.direct.push(count);
				const block = await issue(count);
				if (slowDirects-- > 0) clock.time += 1_500;
				return block;
			},
		}));
		const taken = await pool.take(1);
		expect(taken.source).toBe("direct");
		expect(clock.now() - layout.msOf(taken.runs[0]?.tick ?? -1)).toBeLessThanOrEqual(1_000);
		expect(calls.direct).toEqual([1, 1]);
	});

	it("refuses as retryable, never serves stale, when direct answers keep arriving too old", async () => {
		const { pool } = setup(({ issue, clock }) => {
			const late = async (count: number) => {
				const block = await issue(count);
				clock.time += 1_500;
				return block;
			};
			return { refill: late, direct: late };
		});
		await expect(pool.take(1)).rejects.toMatchObject({
			code: "overloaded",
			retryAfterSeconds: 1,
			detail: "IDs arrived older than the pool's freshness bound (1000 ms) twice; retry shortly",
		});
		expect(pool.stats()).toMatchObject({ directCalls: 2, wasted: expect.any(Number) });
	});
});
