/**
 * The consumer's pool (createIdPool) over a fake source that issues real IDs: the
 * core's generator on a frozen clock, under a layout that is not Twitter's, as
 * the service would answer `snowflakeBlocks` and `layout`.
 */
import { describe, expect, it, vi } from "vitest";
import { IdsError, idErrorCode } from "../../src/client";
import { type BlocksSource, createIdPool } from "../../src/client/pool";
import { blocksOfRuns, expandBlocks } from "../../src/ids/snowflake/blocks";
import { SnowflakeGenerator } from "../../src/ids/snowflake/generator";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";
import type { LayoutInfo, SnowflakeBlocks } from "../../src/wire";
import { FrozenClock } from "../shared/fake-clock";

/** 8 worker bits and 14 sequence bits: worker and sequence fields sit where Twitter's do not. */
const SERVICE = new SnowflakeLayout({ ...TWITTER_LAYOUT, workerBits: 8, sequenceBits: 14 });
const START = Date.UTC(2026, 0, 1);

function generatorFor(clock: FrozenClock, workerId: number) {
	return new SnowflakeGenerator({
		layout: SERVICE,
		workerId,
		clock,
		maxBackwardMs: 1000,
		leaseMs: 1000,
		persistMark: () => undefined,
		random: () => 0,
	});
}

/** A service with worker ID `workerId`: every ID it issued, and its calls. */
function fakeService(clock: FrozenClock, workerId = 5) {
	const generator = generatorFor(clock, workerId);
	const issued: string[] = [];
	const calls = { layout: 0, blocks: 0 };
	const source = {
		async snowflakeBlocks({ count }: { count: number }): Promise<SnowflakeBlocks> {
			calls.blocks++;
			const blocks = blocksOfRuns(SERVICE, workerId, await generator.nextRuns(count));
			issued.push(...expandBlocks(blocks));
			return { type: "snowflake-blocks", workerId, blocks };
		},
		async layout() {
			calls.layout++;
			return SERVICE.toJSON();
		},
	} satisfies BlocksSource;
	return { source, issued, calls };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
	return promise.then(
		() => undefined,
		(error: unknown) => error,
	);
}

