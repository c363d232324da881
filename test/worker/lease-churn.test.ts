/**
 * Acquire/release churn under 10 ms ticks (a Sonyflake-style layout): each cycle
 * moves a worker ID's next span a tick further, so a loop of cycles would put it
 * minutes ahead of the object's clock and the acquire search would hand that span
 * to the next holder. A grant never starts more than a span ahead: past that, 409
 * `no_free_worker_id` with Retry-After. Its own file: its objects run a layout of
 * 10 ms ticks, which the namespace's layout (storage is per file) must agree with.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ErrorBody, LeaseGrant } from "../../src/wire";
import type { SnowflakeWorker } from "../../src/worker/object/snowflake-worker";
import { envWith } from "../shared/fetch-app";
import { snowflakeStub, useTestClock } from "./helpers";
import { leaseBody, leasesApp, releasePath } from "./lease-helpers";

const T = 1_800_000_000_000;
const SPAN_MS = 30_000;
const COARSE = { SNOWFLAKE_TIME_UNIT_MS: "10", MAX_BORROW_MS: "10", POOL_MAX_AGE_MS: "1000" };

/** The worker ID's object under 10 ms ticks, on a test clock at `time`. */
async function coarseObject(workerId: number, time: number) {
	await runInDurableObject(snowflakeStub(workerId), (instance: SnowflakeWorker) => {
		(instance as unknown as { env: Env }).env = envWith(COARSE);
	});
	return useTestClock(workerId, time);
}

describe("acquire/release churn with 10 ms ticks", () => {
	it("never grants a span starting more than a span ahead of the object's clock", async () => {
		const leases = leasesApp(COARSE);
		await coarseObject(640, T);
		const refusals = new Map<string, number>();
		let grants = 0;
		for (let cycle = 0; cycle < 300; cycle++) {
			const { status, body, headers } = await leases<LeaseGrant & ErrorBody>("POST", "/leases", {
				workerId: 640,
			});
			if (status === 201) {
				grants++;
				expect(body.fromMs - body.serverNowMs).toBeLessThanOrEqual(SPAN_MS);
				expect((await leases("POST", releasePath(body), leaseBody(body))).status).toBe(204);
				continue;
			}
			expect(status).toBe(409);
			const key = `${body.error.code} ${headers.get("Retry-After")}`;
			refusals.set(key, (refusals.get(key) ?? 0) + 1);
		}
		// The first span, then the one tick at its end; then 298 refusals, to retry in 1 s.
		expect(grants).toBe(2);
		expect([...refusals]).toEqual([["no_free_worker_id 1", 298]]);
	});

	it("the search's second pass hands out no span further ahead than that", async () => {
		const pair = leasesApp({ ...COARSE, LEASE_WORKER_IDS: "641-642" });
		const clock641 = await coarseObject(641, T + 600_000);
		await coarseObject(642, T);
		// 641 was leased and released under a clock 10 min ahead; now its clock reads T.
		const { body: early } = await pair<LeaseGrant>("POST", "/leases", { workerId: 641 });
		expect((await pair("POST", releasePath(early), leaseBody(early))).status).toBe(204);
		clock641.time = T;
		await pair<LeaseGrant>("POST", "/leases", { workerId: 642 }); // held
		const { status, body, headers } = await pair<ErrorBody>("POST", "/leases", {});
		expect(status).toBe(409);
		expect(body.error.code).toBe("no_free_worker_id");
		// 641 starts 630 s ahead: it may be granted once that is 30 s, in 600 s.
		expect(headers.get("Retry-After")).toBe("32"); // 642's span and grace come first
		clock641.time = T + 600_000;
		const { status: later, body: grant } = await pair<LeaseGrant>("POST", "/leases", {});
		expect(later).toBe(201);
		expect(grant).toMatchObject({ workerId: 641, from: early.to });
	});
});
