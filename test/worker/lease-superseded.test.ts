/**
 * A leasing object whose storage another live instance took over (two `wrangler dev`
 * servers on one state directory): the newer one read the mark and the lease record
 * when it started, so the older one must store no span from then on. It refuses to
 * grant, renew or release with 503, and leaves the record and the mark as they were.
 * "The newer instance" is a token written into the running one's storage, as in
 * ./superseded.test.ts. Worker IDs 680-689 are this file's.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { LeaseRecord } from "../../src/ids/leases/span-rules";
import type { ErrorBody, LeaseGrant } from "../../src/wire";
import type { SnowflakeWorker } from "../../src/worker/object/snowflake-worker";
import { captureErrorLog, snowflakeStub, useTestClock } from "./helpers";
import { leaseBody, leasesApp, releasePath, renewPath } from "./lease-helpers";

const T = 1_800_000_000_000;
const leases = leasesApp();

/** What the newer instance does at its start: its own token, in the same storage. */
const takeOver = (workerId: number) =>
	runInDurableObject(snowflakeStub(workerId), (_i: SnowflakeWorker, state) => {
		state.storage.kv.put("life", "another instance");
	});
const storedBook = (workerId: number) =>
	runInDurableObject(snowflakeStub(workerId), (_i: SnowflakeWorker, state) => ({
		mark: state.storage.kv.get<number>("mark"),
		lease: state.storage.kv.get<LeaseRecord>("lease"),
	}));

function expectTakenOver(answer: { status: number; body: ErrorBody }, workerId: number) {
	expect(answer.status).toBe(503);
	expect(answer.body.error.code).toBe("unavailable");
	expect(answer.body.error.message).toContain(
		`worker ID ${workerId}'s object was taken over by another live instance of it`,
	);
}

describe("a leasing object whose storage another instance took over", () => {
	it("renews nothing and releases nothing: the record and the mark stay as stored", async () => {
		const clock = await useTestClock(680, T);
		const { body: grant } = await leases<LeaseGrant>("POST", "/leases", { workerId: 680 });
		const before = await storedBook(680);
		expect(before.lease).toMatchObject({ from: grant.from, to: grant.to, released: false });
		await takeOver(680);
		clock.time = T + 10_000; // a renewal here would move `to` and the mark
		const [answers, logged] = await captureErrorLog(async () => [
			await leases<ErrorBody>("POST", renewPath(grant), leaseBody(grant)),
			await leases<ErrorBody>("POST", releasePath(grant), leaseBody(grant)),
		]);
		for (const answer of answers) expectTakenOver(answer, 680);
		expect(await storedBook(680)).toEqual(before);
		expect(logged).toHaveLength(1);
	});

	it("grants no span, not even on a worker ID never leased", async () => {
		await useTestClock(681, T);
		expect((await leases("GET", "/leases/681")).status).toBe(200); // this instance started
		await takeOver(681);
		const [answer] = await captureErrorLog(() =>
			leases<ErrorBody>("POST", "/leases", { workerId: 681, holder: "late" }),
		);
		expectTakenOver(answer, 681);
		expect(await storedBook(681)).toEqual({ mark: undefined, lease: undefined });
	});
});
