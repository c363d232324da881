import { describe, expect, it } from "vitest";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";
import type { ErrorBody } from "../../src/wire";
import { expectSnowflakesIncreasing } from "../shared/order";
import { callJson, useTestClock } from "./helpers";

const layout = new SnowflakeLayout(TWITTER_LAYOUT);
const T = 1_800_000_000_000; // a fixed instant, so the test never depends on the host clock
type Ids = { ids: string[] };

describe("the Durable Object on a test clock", () => {
	it("blocks through a small regression while 50 requests arrive; all unique and ordered", async () => {
		const clock = await useTestClock(20, T);
		const first = await callJson<Ids>("/snowflake/20?count=3");
		clock.time = T - 300; // the clock steps back 300 ms
		const responses = await Promise.all(
			Array.from({ length: 50 }, () => callJson<Ids>("/snowflake/20?count=20")),
		);
		for (const r of responses) expect(r.status).toBe(200);
		const ids = responses.flatMap((r) => r.body.ids);
		expect(new Set(ids).size).toBe(1_000);
		// Served one at a time: sorting the responses by their first ID gives one increasing run.
		const ordered = responses
			.map((r) => r.body.ids)
			.sort((a, b) => (BigInt(a[0] as string) < BigInt(b[0] as string) ? -1 : 1))
			.flat();
		expectSnowflakesIncreasing([...first.body.ids, ...ordered]);
		expect(clock.sleeps[0]).toBe(300 - 5); // MAX_BORROW_MS (5) of the step is absorbed
		const stats = await callJson("/snowflake/20/stats");
		expect(stats.body).toMatchObject({ clockRegressions: 1, maxRegressionMs: 300 });
	});

	it("answers a large regression with 503 clock_regression and Retry-After, changing nothing", async () => {
		const clock = await useTestClock(21, T);
		const before = await callJson<Ids>("/snowflake/21");
		clock.time = T - 5_000;
		const refused = await callJson<ErrorBody>("/snowflake/21");
		expect(refused.status).toBe(503);
		expect(refused.body.error.code).toBe("clock_regression");
		expect(refused.headers.get("Retry-After")).toBe("5");
		expect(clock.sleeps).toEqual([]);
		clock.time = T;
		const after = await callJson<Ids>("/snowflake/21");
		const [a, b] = [before.body.ids[0], after.body.ids[0]].map((id) =>
			layout.decompose(BigInt(id as string)),
		);
		expect(b?.tick).toBe(a?.tick);
		expect(b?.sequence).toBe((a?.sequence ?? 0) + 1);
	});

	it("rolls over to the next ticks at once (borrowed time) on a clock that moves only while waiting", async () => {
		const clock = await useTestClock(22, T);
		const { body } = await callJson<Ids>("/snowflake/22?count=10000");
		expectSnowflakesIncreasing(body.ids);
		expect(clock.sleeps).toEqual([]);
		const ticks = new Set(body.ids.map((id) => layout.decompose(BigInt(id)).tick));
		expect(ticks).toEqual(new Set([0, 1, 2].map((n) => layout.tickOf(T) + n)));
		const stats = await callJson("/snowflake/22/stats");
		expect(stats.body).toMatchObject({ rolloverWaits: 0, issued: 10_000, maxLeadMs: 2 });
	});

	it("writes the lease once for many requests inside one lease period", async () => {
		const clock = await useTestClock(23, T);
		for (let i = 0; i < 50; i++) {
			clock.time = T + i * 10; // 50 requests over 500 ms, inside the 1,000 ms lease
			expect((await callJson<Ids>("/snowflake/23?count=7")).status).toBe(200);
		}
		const stats = await callJson("/snowflake/23/stats");
		expect(stats.body).toMatchObject({ requests: 50, issued: 350, leaseWrites: 1 });
		clock.time = T + 1_001;
		await callJson<Ids>("/snowflake/23");
		expect((await callJson("/snowflake/23/stats")).body).toMatchObject({ leaseWrites: 2 });
	});

	it("refuses with layout_exhausted past the layout's range", async () => {
		const clock = await useTestClock(24, layout.exhaustsAt);
		const refused = await callJson<ErrorBody>("/snowflake/24");
		expect(refused.status).toBe(500);
		expect(refused.body.error.code).toBe("layout_exhausted");
		expect(refused.body.error.message).toContain("2080-07-10T17:30:30.209Z");
		expect(clock.sleeps).toEqual([]);
	});
});
