/**
 * How often a busy Snowflake object writes storage, counted call by call on a
 * scripted clock: the mark is written ahead, LEASE_MS (1 s here) at a time, so a
 * call writes only when the clock passed the last mark, and the counts ride along
 * with it (or are stored at most once a second besides); never once per request. A
 * write per request would multiply the storage bill by the request rate. Worker
 * IDs 700-709 are this file's.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { SnowflakeWorker } from "../../src/worker/object/snowflake-worker";
import { snowflakeStub, useTestClock } from "./helpers";
import { recordWrites, writesOf } from "./storage-writes";

const T = 1_800_000_000_000;
/** The test config's LEASE_MS (wrangler.toml): how far ahead each mark is written. */
const LEASE_MS = 1_000;
const SECONDS = 5;
const CALLS_PER_SECOND = 100;

/** The object's clock and its minute clock at `T`, moved by the test alone. */
async function scriptedObject(workerId: number) {
	const clock = await useTestClock(workerId, T);
	await runInDurableObject(snowflakeStub(workerId), (instance: SnowflakeWorker) => {
		instance.minuteClock = () => clock.time;
	});
	return clock;
}

describe("storage writes of a busy Snowflake object", () => {
	it("writes the mark once per lease period and nothing per request", async () => {
		const workerId = 700;
		const clock = await scriptedObject(workerId);
		const written = await recordWrites(workerId);
		const stub = snowflakeStub(workerId);
		// The first call starts the object (its token, the layout, the first mark).
		await writesOf(written, () => stub.issue(workerId, 1));

		/** The writes of each call, by the scripted second it ran in. */
		const bySecond: string[][][] = [];
		for (let second = 0; second < SECONDS; second++) {
			const calls: string[][] = [];
			for (let call = 0; call < CALLS_PER_SECOND; call++) {
				clock.time = T + 1 + second * 1_000 + call * (1_000 / CALLS_PER_SECOND);
				calls.push(
					await writesOf(written, async () => {
						const answer = await stub.issue(workerId, 1);
						expect(answer.ok).toBe(true);
					}),
				);
			}
			bySecond.push(calls);
		}

		const marks = bySecond.flat(2).filter((key) => key === "mark").length;
		// One mark per LEASE_MS of scripted time (the clock passes the last one once a period).
		expect(marks).toBeGreaterThanOrEqual(SECONDS - 1);
		expect(marks).toBeLessThanOrEqual(Math.ceil((SECONDS * 1_000) / LEASE_MS));
		for (const [second, calls] of bySecond.entries()) {
			const writing = calls.filter((writes) => writes.length > 0);
			// The call that writes the mark (its counts with it), and the counts stored once a
			// second besides (a second's edge may hold two of those): a few, never 100.
			expect(writing.length, `calls that wrote in second ${second}`).toBeLessThanOrEqual(3);
			expect(writing.flat().length, `rows written in second ${second}`).toBeLessThanOrEqual(6);
		}
	});

	it("writes nothing for a call within the lead, nor for a second stats read", async () => {
		const workerId = 701;
		const clock = await scriptedObject(workerId);
		const written = await recordWrites(workerId);
		const stub = snowflakeStub(workerId);
		await stub.issue(workerId, 1);
		await stub.stats(workerId);
		clock.time = T + 10; // well inside the mark written ahead
		expect(await writesOf(written, () => stub.issue(workerId, 100))).toEqual([]);
		expect(await writesOf(written, () => stub.issue(workerId, 1))).toEqual([]);
		await stub.stats(workerId); // may store the counts that moved, once
		expect(await writesOf(written, () => stub.stats(workerId))).toEqual([]);
	});
});
