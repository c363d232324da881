/**
 * The IdPool's bookkeeping to the unit: which count goes where at each boundary
 * (maxSize, the block size, a block's last IDs), when the block size doubles or
 * halves, what its stats count, the single refill in flight, and that a take hands
 * out exactly IDs a refill delivered, in order, never one more.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { IssuedRuns } from "../../src/ids/pools/id-pool";
import { ids, setup, ticks } from "./pool-setup";
import { layout } from "./snowflake-setup";

type HandRefills = ReturnType<typeof handRefills>;

/** A refill the test answers by hand: each call waits until `answer(i, block)`. */
function handRefills() {
	const pending: ((block: IssuedRuns) => void)[] = [];
	const failures: ((error: Error) => void)[] = [];
	const refill = (_size: number) =>
		new Promise<IssuedRuns>((resolve, reject) => {
			pending.push(resolve);
			failures.push(reject);
		});
	return {
		refill,
		calls: () => pending.length,
		answer: (i: number, block: IssuedRuns) => pending[i]?.(block),
		fail: (i: number) => failures[i]?.(new Error("object unreachable")),
	};
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
	vi.useRealTimers();
});

describe("IdPool boundaries", () => {
	it("a count equal to the block size is served from a block; one more goes direct", async () => {
		const { pool, calls } = setup();
		expect((await pool.take(16)).source).toBe("pool");
		expect(calls.refill[0]).toBe(16);
		expect(calls.direct).toEqual([]);
		expect(pool.stats().blockSize).toBe(16);
		expect((await pool.take(17)).source).toBe("direct");
		expect(pool.stats().blockSize).toBe(68); // sized for four such counts
	});

	it("a count equal to maxSize goes direct as a count above the block size: it sizes later blocks", async () => {
		const { pool, calls } = setup({ maxSize: 100 });
		expect((await pool.take(100)).source).toBe("direct");
		expect(calls).toEqual({ refill: [], direct: [100] });
		expect(pool.stats()).toMatchObject({ blockSize: 100, directCalls: 1, requests: 1 });
	});

	it("a block serves a take of exactly what it has left, wasting nothing", async () => {
		const { pool, calls } = setup();
		await pool.take(6);
		const rest = await pool.take(10);
		expect(rest.source).toBe("pool");
		expect(ids(rest)).toHaveLength(10);
		expect(calls.direct).toEqual([]);
		expect(pool.stats().wasted).toBe(0);
	});

	it("a block retired with half its IDs or more left does not grow the size; less than half does", async () => {
		const half = setup();
		await half.pool.take(8);
		await half.pool.take(9); // 8 left of 16: not enough, retired at exactly half
		expect(half.pool.stats()).toMatchObject({ blockSize: 16, wasted: 8 });

		const most = setup();
		await most.pool.take(1);
		await most.pool.take(16); // 15 left
		expect(most.pool.stats()).toMatchObject({ blockSize: 16, wasted: 15 });

		const little = setup();
		await little.pool.take(9);
		await little.pool.take(8); // 7 left, used within half the bound
		expect(little.pool.stats()).toMatchObject({ blockSize: 32, wasted: 7 });
	});

	it("grows when a block runs out within half the freshness bound, to the millisecond", async () => {
		for (const [afterMs, size] of [
			[500, 32],
			[501, 16],
		] as const) {
			const { pool, clock } = setup();
			await pool.take(9);
			clock.time += afterMs;
			await pool.take(8);
			expect(pool.stats().blockSize).toBe(size);
		}
	});

	it("shrinks when more than half of a block expires unused, not when half does", async () => {
		const { pool, clock, calls } = setup({ maxSize: 64 });
		await pool.take(9); // block A (16): 7 left, B (16) fetched ahead
		await pool.take(8); // A retired nearly unused in time: size 32; B: 8 left, C (32) ahead
		await pool.take(8); // B used up
		await pool.take(16); // B retired: size 64; C: 16 of 32 left, D (64) ahead
		expect(calls.refill).toEqual([16, 16, 32, 64]);
		expect(pool.stats().blockSize).toBe(64);
		await settle(); // D lands, held next
		clock.time += 2_000;
		await pool.take(1);
		// C expired with exactly half unused: no change; D expired whole: halved once.
		expect(pool.stats().blockSize).toBe(32);
		expect(pool.stats().wasted).toBe(7 + 16 + 64);
	});

	it("a direct block exactly maxAgeMs old is handed out; one a millisecond older is asked for again", async () => {
		for (const [lateMs, directs] of [
			[1_000, 1],
			[1_001, 2],
		] as const) {
			const calls: number[] = [];
			const { pool } = setup(({ issue, clock }) => ({
				direct: async (count) => {
					calls.push(count);
					const block = await issue(count);
					if (calls.length === 1) clock.time += lateMs;
					return block;
				},
			}));
			expect((await pool.take(17)).source).toBe("direct");
			expect(calls).toHaveLength(directs);
			expect(pool.stats().wasted).toBe(directs === 1 ? 0 : 17);
		}
	});
});

