/**
 * An object whose storage another live instance took over (two `wrangler dev`
 * servers on one state directory): the newer instance wrote its own token at start;
 * the older one finds it at its next mark write and refuses from then on, so none of
 * its IDs lies above the mark the newer one started from. Here "the newer instance"
 * is a token written into the storage of the running one (test/dev-server has two
 * real servers).
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/wire";
import type { SnowflakeWorker } from "../../src/worker/object/snowflake-worker";
import { callJson, captureErrorLog, snowflakeStub, useTestClock } from "./helpers";

const T = 1_800_000_000_000;
type Ids = { ids: string[] };

/** What the newer instance does at its start: its own token, in the same storage. */
const takeOver = (workerId: number) =>
	runInDurableObject(snowflakeStub(workerId), (_i: SnowflakeWorker, state) => {
		state.storage.kv.put("life", "another instance");
	});
const storedMark = (workerId: number) =>
	runInDurableObject(snowflakeStub(workerId), (_i: SnowflakeWorker, state) =>
		state.storage.kv.get<number>("mark"),
	);

describe("an object whose storage another instance took over", () => {
	it("issues up to its stored mark, then refuses every call with 503 and says why once", async () => {
		const clock = await useTestClock(60, T);
		expect((await callJson<Ids>("/snowflake/60?count=3")).status).toBe(200);
		const mark = await storedMark(60);
		await takeOver(60);
		// Within the lease it needs no write: it cannot know yet, and issues below the mark.
		expect((await callJson<Ids>("/snowflake/60")).status).toBe(200);
		clock.time += 5_000; // past the lease: the next ID needs a new mark
		const [answers, logged] = await captureErrorLog(async () => [
			await callJson<ErrorBody>("/snowflake/60"),
			await callJson<ErrorBody>("/snowflake/60?count=2"),
			await callJson<ErrorBody>("/snowflake/60/stats"),
		]);
		for (const answer of answers) {
			expect(answer.status).toBe(503);
			expect(answer.headers.get("Retry-After")).toBe("1");
			expect(answer.body.error.code).toBe("unavailable");
			expect(answer.body.error.message).toContain(
				"worker ID 60's object was taken over by another live instance of it",
			);
		}
		expect(await storedMark(60)).toBe(mark); // it wrote no mark of its own after the takeover
		expect(logged).toHaveLength(1);
		expect(JSON.parse(String(logged[0]?.[0]))).toMatchObject({
			workerId: 60,
			event: "superseded",
		});
	});

	it("keeps its own token while it is the only instance (restarts write a new one)", async () => {
		const clock = await useTestClock(61, T);
		for (let i = 0; i < 3; i++) {
			clock.time += 5_000;
			expect((await callJson<Ids>("/snowflake/61")).status).toBe(200);
		}
		const life = await runInDurableObject(snowflakeStub(61), (_i: SnowflakeWorker, state) =>
			state.storage.kv.get<string>("life"),
		);
		expect(life).toMatch(/^[0-9a-f-]{36}$/);
	});
});
