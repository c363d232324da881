/**
 * `GET /leases`: the catalog's listing of leased worker IDs, kept by acquire,
 * release and takeover (told in the background by the worker ID's object), never
 * by a renewal; the object's minute alarm reports a renewed span's end, and repairs
 * a row a failed tell left wrong. A catalog that fails never fails the lease operation. Worker IDs 640-649 are this file's.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { FleetLeases, FleetStats, LeaseGrant, LeaseListing } from "../../src/wire";
import { fetchApp } from "../shared/fetch-app";
import { breakCatalog, captureErrorLog, snowflakeStub, useTestClock } from "./helpers";
import { leaseBody, leasesApp, releasePath, renewPath } from "./lease-helpers";

const T = 1_800_000_000_000;
const leases = leasesApp();

/** The catalog's row of `workerId` once `until` holds for it (the object tells the catalog in the background). */
async function listedWhen(
	workerId: number,
	until: (row: LeaseListing | undefined) => boolean,
): Promise<LeaseListing | undefined> {
	for (let attempt = 0; attempt < 200; attempt++) {
		const { status, body } = await leases<FleetLeases>("GET", "/leases");
		expect(status).toBe(200);
		const row = body.leases.find((lease) => lease.workerId === workerId);
		if (until(row)) return row;
		await scheduler.wait(5);
	}
	throw new Error(`the catalog never showed the expected row of worker ID ${workerId}`);
}

describe("GET /leases", () => {
	it("lists an acquired lease with its holder and span, never its leaseId, until it is released", async () => {
		await useTestClock(640, T);
		const {
			status,
			body: grant,
			text,
		} = await leases<LeaseGrant>("POST", "/leases", {
			workerId: 640,
			holder: "pod-7",
		});
		expect(status).toBe(201);
		expect(text).toContain(grant.leaseId);
		const row = await listedWhen(640, (r) => r !== undefined);
		expect(row).toEqual({
			workerId: 640,
			holder: "pod-7",
			state: "held",
			fromMs: grant.fromMs,
			toMs: grant.toMs,
			spanMs: 30_000,
			acquiredAtMs: T,
			reportedAtMs: expect.any(Number),
		});
		const listing = await leases("GET", "/leases");
		expect(listing.text).not.toContain(grant.leaseId);
		expect((await leases("POST", releasePath(grant), leaseBody(grant))).status).toBe(204);
		expect(await listedWhen(640, (r) => r === undefined)).toBeUndefined();
	});

	it("is not written by a renewal; the object's minute alarm reports the span's new end", async () => {
		const clock = await useTestClock(641, T);
		const { body: grant } = await leases<LeaseGrant>("POST", "/leases", { workerId: 641 });
		const acquired = await listedWhen(641, (r) => r !== undefined);
		clock.time = T + 10_000;
		const renewed = await leases<LeaseGrant>("POST", renewPath(grant), leaseBody(grant));
		expect(renewed.body.toMs).toBeGreaterThan(grant.toMs);
		await scheduler.wait(50); // time for a write, were there one
		expect(await listedWhen(641, () => true)).toEqual(acquired);
		expect(await runDurableObjectAlarm(snowflakeStub(641))).toBe(true);
		const reported = await listedWhen(641, (r) => r?.toMs === renewed.body.toMs);
		expect(reported).toMatchObject({ state: "held", fromMs: grant.fromMs, acquiredAtMs: T });
		// A worker ID only leased to holders issued nothing itself: not a row of GET /stats.
		const stats = await leases<FleetStats>("GET", "/stats");
		expect(stats.body.workerIds.map((w) => w.workerId)).not.toContain(641);
	});

	it("shows the new holder after a takeover of a lapsed lease", async () => {
		const clock = await useTestClock(642, T);
		await leases("POST", "/leases", { workerId: 642, holder: "old" });
		await listedWhen(642, (r) => r?.holder === "old");
		clock.time = T + 30_000 + 2_000; // past the span and the grace
		const taken = await leases<LeaseGrant>("POST", "/leases", { workerId: 642, holder: "new" });
		expect(taken.status).toBe(201);
		const row = await listedWhen(642, (r) => r?.holder === "new");
		expect(row).toMatchObject({ fromMs: taken.body.fromMs, acquiredAtMs: T + 32_000 });
	});

	it("grants and releases while the catalog fails; the failure is only logged", async () => {
		await useTestClock(643, T);
		await breakCatalog(snowflakeStub(643));
		const [grant, logged] = await captureErrorLog(async () => {
			const granted = await leases<LeaseGrant>("POST", "/leases", { workerId: 643 });
			expect(granted.status).toBe(201);
			const released = await leases("POST", releasePath(granted.body), leaseBody(granted.body));
			expect(released.status).toBe(204);
			await scheduler.wait(20); // the tells run in the background
			return granted;
		});
		expect(logged.map(([line]) => JSON.parse(String(line)).what)).toEqual([
			"noteLease",
			"dropLease",
		]);
		expect(grant.status).toBe(201);
		const { body } = await leases<FleetLeases>("GET", "/leases");
		expect(body.leases.map((l) => l.workerId)).not.toContain(643);
	});

	it("lists a lease acquired while the catalog failed, from the next minute's report", async () => {
		await useTestClock(644, T);
		const catalog = await breakCatalog(snowflakeStub(644));
		const [grant] = await captureErrorLog(async () => {
			const granted = await leases<LeaseGrant>("POST", "/leases", {
				workerId: 644,
				holder: "pod-4",
			});
			await scheduler.wait(20);
			return granted.body;
		});
		expect(await listedWhen(644, () => true)).toBeUndefined();
		await catalog.mend();
		expect(await runDurableObjectAlarm(snowflakeStub(644))).toBe(true);
		expect(await listedWhen(644, (r) => r !== undefined)).toEqual({
			workerId: 644,
			holder: "pod-4",
			state: "held",
			fromMs: grant.fromMs,
			toMs: grant.toMs,
			spanMs: 30_000,
			acquiredAtMs: grant.fromMs, // the acquire's own time went with the failed tell
			reportedAtMs: expect.any(Number),
		});
	});

	it("drops a lease released while the catalog failed, at the next minute's report", async () => {
		await useTestClock(645, T);
		const { body: grant } = await leases<LeaseGrant>("POST", "/leases", { workerId: 645 });
		await listedWhen(645, (r) => r !== undefined);
		const catalog = await breakCatalog(snowflakeStub(645));
		await captureErrorLog(async () => {
			expect((await leases("POST", releasePath(grant), leaseBody(grant))).status).toBe(204);
			await scheduler.wait(20);
		});
		expect(await listedWhen(645, () => true)).toMatchObject({ state: "held" });
		await catalog.mend();
		expect(await runDurableObjectAlarm(snowflakeStub(645))).toBe(true);
		expect(await listedWhen(645, (r) => r === undefined)).toBeUndefined();
		// Told: no alarm is left, nothing more is reported.
		expect(await runDurableObjectAlarm(snowflakeStub(645))).toBe(false);
	});

	it("answers 409 leases_disabled without LEASE_WORKER_IDS, like every /leases route", async () => {
		const response = await fetchApp("/leases");
		expect(response.status).toBe(409);
		expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
			"leases_disabled",
		);
	});
});