describe("IdPool hands out only what it was given", () => {
	it("each take is a contiguous slice of one refill's IDs, in order, across the runs of a block", async () => {
		// Blocks of runs in several ticks (as a refill across a rollover answers them).
		let tick = 1_000_000;
		const delivered: bigint[][] = [];
		const { pool } = setup({
			refill: async () => {
				const block = {
					workerId: 7,
					runs: [5, 7, 4, 9].map((count, i) => ({ tick: tick + i, firstSequence: 10 * i, count })),
				};
				tick += 4;
				delivered.push(ids(block));
				return block;
			},
			minSize: 25,
			maxSize: 25,
		});
		const handedOut: bigint[] = [];
		for (const count of [3, 5, 6, 2, 9, 12, 1, 7, 25, 4]) {
			const taken = await pool.take(count);
			expect(taken.source).toBe("pool");
			for (const run of taken.runs) expect(run.count).toBeGreaterThan(0);
			const got = ids(taken);
			expect(got).toHaveLength(count);
			const block = delivered.find((d) => d.includes(got[0] as bigint)) as bigint[];
			const at = block.indexOf(got[0] as bigint);
			expect(got).toEqual(block.slice(at, at + count));
			handedOut.push(...got);
		}
		expect(new Set(handedOut).size).toBe(handedOut.length);
	});

	it("drops runs a refill answers with no IDs", async () => {
		const { pool, clock } = setup({
			refill: async (size) => ({
				workerId: 7,
				runs: [
					{ tick: clock.now(), firstSequence: 0, count: 0 },
					{ tick: clock.now(), firstSequence: 0, count: size },
				],
			}),
		});
		const taken = await pool.take(3);
		expect(taken.runs).toEqual([{ tick: clock.now(), firstSequence: 0, count: 3 }]);
	});

	it("awaits at most two refills for one take, then goes direct", async () => {
		let refills = 0;
		const { pool, calls } = setup({
			// Refills that deliver nothing usable (as when concurrent takers drain them first).
			refill: async () => {
				refills++;
				return { workerId: 7, runs: [] };
			},
		});
		expect((await pool.take(3)).source).toBe("direct");
		expect(refills).toBe(2);
		expect(calls.direct).toEqual([3]);
	});
});

describe("IdPool stats", () => {
	it("count requests, refills, direct calls, and every ID dropped unused", async () => {
		const { pool, clock } = setup({ maxSize: 64 });
		await pool.take(1); // refill of 16
		await pool.take(100); // above maxSize: direct
		expect(pool.stats()).toEqual({
			requests: 2,
			refills: 1,
			failedRefills: 0,
			lateRefills: 0,
			directCalls: 1,
			wasted: 0,
			blockSize: 16,
		});
		await pool.take(10); // half used: a refill ahead
		clock.time += 5_000; // everything held expires
		await pool.take(1);
		const stats = pool.stats();
		expect(stats.requests).toBe(4);
		expect(stats.refills).toBe(3);
		expect(stats.wasted).toBe(5 + 16); // the first block's rest, the block fetched ahead
	});

	it("count the IDs of a refill that lands when the clock cannot be read", async () => {
		let reading = 1_000_000;
		const hand = handRefills();
		const { pool } = setup({ now: () => reading, refill: hand.refill });
		const take = pool.take(1);
		await settle();
		reading = Number.NaN;
		hand.answer(0, { workerId: 7, runs: [{ tick: 1_000_000, firstSequence: 0, count: 16 }] });
		await expect(take).rejects.toMatchObject({ code: "clock_regression" });
		expect(pool.stats()).toMatchObject({ wasted: 16, failedRefills: 0 });
	});

	it("count the held block a late refill replaces", async () => {
		const hand = handRefills();
		const { pool, clock } = setup({ refill: hand.refill, refillTimeoutMs: 50 });
		const block = (firstSequence: number) => ({
			workerId: 7,
			runs: [{ tick: clock.now(), firstSequence, count: 16 }],
		});
		const first = pool.take(1); // refill 0 hangs
		await settle();
		clock.time += 51; // given up on by the next take, which starts refill 1
		const second = pool.take(1);
		await settle();
		hand.answer(1, block(0));
		expect((await second).source).toBe("pool");
		expect((await first).source).toBe("direct"); // after refillTimeoutMs
		for (let i = 0; i < 7; i++) await pool.take(1); // half used: refill 2 is fetched ahead
		expect(hand.calls()).toBe(3);
		hand.answer(2, block(100));
		await settle();
		expect(pool.stats().wasted).toBe(0);
		hand.answer(0, block(200)); // refill 0 lands at last and takes the place of refill 2's block
		await settle();
		expect(pool.stats()).toMatchObject({ wasted: 16, lateRefills: 1, refills: 3 });
	});
});

