/**
 * Borrowed time in the Durable Object, on a clock that does not move at all (not
 * even while the generator sleeps): the object borrows up to MAX_BORROW_MS ahead,
 * then polls with a timer, never a spin, while everything else keeps answering.
 * Worker ID 109 and 110.
 */

import { describe, expect, it } from "vitest";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";
import type { ErrorBody } from "../../src/wire";
import { expectSnowflakesIncreasing } from "../shared/order";
import { tickOf } from "../shared/ticks";
import { callJson, issueOrder, useTestClock, YieldingClock } from "./helpers";

const layout = new SnowflakeLayout(TWITTER_LAYOUT);
const T = 1_800_000_000_000; // a fixed instant, so nothing depends on the host clock
const MAX_BORROW_MS = 5; // MAX_BORROW_MS in wrangler.toml

type Ids = { ids: string[] };
const stats = async (workerId: number) => (await callJson(`/snowflake/${workerId}/stats`)).body;

/** A clock that does not move at all, not even while the generator sleeps. */
class StoppedClock extends YieldingClock {
	override async sleep(ms: number): Promise<void> {
		this.sleeps.push(ms);
		await scheduler.wait(1);
	}
}

describe("a frozen clock at rollover", () => {
	it("borrows up to MAX_BORROW_MS, then holds the requests (polling with a timer, never spinning) until the clock moves, then serves them in order", {
		timeout: 15_000,
	}, async () => {
		const workerId = 109;
		const clock = new StoppedClock(T);
		await useTestClock(workerId, clock);
		// 24,000 IDs fit in ticks T … T + 5 (each holds at least 4,033) without waiting.
		const borrowed: string[] = [];
		for (let i = 0; i < 3; i++) {
			const answer = await callJson<Ids>(`/snowflake/${workerId}?count=8000`);
			expect(answer.status).toBe(200);
			borrowed.push(...answer.body.ids);
		}
		expect(clock.sleeps).toEqual([]);
		expect(Math.max(...borrowed.map(tickOf))).toBeLessThanOrEqual(layout.tickOf(T) + MAX_BORROW_MS);
		const first = await callJson<Ids>(
			`/snowflake/${workerId}?count=${4033 * (MAX_BORROW_MS + 1) - borrowed.length}`,
		);
		expect(first.status).toBe(200);
		expect(Math.max(...first.body.ids.map(tickOf))).toBe(layout.tickOf(T) + MAX_BORROW_MS);

		let settled = 0;
		// Each needs tick T + 6 or later: more than MAX_BORROW_MS ahead of the frozen clock.
		const pending = Array.from({ length: 4 }, () =>
			callJson<Ids & ErrorBody>(`/snowflake/${workerId}?count=5000`).finally(() => settled++),
		);
		try {
			// Wait until the first of them has polled the frozen clock a few times.
			for (let i = 0; i < 500 && clock.sleeps.length < 10; i++) await scheduler.wait(10);
			expect(clock.sleeps.length).toBeGreaterThanOrEqual(10); // it keeps waiting with a timer
			expect(settled).toBe(0);
			expect(clock.sleeps.every((ms) => ms === 1)).toBe(true);
			// The Worker and other worker IDs keep answering, and so does this object's stats.
			expect((await callJson("/health")).status).toBe(200);
			expect((await callJson<Ids>("/snowflake/110?count=2")).status).toBe(200);
			expect(await stats(workerId)).toMatchObject({
				issued: 4033 * (MAX_BORROW_MS + 1),
				lastTimestamp: T + MAX_BORROW_MS,
				maxLeadMs: MAX_BORROW_MS,
			});
		} finally {
			// Ticks T + 20 … T + 25 then hold all 20,000 IDs; never leave an object waiting.
			clock.time = T + 20;
		}

		const answers = await Promise.all(pending);
		for (const a of answers) expect(a.status).toBe(200);
		const ids = issueOrder(answers);
		expectSnowflakesIncreasing([...borrowed, ...first.body.ids, ...ids]);
		expect(tickOf(ids.at(-1))).toBeLessThanOrEqual(layout.tickOf(T + 20) + MAX_BORROW_MS);
	});
});

describe("a clock that never moves, past the borrowing bound", () => {
	it("answers 503 overloaded with Retry-After after MAX_WAIT_MS, and the requests queued behind at once", {
		timeout: 20_000,
	}, async () => {
		const workerId = 112;
		const clock = new StoppedClock(T);
		await useTestClock(workerId, clock);
		for (const count of [8_000, 8_000, 4033 * (MAX_BORROW_MS + 1) - 16_000]) {
			expect((await callJson<Ids>(`/snowflake/${workerId}?count=${count}`)).status).toBe(200);
		}
		const started = Date.now();
		const answers = await Promise.all(
			Array.from({ length: 3 }, () =>
				callJson<Ids & ErrorBody>(`/snowflake/${workerId}?count=5000`),
			),
		);
		for (const a of answers) {
			expect(a.status).toBe(503);
			expect(a.body.error.code).toBe("overloaded");
			expect(a.headers.get("Retry-After")).toBe("1");
		}
		// One of them polled through the 2,000 ms budget (1 ms timers); the others had
		// spent theirs queued behind it (all but what passed before they arrived) and were
		// refused with at most that little left to poll: never a budget each.
		const polled = clock.sleeps.reduce((a, b) => a + b, 0);
		expect(polled).toBeGreaterThanOrEqual(2_000);
		expect(polled).toBeLessThan(2_500);
		expect(Date.now() - started).toBeLessThan(15_000);
		const after = await stats(workerId);
		expect(after).toMatchObject({ issued: 4033 * 6 }); // nothing issued by the refused ones
		expect(after.rolloverWaits).toBeGreaterThanOrEqual(1); // one per call that waited
		expect(after.rolloverWaits).toBeLessThanOrEqual(3);
		// The worker ID is not stuck: once the clock moves, it answers again.
		clock.time = T + 100;
		expect((await callJson<Ids>(`/snowflake/${workerId}?count=5000`)).status).toBe(200);
	});
});
