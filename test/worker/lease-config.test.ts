/**
 * LEASE_WORKER_IDS, LEASE_SPAN_MS and LEASE_GRACE_MS: overlaps with the auto and
 * region sets refused naming both, the default auto set moved past leased worker
 * IDs, bounds, and leases off without the setting.
 */
import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/wire";
import { parseConfig } from "../../src/worker/config/config";
import { appWith } from "./helpers";
import { leasesApp } from "./lease-helpers";

/** The `invalid_config` message `vars` make (fails the test if they parse). */
function refusal(vars: Record<string, string>): string {
	try {
		parseConfig(vars);
	} catch (error) {
		expect(error).toMatchObject({ code: "invalid_config" });
		return (error as Error).message;
	}
	throw new Error(`parsed: ${JSON.stringify(vars)}`);
}

describe("lease config", () => {
	it("refuses LEASE_WORKER_IDS sharing worker IDs with AUTO_WORKER_IDS, naming both and the shared ones", () => {
		expect(refusal({ LEASE_WORKER_IDS: "16-47", AUTO_WORKER_IDS: "0-31" })).toContain(
			"LEASE_WORKER_IDS (16-47) and AUTO_WORKER_IDS (0-31) share worker IDs (16-31)",
		);
	});

	it("refuses LEASE_WORKER_IDS sharing worker IDs with a region of AUTO_REGIONS", () => {
		const message = refusal({
			LEASE_WORKER_IDS: "100-199",
			AUTO_REGIONS: "wnam:0-7 weur:190-200",
			AUTO_WORKER_IDS: "8-15",
		});
		expect(message).toContain("AUTO_REGIONS region weur (190-200)");
		expect(message).toContain("share worker IDs (190-199)");
	});

	it("refuses LEASE_WORKER_IDS outside WORKER_IDS, or outside the layout", () => {
		expect(refusal({ WORKER_IDS: "0-99", LEASE_WORKER_IDS: "90-120" })).toContain(
			"LEASE_WORKER_IDS (90-120) must lie within WORKER_IDS (0-99)",
		);
		expect(refusal({ LEASE_WORKER_IDS: "1000-1100" })).toContain("LEASE_WORKER_IDS must be");
	});

	it("moves the default auto set past leased worker IDs: the first 32 owned ones not leased", () => {
		expect(String(parseConfig({ LEASE_WORKER_IDS: "0-7" }).autoWorkerIds)).toBe("8-39");
		expect(String(parseConfig({ LEASE_WORKER_IDS: "4-5,9" }).autoWorkerIds)).toBe("0-3,6-8,10-34");
		expect(String(parseConfig({ LEASE_WORKER_IDS: "512-1023" }).autoWorkerIds)).toBe("0-31");
		expect(refusal({ WORKER_IDS: "0-7", LEASE_WORKER_IDS: "0-7" })).toContain(
			"LEASE_WORKER_IDS (0-7) takes every worker ID of WORKER_IDS (0-7)",
		);
	});

	it("bounds the span (1 s to 10 min, 3 ticks at least) and the grace (0 to 60 s)", () => {
		expect(parseConfig({})).toMatchObject({
			leaseWorkerIds: undefined,
			leaseSpanMs: 30_000,
			leaseGraceMs: 2_000,
		});
		for (const bad of ["999", "600001", "30s", "-5"]) {
			expect(refusal({ LEASE_SPAN_MS: bad })).toContain(
				"LEASE_SPAN_MS must be an integer in [1000, 600000]",
			);
		}
		expect(refusal({ LEASE_SPAN_MS: "2000", SNOWFLAKE_TIME_UNIT_MS: "1000" })).toContain(
			"at least 3 ticks",
		);
		expect(refusal({ LEASE_GRACE_MS: "60001" })).toContain(
			"LEASE_GRACE_MS must be an integer in [0, 60000]",
		);
		expect(parseConfig({ LEASE_SPAN_MS: "600000", LEASE_GRACE_MS: "0" })).toMatchObject({
			leaseSpanMs: 600_000,
			leaseGraceMs: 0,
		});
	});

	it("answers 409 leases_disabled naming LEASE_WORKER_IDS on every lease route when it is unset", async () => {
		const plain = appWith({});
		for (const path of ["/leases/600"]) {
			const { status, body } = await plain(path);
			expect(status).toBe(409);
			expect(body).toMatchObject({
				error: { code: "leases_disabled", message: expect.stringContaining("LEASE_WORKER_IDS") },
			});
		}
		const off = leasesApp({ LEASE_WORKER_IDS: "" });
		for (const [method, path] of [
			["POST", "/leases"],
			["POST", "/leases/600/renew"],
			["POST", "/leases/600/release"],
			["GET", "/leases/not-a-number"],
		] as const) {
			const { status, body } = await off<ErrorBody>(method, path);
			expect(status).toBe(409);
			expect(body.error.code).toBe("leases_disabled");
		}
	});

	it("answers invalid_config on the lease routes of a misconfigured deployment", async () => {
		const bad = leasesApp({ LEASE_WORKER_IDS: "0-40", AUTO_WORKER_IDS: "0-31" });
		const { status, body } = await bad<ErrorBody>("POST", "/leases", {});
		expect(status).toBe(500);
		expect(body.error.code).toBe("invalid_config");
	});
});
