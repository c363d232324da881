/**
 * Renewals after a span's end: within the grace, after it while nobody took the
 * worker ID, and after a takeover (lost). Worker IDs 620-629 are this file's.
 */
import { describe, expect, it } from "vitest";
import type { ErrorBody, LeaseGrant } from "../../src/wire";
import { useTestClock } from "./helpers";
import { leaseBody, leasesApp, releasePath, renewPath } from "./lease-helpers";

const T = 1_800_000_000_000;
const EPOCH = 1_288_834_974_657;
const tick = (ms: number) => ms - EPOCH;
const leases = leasesApp();

describe("renewals after to", () => {
	it("renews after to within the grace: the same span, moved on", async () => {
		const clock = await useTestClock(620, T);
		const { body: grant } = await leases<LeaseGrant>("POST", "/leases", { workerId: 620 });
		clock.time = T + 31_500; // to + 1.5 s of the 2 s grace
		const renewed = await leases<LeaseGrant>("POST", renewPath(grant), leaseBody(grant));
		expect(renewed.status).toBe(200);
		expect(renewed.body).toMatchObject({ from: grant.from, to: tick(T + 61_500) });
	});

	it("renews after the grace when nobody took the worker ID", async () => {
		const clock = await useTestClock(621, T);
		const { body: grant } = await leases<LeaseGrant>("POST", "/leases", { workerId: 621 });
		clock.time = T + 300_000;
		const renewed = await leases<LeaseGrant>("POST", renewPath(grant), leaseBody(grant));
		expect(renewed.status).toBe(200);
		expect(renewed.body).toMatchObject({ from: grant.from, to: tick(T + 330_000) });
	});

	it("refuses another holder during the grace, with Retry-After until it ends", async () => {
		const clock = await useTestClock(622, T);
		await leases("POST", "/leases", { workerId: 622 });
		clock.time = T + 30_500;
		const refused = await leases<ErrorBody>("POST", "/leases", { workerId: 622 });
		expect(refused.status).toBe(409);
		expect(refused.body.error.code).toBe("no_free_worker_id");
		expect(refused.headers.get("Retry-After")).toBe("2");
	});

	it("after a takeover, the old lease's renewal and release are lease_lost; the new one's span is above", async () => {
		const clock = await useTestClock(623, T);
		const { body: old } = await leases<LeaseGrant>("POST", "/leases", { workerId: 623 });
		clock.time = T + 32_000; // span and grace over
		const { status, body: taken } = await leases<LeaseGrant>("POST", "/leases", {
			workerId: 623,
		});
		expect(status).toBe(201);
		expect(taken.from).toBe(tick(T + 32_000));
		expect(taken.from).toBeGreaterThanOrEqual(old.to);
		for (const path of [renewPath(old), releasePath(old)]) {
			const lost = await leases<ErrorBody>("POST", path, leaseBody(old));
			expect(lost.status).toBe(409);
			expect(lost.body.error.code).toBe("lease_lost");
		}
		expect((await leases("POST", renewPath(taken), leaseBody(taken))).status).toBe(200);
	});

	it("keeps to when the object's clock went back, and never moves it back", async () => {
		const clock = await useTestClock(624, T);
		const { body: grant } = await leases<LeaseGrant>("POST", "/leases", { workerId: 624 });
		clock.time = T - 3_600_000;
		const renewed = await leases<LeaseGrant>("POST", renewPath(grant), leaseBody(grant));
		expect(renewed.status).toBe(200);
		expect(renewed.body).toMatchObject({ from: grant.from, to: grant.to });
	});
});
