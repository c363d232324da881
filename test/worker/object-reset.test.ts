/**
 * An object that resets while a request waits inside it (an eviction, a deploy, a
 * crash): the request gets a 503 it can retry, never a 500, and the retry is
 * answered above everything issued before.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Clock } from "../../src/ids/clock";
import type { SnowflakeWorker } from "../../src/worker/object/snowflake-worker";
import { expectSnowflakesIncreasing } from "../shared/order";
import { abortObject, call, callJson, snowflakeStub } from "./helpers";

/** A clock behind the object's last tick whose sleeps never end: a request waits inside. */
function heldClock(now: number): Clock & { sleeping: () => boolean } {
	let asleep = false;
	return {
		now: () => now,
		sleep: () => {
			asleep = true;
			return new Promise<void>(() => {});
		},
		sleeping: () => asleep,
	};
}

describe("an object reset mid-request", () => {
	it("answers 503 unavailable with Retry-After; the retry continues above", async () => {
		const workerId = 61;
		const first = await callJson<{ ids: string[] }>(`/snowflake/${workerId}?count=3`);
		expect(first.status).toBe(200);
		const held = heldClock(Date.now() - 500); // 500 ms behind: waited out, not refused
		await runInDurableObject(snowflakeStub(workerId), (instance: SnowflakeWorker) => {
			instance.clock = held;
		});
		const pending = call(`/snowflake/${workerId}?count=2`);
		while (!held.sleeping()) await scheduler.wait(1);
		await abortObject(workerId);

		const response = await pending;
		expect(response.status).toBe(503);
		expect(response.headers.get("Retry-After")).toBe("1");
		expect(await response.json()).toMatchObject({ error: { code: "unavailable" } });

		const retry = await callJson<{ ids: string[] }>(`/snowflake/${workerId}?count=2`);
		expect(retry.status).toBe(200);
		expectSnowflakesIncreasing([...first.body.ids, ...retry.body.ids]);
	});
});
