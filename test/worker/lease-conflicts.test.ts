/**
 * A worker ID of LEASE_WORKER_IDS belongs to its holders: the named and blocks
 * routes answer 409 worker_id_leased, refused by the Worker's config and, for a
 * Worker whose config says otherwise (a deploy in progress), by the object itself
 * while a span is live; the auto routes never use them. Worker IDs 640-649.
 */
import { describe, expect, it } from "vitest";
import type { ErrorBody, LeaseGrant, SnowflakeIds } from "../../src/wire";
import { appWith, useTestClock } from "./helpers";
import { LEASED, leasesApp } from "./lease-helpers";

const T = 1_800_000_000_000;
const leases = leasesApp();

describe("leased worker IDs", () => {
	it("are refused by the named and blocks routes, GET and POST, with 409 worker_id_leased", async () => {
		for (const [method, path] of [
			["GET", "/snowflake/640"],
			["POST", "/snowflake/640"],
			["GET", "/snowflake/640/blocks?count=10"],
			["POST", "/snowflake/640/blocks"],
		] as const) {
			const { status, body } = await leases<ErrorBody>(method, path);
			expect(status, path).toBe(409);
			expect(body.error).toMatchObject({
				code: "worker_id_leased",
				message: expect.stringContaining(`LEASE_WORKER_IDS = ${LEASED}`),
			});
		}
	});

	it("are refused by their object while a span is live, whatever the Worker's config says", async () => {
		const clock = await useTestClock(641, T);
		await leases("POST", "/leases", { workerId: 641 });
		const unaware = appWith({});
		for (const path of ["/snowflake/641?count=2", "/snowflake/641/blocks?count=2"]) {
			const { status, body } = await unaware(path);
			expect(status).toBe(409);
			expect(body).toMatchObject({ error: { code: "worker_id_leased" } });
		}
		const { headers } = await leases("GET", "/snowflake/641");
		expect(headers.get("Retry-After")).toBeNull(); // the Worker's own refusal: no retry helps
		clock.time = T + 31_999;
		const retry = await unaware("/snowflake/641");
		expect(retry.status).toBe(409);
	});

	it("are never drawn by the auto routes", async () => {
		const onlyLeased = leasesApp({ LEASE_WORKER_IDS: "0-15" });
		for (let i = 0; i < 20; i++) {
			const { body } = await onlyLeased<SnowflakeIds>("GET", "/snowflake?count=5");
			expect(body.workerId).toBeGreaterThanOrEqual(16);
		}
		const regions = await onlyLeased<{ autoWorkerIds: string }>("GET", "/regions");
		expect(regions.body.autoWorkerIds).toBe("16-47");
	});

	it("still show their object's stats", async () => {
		await leases<LeaseGrant>("POST", "/leases", { workerId: 642 });
		const { status, body } = await leases("GET", "/snowflake/642/stats");
		expect(status).toBe(200);
		expect(body).toMatchObject({ workerId: 642, issued: 0 });
	});
});
