import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	blocksOfRuns,
	expandBlocks,
	runsOfBlocks,
	type SnowflakeBlock,
} from "../../src/ids/snowflake/blocks";
import { expectSnowflakesIncreasing } from "../shared/order";
import { ids, setup, ticks } from "./pool-setup";
import { layout } from "./snowflake-setup";

describe("IdPool", () => {
	it("serves many requests from one refill, strictly increasing within and across takes of a block", async () => {
		const { pool, calls } = setup();
		const seen: bigint[] = [];
		for (let i = 0; i < 7; i++) seen.push(...ids(await pool.take(1)));
		expect(calls.refill).toEqual([16]);
		expect(calls.direct).toEqual([]);
		expect(seen).toEqual([...seen].sort((a, b) => (a < b ? -1 : 1)));
		expect(new Set(seen).size).toBe(7);
	});

	it("drops IDs older than maxAgeMs at the bound, not before", async () => {
		const { clock, pool, calls } = setup();
		const first = await pool.take(1);
		const tickMs = layout.msOf(ticks(first)[0] as number);
		clock.time = tickMs + 1000; // exactly at the bound: still fresh
		const atBound = await pool.take(1);
		expect(ticks(atBound)).toEqual(ticks(first));
		expect(calls.refill).toHaveLength(1);
		clock.time = tickMs + 1001; // one ms past: the leftovers are dropped
		const after = await pool.take(1);
		expect(ticks(after)[0]).toBe(clock.time);
		expect(calls.refill).toHaveLength(2);
		expect(pool.stats().wasted).toBe(14);
	});

	it("grows the block size when blocks run out fast, up to maxSize", async () => {
		const { pool, calls } = setup({ maxSize: 64 });
		for (let i = 0; i < 200; i++) await pool.take(1);
		// The second block is fetched ahead at the old size; each fast run-out doubles.
		expect(calls.refill.slice(0, 5)).toEqual([16, 16, 32, 64, 64]);
		expect(Math.max(...calls.refill)).toBe(64);
	});

	it("shrinks the block size when blocks expire mostly unused", async () => {
		const { clock, pool, calls } = setup({ maxSize: 64 });
		for (let i = 0; i < 100; i++) await pool.take(1); // grown to 64
		expect(pool.stats().blockSize).toBe(64);
		for (let i = 0; i < 3; i++) {
			clock.time += 2000;
			await pool.take(1);
		}
		expect(pool.stats().blockSize).toBe(16);
		expect(calls.refill.at(-1)).toBeLessThan(64);
	});

	it("single flight: n concurrent requests on an empty pool make one refill", async () => {
		const { pool, calls } = setup({ minSize: 64 });
		const blocks = await Promise.all(Array.from({ length: 20 }, () => pool.take(1)));
		expect(calls.refill).toEqual([64]);
		expect(calls.direct).toEqual([]);
		expect(new Set(blocks.flatMap(ids)).size).toBe(20);
	});

	it("refills in the background once a block is half used, through the host's hook", async () => {
		const { pool, calls } = setup();
		const background: Promise<unknown>[] = [];
		for (let i = 0; i < 8; i++) await pool.take(1, (work) => background.push(work));
		// The first refill (started by a take that found the pool empty) and the one ahead.
		expect(background).toHaveLength(2);
		await Promise.all(background);
		expect(calls.refill).toHaveLength(2);
		// The next request finds the refilled block without awaiting an object call.
		for (let i = 0; i < 8; i++) await pool.take(1);
		expect(calls.refill.length).toBeLessThanOrEqual(3);
	});

	it("a count above maxSize goes direct; pool off (maxAgeMs 0) goes direct", async () => {
		const big = setup({ maxSize: 100 });
		await big.pool.take(101);
		expect(big.calls).toEqual({ refill: [], direct: [101] });
		const off = setup({ maxAgeMs: 0 });
		await off.pool.take(1);
		expect(off.calls).toEqual({ refill: [], direct: [1] });
	});

	it("a failed refill falls back to one direct call; direct errors reach the caller", async () => {
		const { pool, calls } = setup({
			refill: () => Promise.reject(new Error("object unreachable")),
		});
		const block = await pool.take(3);
		expect(ids(block)).toHaveLength(3);
		expect(calls.direct).toEqual([3]);
		expect(pool.stats().failedRefills).toBe(1);

		const failing = setup({
			refill: () => Promise.reject(new Error("refill down")),
			direct: () => Promise.reject(new Error("overloaded: try later")),
		});
		await expect(failing.pool.take(1)).rejects.toThrow("overloaded: try later");
	});

	it("property: a random schedule never repeats an ID, never hands out a stale one, one worker ID per take", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(
					fc.record({
						advanceMs: fc.oneof(
							fc.constant(0),
							fc.integer({ min: 0, max: 30 }),
							fc.integer({ min: 0, max: 2500 }),
						),
						count: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 200 })),
						concurrent: fc.integer({ min: 1, max: 4 }),
					}),
					// Up to 40 steps (fast-check's default size would give about 5): blocks grow,
					// expire and shrink, refills run ahead, several times in a run.
					{ minLength: 1, maxLength: 40, size: "max" },
				),
				fc.integer({ min: 1, max: 1500 }),
				async (schedule, maxAgeMs) => {
					const { clock, pool } = setup({ maxAgeMs, maxSize: 512 });
					const background: Promise<unknown>[] = [];
					const seen = new Set<bigint>();
					for (const step of schedule) {
						clock.time += step.advanceMs;
						const takes = await Promise.all(
							Array.from({ length: step.concurrent }, () =>
								pool.take(step.count, (w) => background.push(w)),
							),
						);
						for (const block of takes) {
							const got = ids(block);
							expect(got).toHaveLength(step.count);
							expectSnowflakesIncreasing(got);
							for (const run of block.runs) {
								expect(clock.now() - layout.msOf(run.tick)).toBeLessThanOrEqual(maxAgeMs);
							}
							for (const id of got) {
								expect(seen.has(id)).toBe(false);
								seen.add(id);
							}
						}
					}
					await Promise.all(background);
				},
			),
			{ seed: 0x9002, numRuns: 40 },
		);
	});
}, 30_000);

describe("blocks", () => {
	it("one block per run; expanding gives the formatted IDs; runs round-trip", () => {
		const runs = [
			{ tick: 5, firstSequence: 4090, count: 6 },
			{ tick: 6, firstSequence: 0, count: 3 },
		];
		const blocks = blocksOfRuns(layout, 7, runs);
		expect(blocks.map((b) => b.count)).toEqual([6, 3]);
		const expected = runs.flatMap((run) =>
			Array.from({ length: run.count }, (_, i) =>
				String(layout.compose({ tick: run.tick, workerId: 7, sequence: run.firstSequence + i })),
			),
		);
		expect([...expandBlocks(blocks)]).toEqual(expected);
		expect(runsOfBlocks(layout, blocks)).toEqual(runs);
		expect(() =>
			runsOfBlocks(layout, [{ first: (blocks[0] as SnowflakeBlock).first, count: 7 }]),
		).toThrow("crosses a tick");
	});
});
