import { afterAll, describe, expect, it } from "vitest";
import { type DevServer, startWranglerDev } from "../../scripts/lib/wrangler-dev";

/**
 * `wrangler dev` hands a Worker whatever `CF-Connecting-IP` a caller sends (it sets
 * the header from the socket only when none came), so there the header is no address:
 * local runs set TRUST_CF_CONNECTING_IP off, and a caller cannot buy budgets by
 * claiming addresses. With it on, the same server keys the lease-acquire budget on
 * the claimed value: the header reaches the Worker as sent.
 */
const servers: DevServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.stop())));

/** Status of each of `times` acquires, each claiming `address` (a fresh worker ID each). */
async function acquires(dev: DevServer, address: (i: number) => string, times: number) {
	const statuses: number[] = [];
	for (let i = 0; i < times; i++) {
		const response = await fetch(`${dev.url}/leases`, {
			method: "POST",
			headers: { "CF-Connecting-IP": address(i), "Content-Type": "application/json" },
			body: "{}",
		});
		await response.body?.cancel();
		statuses.push(response.status);
	}
	return statuses;
}

const LEASES = { LEASE_WORKER_IDS: "512-1023", LEASE_ACQUIRE_LIMIT: "3" };

describe("CF-Connecting-IP under wrangler dev", () => {
	it("is the caller's claim, passed through as sent: trusted, it alone decides the budget", async () => {
		const dev = await startWranglerDev({ vars: { ...LEASES, TRUST_CF_CONNECTING_IP: "on" } });
		servers.push(dev);
		// One claimed address: its budget of 3 runs out. A new claim each time: never.
		expect(await acquires(dev, () => "203.0.113.1", 4)).toEqual([201, 201, 201, 429]);
		expect(await acquires(dev, (i) => `198.51.100.${i + 1}`, 6)).toEqual(Array(6).fill(201));
	});

	it("is ignored in local runs (TRUST_CF_CONNECTING_IP off): a claimed address is no budget", async () => {
		const dev = await startWranglerDev({ vars: LEASES });
		servers.push(dev);
		// Not keyed by the claim: the caller has no address here (loopback, never limited).
		expect(await acquires(dev, () => "203.0.113.1", 4)).toEqual(Array(4).fill(201));
	});
});