describe("IdPool: one refill in flight", () => {
	it("a failed refill lets the next take start another", async () => {
		const hand = handRefills();
		const { pool, clock } = setup({ refill: hand.refill });
		const first = pool.take(1);
		await settle();
		hand.fail(0);
		expect((await first).source).toBe("direct");
		const second = pool.take(1);
		await settle();
		expect(hand.calls()).toBe(2);
		hand.answer(1, { workerId: 7, runs: [{ tick: clock.now(), firstSequence: 0, count: 16 }] });
		expect((await second).source).toBe("pool");
		expect(pool.stats()).toMatchObject({ failedRefills: 1, refills: 2 });
	});

	it.each([
		[
			"lands",
			(hand: HandRefills, tick: number) =>
				hand.answer(0, { workerId: 7, runs: [{ tick, firstSequence: 0, count: 1 }] }),
			0,
		],
		["fails", (hand: HandRefills) => hand.fail(0), 1],
	] as const)(
		"a refill given up on that %s later does not end the one in flight after it",
		async (_, end, failed) => {
			const hand = handRefills();
			const { pool, clock } = setup({ refill: hand.refill, refillTimeoutMs: 50 });
			void pool.take(1); // refill 0 hangs
			await settle();
			clock.time += 51;
			const waiting = pool.take(1); // gives refill 0 up, starts refill 1, awaits it
			await settle();
			end(hand, clock.now());
			await settle();
			// Refill 1 is still the one in flight: takes wait for it, none starts a third.
			const more = [pool.take(1), pool.take(1)];
			await settle();
			expect(hand.calls()).toBe(2);
			hand.answer(1, { workerId: 7, runs: [{ tick: clock.now(), firstSequence: 10, count: 16 }] });
			for (const take of [waiting, ...more]) expect((await take).source).toBe("pool");
			// Only a refill that failed counts as failed, given up on or not.
			expect(pool.stats().failedRefills).toBe(failed);
		},
	);

	it("a refill is given up on only once it has run longer than refillTimeoutMs", async () => {
		const hand = handRefills();
		const { pool, clock } = setup({ refill: hand.refill, refillTimeoutMs: 50 });
		void pool.take(1);
		await settle();
		clock.time += 50; // exactly refillTimeoutMs: still awaited
		void pool.take(1);
		await settle();
		expect(hand.calls()).toBe(1);
		clock.time += 1;
		void pool.take(1);
		await settle();
		expect(hand.calls()).toBe(2);
	});

	it("a take that awaited a refill leaves no timer behind", async () => {
		vi.useFakeTimers();
		const hand = handRefills();
		const { pool, clock } = setup({ refill: hand.refill });
		const take = pool.take(1);
		await vi.advanceTimersByTimeAsync(0);
		expect(vi.getTimerCount()).toBe(1); // the refill's deadline
		hand.answer(0, { workerId: 7, runs: [{ tick: clock.now(), firstSequence: 0, count: 16 }] });
		expect((await take).source).toBe("pool");
		expect(vi.getTimerCount()).toBe(0);
		expect(ticks(await pool.take(1))).toEqual([layout.tickOf(clock.now())]);
	});
});
