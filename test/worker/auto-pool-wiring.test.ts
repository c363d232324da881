/**
 * The auto route's pools as ./auto-pools.ts wires them from the config: the layout,
 * the freshness bound and size, and the refill timeout, MAX_WAIT_MS plus a second
 * (an object call waits at most MAX_WAIT_MS; a refill later than that is lost, so
 * a take stops waiting for it and goes direct). On fake timers, to the millisecond.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { IssuedRuns } from "../../src/ids/pools/id-pool";
import { parseConfig } from "../../src/worker/config/config";
import { autoPool } from "../../src/worker/operations/auto-pools";

afterEach(() => {
	vi.useRealTimers();
});

/**
 * A config of these vars, and the pool of its auto worker IDs, counting object calls;
 * `hangFirst`: the first call (a refill) never answers.
 */
function poolOf(vars: Record<string, string>, hangFirst: boolean) {
	const config = parseConfig(vars);
	const calls: { workerId: number; count: number }[] = [];
	const pool = autoPool(config, config.autoWorkerIds, (workerId, count) => {
		calls.push({ workerId, count });
		if (hangFirst && calls.length === 1) return new Promise<IssuedRuns>(() => {});
		const tick = config.layout.tickOf(Date.now());
		return Promise.resolve({ workerId, runs: [{ tick, firstSequence: 0, count }] });
	});
	return { config, calls, pool };
}

describe("the auto pools' wiring", () => {
	it("waits MAX_WAIT_MS + 1 s for a refill that never answers, then goes direct", async () => {
		vi.useFakeTimers({ now: 1_800_000_000_000, toFake: ["setTimeout", "clearTimeout", "Date"] });
		for (const maxWaitMs of [250, 2_500]) {
			const vars = { MAX_WAIT_MS: String(maxWaitMs), AUTO_WORKER_IDS: "3" };
			const { calls, pool } = poolOf(vars, true);
			let settled = false;
			const taken = pool.take(2).finally(() => {
				settled = true;
			});
			await vi.advanceTimersByTimeAsync(maxWaitMs + 999);
			expect(settled, `MAX_WAIT_MS ${maxWaitMs}: still waiting`).toBe(false);
			await vi.advanceTimersByTimeAsync(1);
			expect(settled, `MAX_WAIT_MS ${maxWaitMs}: given up on`).toBe(true);
			const answer = await taken;
			expect(answer.source).toBe("direct");
			expect(answer.workerId).toBe(3);
			expect(calls).toEqual([
				{ workerId: 3, count: 16 }, // the refill, a first block
				{ workerId: 3, count: 2 }, // the direct call
			]);
			expect(pool.stats()).toMatchObject({ lateRefills: 1, directCalls: 1 });
		}
	});

	it("one pool per config and worker-ID set, sized by POOL_MAX_SIZE", async () => {
		const { config, calls, pool } = poolOf({ AUTO_WORKER_IDS: "3", POOL_MAX_SIZE: "64" }, false);
		expect(autoPool(config, config.autoWorkerIds, () => Promise.reject(new Error("unused")))).toBe(
			pool,
		);
		expect(config.poolMaxSize).toBe(64);
		// A count above the largest block goes direct, at once, without a refill.
		const answer = await pool.take(65);
		expect(answer.source).toBe("direct");
		expect(calls).toEqual([{ workerId: 3, count: 65 }]);
		expect(pool.stats()).toMatchObject({ refills: 0, directCalls: 1 });
		// 64 is served from blocks: a first one of 16.
		expect((await pool.take(1)).source).toBe("pool");
		expect(calls.at(-1)).toEqual({ workerId: 3, count: 16 });
	});
});
