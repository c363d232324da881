/**
 * Restarts with the clock behind the stored mark (the mark is the last tick plus
 * the 1,000 ms lease), across the range of regressions, and a restart while
 * requests wait out a regression. Through the Durable Object's replaceable clock,
 * inside workerd; requests go straight to `app.fetch` (see clock-fault-requests.ts).
 *
 * Worker IDs 120-128 (storage is per file; IDs are per test).
 */

import { describe, expect, it } from "vitest";
import { expectSnowflakesIncreasing } from "../shared/order";
import { tickOf } from "../shared/ticks";
import {
	appJson,
	big,
	concurrentRequests,
	faultTally,
	type Ids,
	issueOrder,
	LEASE_MS,
	layout,
	MAX_BACKWARD_MS,
	MAX_BORROW_MS,
	objectStats,
	REGRESSIONS_MS,
	T,
} from "./clock-fault-requests";
import { captureErrorLog, restart, useTestClock } from "./helpers";

const tally = faultTally("clock-restarts");

describe("a restart with the clock behind the stored mark (mark = last tick + 1,000 ms lease)", () => {
	it.each(REGRESSIONS_MS.map((ms, i) => [ms, 120 + i] as const))(
		"new clock %i ms behind the last ID (worker ID %i), 10 requests waiting",
		async (backMs, workerId) => {
			await useTestClock(workerId, T);
			const before = await appJson<Ids>(`/snowflake/${workerId}?count=100`);
			expect(before.status).toBe(200);
			const maxBefore = big(before.body.ids.at(-1));
			const markTick = tickOf(before.body.ids[0]) + LEASE_MS;
			await restart(workerId);

			const behind = await useTestClock(workerId, T - backMs);
			tally.faults++;
			tally.requests += 10;
			const answers = await concurrentRequests(workerId, 10);
			// A new life continues at the mark + 1 as borrowed time, up to the lease the mark
			// was written with (+ MAX_BORROW_MS + 1 tick) ahead of its clock; the rest it waits
			// out up to MAX_CLOCK_BACKWARD_MS.
			const waitMs = Math.max(0, backMs - MAX_BORROW_MS);

			if (waitMs <= MAX_BACKWARD_MS) {
				for (const a of answers) expect(a.status).toBe(200);
				const ids = issueOrder(answers);
				expect(new Set(ids).size).toBe(ids.length);
				expectSnowflakesIncreasing([before.body.ids.at(-1) as string, ...ids]);
				expect(tickOf(ids[0])).toBe(markTick + 1);
				expect(behind.sleeps).toEqual(waitMs > 0 ? [waitMs] : []);
				// The wait for the mark is not a clock regression.
				expect(await objectStats(workerId)).toMatchObject({ clockRegressions: 0 });
				return;
			}

			for (const a of answers) {
				expect(a.status).toBe(503);
				expect(a.body.error.code).toBe("clock_regression");
				expect(a.headers.get("Retry-After")).toBe(String(Math.ceil(waitMs / 1000)));
			}
			expect(behind.sleeps).toEqual([]);
			// Nothing more issued: the earlier life's counts and last tick stand.
			expect(await objectStats(workerId)).toMatchObject({
				issued: 100,
				lastTimestamp: layout.msOf(tickOf(before.body.ids.at(-1))),
			});
			// Once the clock is past the mark, it issues above everything of the earlier life.
			behind.time = layout.msOf(markTick) + 1;
			const after = await appJson<Ids>(`/snowflake/${workerId}?count=50`);
			expect(after.status).toBe(200);
			expect(big(after.body.ids[0]) > maxBefore).toBe(true);
			expect(tickOf(after.body.ids[0])).toBeGreaterThan(markTick);
		},
	);

	it("a restart while requests wait out a regression: nothing issued twice", async () => {
		const workerId = 128;
		const clock = await useTestClock(workerId, T);
		const before = await appJson<Ids>(`/snowflake/${workerId}?count=20`);
		const maxBefore = big(before.body.ids.at(-1));
		clock.time = T - 800; // the waiting requests sleep 800 ms of test time
		tally.faults++;
		const [cut, logged] = await captureErrorLog(async () => {
			const waiting = concurrentRequests(workerId, 5);
			await scheduler.wait(2);
			await restart(workerId);
			return waiting;
		});
		tally.requests += cut.length;
		// Served before the restart, or cut off by it, never a repeat. The reset ends the
		// requests still waiting inside the object (since @cloudflare/vitest-plugin,
		// abortAllDurableObjects cuts requests in flight, as a real reset does): those get
		// the designed answer to a platform reset, `503 unavailable` with Retry-After.
		const seen = new Set(before.body.ids);
		for (const a of cut) {
			if (a.status === 200) {
				expect(a.body.ids.filter((id) => seen.has(id))).toEqual([]);
				for (const id of a.body.ids) seen.add(id);
			} else {
				expect(a.status).toBe(503);
				expect(a.body.error.code).toMatch(/^(unavailable|overloaded|clock_regression)$/);
				expect(a.headers.get("Retry-After")).toMatch(/^[1-9][0-9]*$/);
			}
		}
		// A reset is the platform's doing, not a bug: nothing is logged as an internal error.
		expect(logged).toEqual([]);
		// The new life, on a clock behind the mark, issues above all of it.
		const behind = await useTestClock(workerId, T - 500);
		const after = await appJson<Ids>(`/snowflake/${workerId}?count=50`);
		expect(after.status).toBe(200);
		// biome-ignore lint/complexity/useMathMinMax: BigInts, which Math.max does not take
		const maxSeen = [...seen].map(BigInt).reduce((a, b) => (a > b ? a : b), maxBefore);
		expect(big(after.body.ids[0]) > maxSeen).toBe(true);
		expect(behind.sleeps.length).toBeGreaterThan(0);
	});
});
