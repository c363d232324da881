/**
 * Object stats persisted with the high-water mark, and storage written by the earlier
 * version (the mark alone, a plain number under "mark"): a gradual deployment runs
 * both versions against the same objects. Worker IDs 40-49.
 */

import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";
import type { SnowflakeWorker } from "../../src/worker/object/snowflake-worker";
import { tickOf } from "../shared/ticks";
import {
	abortObject,
	callJson,
	restart,
	snowflakeStub,
	useTestClock,
	YieldingClock,
} from "./helpers";

const layout = new SnowflakeLayout(TWITTER_LAYOUT);
const T = 1_800_000_000_000;
type Ids = { ids: string[] };

function storage(workerId: number) {
	return runInDurableObject(snowflakeStub(workerId), (_instance: SnowflakeWorker, state) => ({
		mark: state.storage.kv.get("mark"),
		stats: state.storage.kv.get<{ mark: number; aheadMs: number; since: string }>("stats"),
	}));
}

describe("stats persisted with the high-water mark", () => {
	it("survive a restart whole, and say since when they count", async () => {
		const clock = await useTestClock(40, T);
		expect((await callJson<Ids>("/snowflake/40?count=500")).status).toBe(200);
		clock.time = T + 1_500; // past the first lease: the second call writes the mark again
		expect((await callJson<Ids>("/snowflake/40?count=10")).status).toBe(200);
		const live = await callJson("/snowflake/40/stats");
		expect(live.body).toMatchObject({ issued: 510, requests: 2, leaseWrites: 2 });
		expect(live.body.since).toBe(new Date(T).toISOString());
		// The mark stays a plain number (what every version reads); the stats ride along.
		expect(await storage(40)).toMatchObject({
			mark: layout.tickOf(T + 1_500) + 1_000,
			stats: { mark: layout.tickOf(T + 1_500) + 1_000, aheadMs: 1_000 },
		});

		await restart(40);
		await useTestClock(40, T + 60_000);
		const restored = await callJson("/snowflake/40/stats");
		// Everything read before the restart, the second call's own 10 IDs included.
		expect(restored.body).toMatchObject({ issued: 510, requests: 2, leaseWrites: 2 });
		expect(restored.body.lastTimestamp).toBe(live.body.lastTimestamp);
		expect(restored.body.since).toBe(new Date(T).toISOString());
		expect((await callJson<Ids>("/snowflake/40?count=5")).status).toBe(200);
		expect((await callJson("/snowflake/40/stats")).body).toMatchObject({
			issued: 515,
			requests: 3,
			leaseWrites: 3,
		});
	});
});

/** The object's counters (no HTTP: a stub per call, since one that saw its object end stays broken). */
async function counters(workerId: number) {
	const result = await snowflakeStub(workerId).stats(workerId);
	if (!result.ok) throw new Error(result.detail);
	const { workerId: _, since: __, lastTimestamp: ___, ...counts } = result.stats;
	return counts;
}

/** Every counter of `after` is at least the one of `before`. */
function expectNoneDecreased(before: Record<string, number>, after: Record<string, number>) {
	for (const [name, value] of Object.entries(before)) {
		expect({ [name]: after[name] }).toEqual({
			[name]: expect.toSatisfy((v: number) => v >= value),
		});
	}
}

