import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/wire";
import type { SnowflakeWorker } from "../../src/worker/object/snowflake-worker";
import { expectSnowflakesIncreasing } from "../shared/order";
import { tickOf } from "../shared/ticks";
import { callJson, restart, snowflakeStub, useTestClock, YieldingClock } from "./helpers";

const T = 1_800_000_000_000;
type Ids = { ids: string[] };

describe("a restarted object never reissues", () => {
	it("issues above every earlier ID, even when its new clock is behind the stored mark", async () => {
		const clock = await useTestClock(30, T);
		const before = await callJson<Ids>("/snowflake/30?count=500");
		expect(before.status).toBe(200);
		await restart(30);

		const behind = await useTestClock(30, T - 400); // the new host's clock is 400 ms behind
		expect(behind).not.toBe(clock);
		const after = await callJson<Ids>("/snowflake/30?count=500");
		expect(after.status).toBe(200);
		expectSnowflakesIncreasing([...before.body.ids, ...after.body.ids]);
		// It went on from the stored mark (T + lease) + 1 as borrowed time: the lease and
		// MAX_BORROW_MS (5) of the lead are borrowed, the 400 ms step back beyond them waited out.
		expect(tickOf(after.body.ids[0])).toBe(tickOf(before.body.ids[0]) + 1_000 + 1);
		expect(behind.sleeps).toEqual([400 - 5]);
		const stats = await callJson("/snowflake/30/stats");
		// Both lives' IDs are counted: the first life's survived its end.
		expect(stats.body).toMatchObject({ issued: 1_000, clockRegressions: 0 });
	});

	it("survives repeated restarts in quick succession", async () => {
		const seen: string[] = [];
		const clock = new YieldingClock(T); // one clock across lives: time goes on while each waits
		for (let round = 0; round < 4; round++) {
			await useTestClock(31, clock);
			const { body } = await callJson<Ids>("/snowflake/31?count=50");
			seen.push(...body.ids);
			await restart(31);
		}
		expect(new Set(seen).size).toBe(200);
		expectSnowflakesIncreasing(seen);
	});

	it("refuses with layout_mismatch when its IDs were issued under another layout", async () => {
		await runInDurableObject(snowflakeStub(32), (_instance: SnowflakeWorker, state) => {
			state.storage.kv.put("layout", "epoch=0;bits=39/12/12;unit=10");
		});
		const refused = await callJson<ErrorBody>("/snowflake/32");
		expect(refused.status).toBe(500);
		expect(refused.body.error.code).toBe("layout_mismatch");
	});
});
