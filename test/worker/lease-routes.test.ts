/**
 * The lease routes end to end (Worker, object, storage), on a scripted object clock:
 * acquire, renew, release, status; re-acquire above a released span; the auto
 * acquire across LEASE_WORKER_IDS. Worker IDs 600-619 are this file's.
 */
import { describe, expect, it } from "vitest";
import type { ErrorBody, LeaseGrant, LeaseState } from "../../src/wire";
import { FREE_LEASE_VIEW } from "../shared/lease-grants";
import { useTestClock } from "./helpers";
import { leaseBody, leasesApp, releasePath, renewPath } from "./lease-helpers";

const T = 1_800_000_000_000;
const EPOCH = 1_288_834_974_657;
const tick = (ms: number) => ms - EPOCH;
const leases = leasesApp();

describe("lease routes", () => {
	it("acquires a named worker ID: 201 with the span, the object's clock and the layout", async () => {
		await useTestClock(600, T);
		const { status, body, headers } = await leases<LeaseGrant>("POST", "/leases", {
			workerId: 600,
			holder: "pod-a",
		});
		expect(status).toBe(201);
		expect(headers.get("Cache-Control")).toBe("no-store");
		expect(body).toEqual({
			workerId: 600,
			leaseId: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
			from: tick(T),
			to: tick(T + 30_000),
			fromMs: T,
			toMs: T + 30_000,
			serverNowMs: T,
			layout: expect.objectContaining({ timeBits: 41, workerBits: 10, sequenceBits: 12 }),
		});
	});

	it("renews: to moves to a span past the object's clock, from and leaseId stay", async () => {
		const clock = await useTestClock(601, T);
		const { body: grant } = await leases<LeaseGrant>("POST", "/leases", { workerId: 601 });
		clock.time = T + 10_000;
		const renewed = await leases<LeaseGrant>("POST", renewPath(grant), leaseBody(grant));
		expect(renewed.status).toBe(200);
		expect(renewed.body).toEqual({
			...grant,
			to: tick(T + 40_000),
			toMs: T + 40_000,
			serverNowMs: T + 10_000,
		});
	});

	it("shows the state, holder and span, never the leaseId", async () => {
		const clock = await useTestClock(602, T);
		const before = await leases<LeaseState>("GET", "/leases/602");
		expect(before.body).toEqual({ workerId: 602, ...FREE_LEASE_VIEW, serverNowMs: T });
		const { body: grant } = await leases<LeaseGrant>("POST", "/leases", {
			workerId: 602,
			holder: "pod-b",
		});
		const held = await leases<LeaseState>("GET", "/leases/602");
		expect(held.status).toBe(200);
		expect(held.body).toEqual({
			workerId: 602,
			state: "held",
			holder: "pod-b",
			from: grant.from,
			to: grant.to,
			fromMs: grant.fromMs,
			toMs: grant.toMs,
			serverNowMs: T,
		});
		expect(held.text).not.toContain(grant.leaseId);
		clock.time = T + 31_000;
		expect((await leases<LeaseState>("GET", "/leases/602")).body.state).toBe("grace");
		clock.time = T + 32_000;
		expect((await leases<LeaseState>("GET", "/leases/602")).body.state).toBe("free");
	});

	it("releases with 204: free at once, the lease lost, the next span above the released one", async () => {
		const clock = await useTestClock(603, T);
		const { body: first } = await leases<LeaseGrant>("POST", "/leases", { workerId: 603 });
		clock.time = T + 1_000;
		const released = await leases("POST", releasePath(first), leaseBody(first));
		expect(released.status).toBe(204);
		expect(released.text).toBe("");
		expect((await leases<LeaseState>("GET", "/leases/603")).body.state).toBe("free");
		const again = await leases("POST", releasePath(first), leaseBody(first));
		expect(again.status).toBe(204); // a retried release changes nothing
		const renewed = await leases<ErrorBody>("POST", renewPath(first), leaseBody(first));
		expect(renewed.status).toBe(409);
		expect(renewed.body.error.code).toBe("lease_lost");
		const { status, body: second } = await leases<LeaseGrant>("POST", "/leases", {
			workerId: 603,
		});
		expect(status).toBe(201);
		// The released span's unused tail is never issued again.
		expect(second.from).toBe(first.to);
		expect(second.to).toBe(tick(T + 31_000));
		expect(second.leaseId).not.toBe(first.leaseId);
	});

	it("picks a free worker ID without one named, and says none is free with Retry-After", async () => {
		const small = leasesApp({ LEASE_WORKER_IDS: "610-612" });
		for (const workerId of [610, 611, 612]) await useTestClock(workerId, T);
		const granted = [];
		for (let i = 0; i < 3; i++) {
			const { status, body } = await small<LeaseGrant>("POST", "/leases", { holder: `pod-${i}` });
			expect(status).toBe(201);
			granted.push(body.workerId);
		}
		expect(granted.sort()).toEqual([610, 611, 612]);
		const full = await small<ErrorBody>("POST", "/leases", {});
		expect(full.status).toBe(409);
		expect(full.body.error.code).toBe("no_free_worker_id");
		expect(full.body.error.message).toContain("610-612");
		expect(full.headers.get("Retry-After")).toBe("32"); // the span and the grace
	});

	it("prefers a worker ID whose span starts now to one just released, then takes that", async () => {
		const pair = leasesApp({ LEASE_WORKER_IDS: "614-615" });
		for (const workerId of [614, 615]) await useTestClock(workerId, T);
		const { body: held } = await pair<LeaseGrant>("POST", "/leases", { workerId: 614 });
		await pair("POST", releasePath(held), leaseBody(held)); // free, but its next span starts 30 s ahead
		for (let i = 0; i < 5; i++) {
			const { body } = await pair<LeaseGrant>("POST", "/leases", {});
			expect(body.workerId).toBe(615);
			await pair("POST", releasePath(body), leaseBody(body));
			await useTestClock(615, T + 60_000 * (i + 1)); // 615 is past its released span again
		}
		await pair<LeaseGrant>("POST", "/leases", { workerId: 615 });
		const { status, body } = await pair<LeaseGrant>("POST", "/leases", {});
		expect(status).toBe(201);
		expect(body.workerId).toBe(614);
		expect(body.from).toBe(held.to);
	});
});