describe("stats never decrease across restarts and evictions", () => {
	it("keep the counts of a block that wrote the mark, when the object is evicted before anyone reads them", async () => {
		const clock = await useTestClock(44, new YieldingClock(T));
		expect((await callJson<Ids>("/snowflake/44?count=3")).status).toBe(200);
		// Past the lease: the block (~250 ticks) writes the mark before its first ID, then ends.
		clock.time += 1_500;
		const block = await snowflakeStub(44).issue(44, 1_000_000);
		expect(block.ok).toBe(true);
		await abortAllDurableObjects(); // an idle eviction: no stats read before it
		expect(await counters(44)).toMatchObject({ issued: 1_000_003, requests: 2 });
	});

	it("keep every count a caller read when the object ends between requests", async () => {
		await useTestClock(45, new YieldingClock(T));
		for (const count of [1, 5_000, 10_000, 1]) {
			expect((await callJson<Ids>(`/snowflake/45?count=${count}`)).status).toBe(200);
		}
		const between = await counters(45);
		expect(between).toMatchObject({ issued: 15_002, requests: 4 });
		await abortAllDurableObjects();
		expect(await counters(45)).toEqual(between);
	});

	it("keep every count a caller read when the object ends mid-burst", async () => {
		// A block is waiting on the clock inside the object when it is read and reset.
		const clock = await useTestClock(46, new YieldingClock(T));
		expect((await callJson<Ids>("/snowflake/46?count=10")).status).toBe(200);
		const burst = snowflakeStub(46)
			.issue(46, 1_000_000)
			.catch(() => undefined);
		while (clock.sleeps.length < 20) await scheduler.wait(1);
		const midBurst = await counters(46);
		expect(midBurst.requests).toBe(2);
		expect(midBurst.rolloverWaits).toBeGreaterThanOrEqual(20);
		await abortObject(46);
		await burst;
		expectNoneDecreased(midBurst, await counters(46));
	});
});

describe("storage written by the earlier version", () => {
	it("reads a plain-number mark, goes on above it at once, and starts counting", async () => {
		const mark = layout.tickOf(T) + 60_000; // written with the earlier LEASE_MS maximum, 60 s
		await runInDurableObject(snowflakeStub(41), (_instance: SnowflakeWorker, state) => {
			state.storage.kv.put("layout", layout.fingerprint());
			state.storage.kv.put("mark", mark);
		});
		const clock = await useTestClock(41, T);
		const answer = await callJson<Ids>("/snowflake/41?count=3");
		expect(answer.status).toBe(200);
		expect(tickOf(answer.body.ids[0])).toBe(mark + 1);
		expect(clock.sleeps).toEqual([]); // no 503s and no wait until the old mark passes
		const stats = await callJson("/snowflake/41/stats");
		expect(stats.body).toMatchObject({ issued: 3, requests: 1, leaseWrites: 1 });
		expect(stats.body.since).toBe(new Date(T).toISOString());
		// The new mark covers the borrowed tick and keeps the lease it was borrowed under
		// (not the tick borrowed on top), so a second restart right away borrows as far
		// again instead of refusing, and no further.
		expect(await storage(41)).toMatchObject({
			mark: mark + 1,
			stats: { mark: mark + 1, aheadMs: 60_000 },
		});
		await restart(41);
		const again = await useTestClock(41, T);
		const second = await callJson<Ids>("/snowflake/41");
		expect(second.status).toBe(200);
		expect(tickOf(second.body.ids[0])).toBe(mark + 2);
		expect(again.sleeps).toEqual([]);
	});

	it("ignores stats stored with another mark (the earlier version wrote the mark since)", async () => {
		const mark = layout.tickOf(T) + 30_000;
		await runInDurableObject(snowflakeStub(42), (_instance: SnowflakeWorker, state) => {
			state.storage.kv.put("layout", layout.fingerprint());
			state.storage.kv.put("mark", mark);
			state.storage.kv.put("stats", {
				mark: mark - 5_000,
				aheadMs: 1_000,
				since: new Date(T - 86_400_000).toISOString(),
				counters: { issued: 123, requests: 4 },
			});
		});
		const clock = await useTestClock(42, T);
		const answer = await callJson<Ids>("/snowflake/42");
		expect(answer.status).toBe(200);
		// Its lease is unknown, so up to the earlier maximum is borrowed: no wait.
		expect(tickOf(answer.body.ids[0])).toBe(mark + 1);
		expect(clock.sleeps).toEqual([]);
		const stats = await callJson("/snowflake/42/stats");
		expect(stats.body).toMatchObject({ issued: 1, requests: 1 });
		expect(stats.body.since).toBe(new Date(T).toISOString());
	});
});