describe("createIdPool under the service's layout", () => {
	it("hands out exactly the IDs the service issued, never another worker ID's", async () => {
		const clock = new FrozenClock(START);
		const { source, issued } = fakeService(clock, 5);
		const pool = createIdPool({ source, now: () => clock.now() });
		const first = await pool.snowflake({ count: 3 });
		expect(first.ids).toEqual(issued.slice(0, 3));

		const handedOut = [...first.ids];
		for (let i = 0; i < 60; i++) {
			if (i % 10 === 9) clock.time += 1;
			const answer = await pool.snowflake({ count: 1 + (i % 4) });
			expect(answer.workerId).toBe(5);
			handedOut.push(...answer.ids);
		}
		// Worker ID 1 of the same service, in the same ticks, deep into its sequences.
		const otherClock = new FrozenClock(START);
		const otherWorker = generatorFor(otherClock, 1);
		const other = new Set<string>();
		for (; otherClock.time <= clock.time; otherClock.time++) {
			for (const id of await otherWorker.next(8192)) other.add(id);
		}

		const served = new Set(issued);
		expect(new Set(handedOut).size).toBe(handedOut.length);
		for (const id of handedOut) {
			expect(served.has(id), id).toBe(true);
			expect(other.has(id), id).toBe(false);
			expect(SERVICE.decompose(BigInt(id)).workerId).toBe(5);
		}
	});

	it("reads the layout once for all calls", async () => {
		const clock = new FrozenClock(START);
		const { source, calls } = fakeService(clock);
		const pool = createIdPool({ source, now: () => clock.now(), maxSize: 16 });
		await Promise.all([pool.snowflake(), pool.snowflake({ count: 2 })]);
		for (let i = 0; i < 20; i++) await pool.snowflake({ count: i === 10 ? 100 : 3 });
		expect(calls.layout).toBe(1);
		expect(calls.blocks).toBeGreaterThan(2);
	});

	it("reads the layout again on the next call after a failed read", async () => {
		const clock = new FrozenClock(START);
		const { source, issued, calls } = fakeService(clock);
		let failures = 1;
		const flaky: BlocksSource = {
			snowflakeBlocks: (options) => source.snowflakeBlocks(options),
			layout: async () => {
				calls.layout++;
				if (failures-- > 0) throw new Error("unavailable: restarting (retry after 1 s)");
				return SERVICE.toJSON();
			},
		};
		const pool = createIdPool({ source: flaky, now: () => clock.now() });
		expect(idErrorCode(await rejection(pool.snowflake()))).toBe("unavailable");
		expect(calls.blocks).toBe(0);
		const answer = await pool.snowflake();
		expect(answer.ids).toEqual(issued.slice(0, 1));
		expect(calls.layout).toBe(2);
	});

	it("a layout read that never answers times out, and the next call reads again (no wedged pool)", async () => {
		const clock = new FrozenClock(START);
		const { source, issued, calls } = fakeService(clock);
		let silent = true;
		const lost: BlocksSource = {
			snowflakeBlocks: (options) => source.snowflakeBlocks(options),
			layout: () => (silent ? new Promise<LayoutInfo>(() => undefined) : source.layout()),
		};
		const pool = createIdPool({ source: lost, now: () => clock.now(), timeoutMs: 30 });
		const waiting = [pool.snowflake(), pool.snowflake({ count: 2 })];
		for (const call of waiting) {
			const error = await rejection(call);
			expect(error).toBeInstanceOf(IdsError);
			expect(error).toMatchObject({ code: "timeout", status: undefined });
		}
		expect(calls.blocks).toBe(0);
		silent = false;
		expect((await pool.snowflake()).ids).toEqual(issued.slice(0, 1));
		expect(calls.layout).toBe(1);
	});

	it("bounds every call: a source whose blocks never come fails with timeout; a caller's signal aborts", async () => {
		const clock = new FrozenClock(START);
		const { source } = fakeService(clock);
		const stuck: BlocksSource = {
			snowflakeBlocks: () => new Promise<SnowflakeBlocks>(() => undefined),
			layout: () => source.layout(),
		};
		const pool = createIdPool({ source: stuck, now: () => clock.now(), timeoutMs: 30 });
		expect(await rejection(pool.snowflake())).toMatchObject({ code: "timeout" });
		const controller = new AbortController();
		const call = pool.snowflake({ count: 1, signal: controller.signal });
		controller.abort();
		expect(await rejection(call)).toMatchObject({ code: "aborted" });
	});

	it("leaves no timer behind: neither a call's deadline nor the layout read's", async () => {
		vi.useFakeTimers();
		try {
			const clock = new FrozenClock(START);
			const { source } = fakeService(clock);
			const pool = createIdPool({ source, now: () => clock.now() });
			await pool.snowflake({ count: 2 });
			expect(vi.getTimerCount()).toBe(0);
			await pool.snowflake();
			expect(vi.getTimerCount()).toBe(0);
		} finally {
			vi.useRealTimers();
		}
	});

	it.each([0, -1, 1.5, Number.NaN])(
		"refuses count %s before any call (invalid_count)",
		async (count) => {
			const clock = new FrozenClock(START);
			const { source, calls } = fakeService(clock);
			const pool = createIdPool({ source, now: () => clock.now() });
			expect(await rejection(pool.snowflake({ count }))).toMatchObject({ code: "invalid_count" });
			expect(calls).toEqual({ layout: 0, blocks: 0 });
			expect(pool.stats().requests).toBe(0);
		},
	);

	it.each([0, -1, Number.NaN])("refuses timeoutMs %s (invalid_config)", (timeoutMs) => {
		const { source } = fakeService(new FrozenClock(START));
		expect(() => createIdPool({ source, timeoutMs })).toThrow(
			/^invalid_config: createIdPool's timeoutMs must be/,
		);
	});

	it("takes a source that answers with a plain value or throws at once (Miniflare's Node proxy)", async () => {
		const clock = new FrozenClock(START);
		const { source, issued } = fakeService(clock);
		let throws = true;
		const proxyLike = {
			snowflakeBlocks: (options: { count: number }) => source.snowflakeBlocks(options),
			layout: () => {
				if (throws) throw new Error("unavailable: proxy gone");
				return SERVICE.toJSON() as unknown as Promise<LayoutInfo>;
			},
		} satisfies BlocksSource;
		const pool = createIdPool({ source: proxyLike, now: () => clock.now() });
		const call = pool.snowflake();
		expect(call).toBeInstanceOf(Promise);
		expect(idErrorCode(await rejection(call))).toBe("unavailable");
		throws = false;
		expect((await pool.snowflake()).ids).toEqual(issued.slice(0, 1));
	});

	it("with a layout given, every call fails unless it is the service's", async () => {
		const clock = new FrozenClock(START);
		const { source, calls } = fakeService(clock);
		const wrong = createIdPool({ source, layout: TWITTER_LAYOUT, now: () => clock.now() });
		for (const count of [1, 10_000]) {
			const error = await rejection(wrong.snowflake({ count }));
			expect(error).toMatchObject({ code: "layout_mismatch" });
			expect((error as Error).message).toMatch(/bits=41\/10\/12.*bits=41\/8\/14/);
		}
		expect(calls.blocks).toBe(0);
		expect(calls.layout).toBe(1);

		const right = createIdPool({ source, layout: SERVICE, now: () => clock.now() });
		expect((await right.snowflake({ count: 2 })).ids).toHaveLength(2);
	});

	it("refuses blocks that are not the answer's worker ID", async () => {
		const clock = new FrozenClock(START);
		const { source } = fakeService(clock, 5);
		const lying: BlocksSource = {
			snowflakeBlocks: async (options) => ({
				...(await source.snowflakeBlocks(options)),
				workerId: 6,
			}),
			layout: () => source.layout(),
		};
		const pool = createIdPool({ source: lying, now: () => clock.now(), maxSize: 16 });
		for (const count of [1, 100]) {
			const error = await rejection(pool.snowflake({ count }));
			expect(error).toMatchObject({ code: "layout_mismatch" });
			expect((error as Error).message).toMatch(/worker ID 5's .* not the answer's 6/);
		}
	});
});

describe("createIdPool counts", () => {
	it.each([0, -3, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, "3", null])(
		"refuses count %s with invalid_count, leaving the pool as it was",
		async (count) => {
			const clock = new FrozenClock(START);
			const { source, issued, calls } = fakeService(clock);
			const pool = createIdPool({ source, now: () => clock.now() });
			const error = await rejection(pool.snowflake({ count: count as number }));
			expect(idErrorCode(error)).toBe("invalid_count");
			expect((error as Error).message).toMatch(/^invalid_count: count must be a positive integer/);
			expect(calls.blocks).toBe(0);
			expect(pool.stats().requests).toBe(0);
			expect((await pool.snowflake({ count: 4 })).ids).toEqual(issued.slice(0, 4));
		},
	);
});
