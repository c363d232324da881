/**
 * Each caller's budget of lease acquires (LEASE_ACQUIRE_LIMIT a minute): over it,
 * `429 rate_limited` with Retry-After before any worker ID is held; other callers
 * keep theirs; renewals and status do not count. The caller is the rate limiter's
 * (a token, else the client address). Worker IDs 670-689 are this file's.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ErrorBody, LeaseGrant, LeaseState } from "../../src/wire";
import { parseConfig } from "../../src/worker/config/config";
import type { SnowflakeWorker } from "../../src/worker/object/snowflake-worker";
import { acquireBudgetName } from "../../src/worker/operations/lease-acquire-limit";
import { envWith, fetchApp } from "../shared/fetch-app";
import { useTestClock, YieldingClock } from "./helpers";
import { LEASED } from "./lease-helpers";

const T = 1_800_000_000_000;

/** The app under LEASE_ACQUIRE_LIMIT = `limit`, asked from the client address `address`. */
function leasesFrom(limit: string) {
	const appEnv = envWith({ LEASE_WORKER_IDS: LEASED, LEASE_ACQUIRE_LIMIT: limit });
	return async <T>(address: string, method: string, path: string, body?: object) => {
		const headers: Record<string, string> = { "CF-Connecting-IP": address };
		if (body) headers["Content-Type"] = "application/json";
		const response = await fetchApp(
			path,
			{ method, headers, body: body && JSON.stringify(body) },
			appEnv,
		);
		const text = await response.text();
		return {
			status: response.status,
			headers: response.headers,
			body: JSON.parse(text || "{}") as T,
		};
	};
}

/** The counter object of a client address, on a test clock at `time`. */
async function counterClock(address: string, time: number): Promise<YieldingClock> {
	const clock = new YieldingClock(time);
	const counter = env.SNOWFLAKE.get(env.SNOWFLAKE.idFromName(acquireBudgetName(`ip:${address}`)));
	await runInDurableObject(counter, (instance: SnowflakeWorker) => {
		instance.clock = clock;
	});
	return clock;
}

describe("LEASE_ACQUIRE_LIMIT", () => {
	it("refuses a caller's acquires past its budget with 429 and Retry-After, holding nothing", async () => {
		for (let id = 670; id < 676; id++) await useTestClock(id, T);
		const ask = leasesFrom("3");
		const clock = await counterClock("203.0.113.7", T);
		const granted: LeaseGrant[] = [];
		for (const workerId of [670, 671, 672]) {
			const answer = await ask<LeaseGrant>("203.0.113.7", "POST", "/leases", { workerId });
			expect(answer.status).toBe(201);
			granted.push(answer.body);
		}
		const refused = await ask<ErrorBody>("203.0.113.7", "POST", "/leases", { workerId: 673 });
		expect(refused.status).toBe(429);
		expect(refused.body.error.code).toBe("rate_limited");
		expect(refused.body.error.message).toContain("LEASE_ACQUIRE_LIMIT (3 a minute)");
		expect(refused.headers.get("Retry-After")).toBe("20"); // 3 a minute: one every 20 s
		const status = await ask<LeaseState>("203.0.113.7", "GET", "/leases/673");
		expect(status.body.state).toBe("free"); // the refused acquire held nothing
		// Renewals and status spend nothing of it.
		const renewed = await ask("203.0.113.7", "POST", "/leases/670/renew", {
			leaseId: granted[0]?.leaseId,
		});
		expect(renewed.status).toBe(200);
		// Another caller has a budget of its own.
		const other = await ask<LeaseGrant>("198.51.100.9", "POST", "/leases", { workerId: 674 });
		expect(other.status).toBe(201);
		// 20 s later the first caller may acquire once more.
		clock.time = T + 20_000;
		const later = await ask<LeaseGrant>("203.0.113.7", "POST", "/leases", { workerId: 675 });
		expect(later.status).toBe(201);
	});

	it("limits nobody at 0, and refuses a value that is not an integer in [0, 1000000]", async () => {
		for (let id = 680; id < 686; id++) await useTestClock(id, T);
		const ask = leasesFrom("0");
		for (let id = 680; id < 686; id++) {
			const answer = await ask("192.0.2.55", "POST", "/leases", { workerId: id });
			expect(answer.status).toBe(201);
		}
		expect(parseConfig({ ...env }).leaseAcquireLimit).toBe(1_000);
		for (const bad of ["-1", "1000001", "2.5", "many"]) {
			expect(() => parseConfig({ ...env, LEASE_ACQUIRE_LIMIT: bad })).toThrowError(
				/LEASE_ACQUIRE_LIMIT must be an integer in \[0, 1000000\]/,
			);
		}
		const broken = await leasesFrom("lots")<ErrorBody>("192.0.2.56", "POST", "/leases", {});
		expect(broken.status).toBe(500);
		expect(broken.body.error.code).toBe("invalid_config");
		expect(broken.body.error.message).toContain("LEASE_ACQUIRE_LIMIT");
	});
});
