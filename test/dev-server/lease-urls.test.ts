import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startWranglerDev } from "../../scripts/lib/wrangler-dev";
import { createLeasedGenerator, idsClient } from "../../src/client";

/**
 * A lease holder's whole life (acquire, renewals, IDs, release) against `wrangler
 * dev`, with every URL the client sent and everything the dev server printed (its
 * request lines and the Worker's own log lines) kept: the leaseId, a bearer
 * capability, appears in none of them. It travels in request bodies only.
 */
let dev: DevServer;
let printed = "";
beforeAll(async () => {
	dev = await startWranglerDev({
		// A short span, so that renewals (every third of it) come within the test.
		vars: { LEASE_WORKER_IDS: "512-1023", LEASE_SPAN_MS: "1500" },
		logLevel: "log",
		onOutput: (text) => {
			printed += text;
		},
	});
});
afterAll(() => dev?.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a lease holder's life under wrangler dev", () => {
	it("puts the leaseId in no URL and in no line the dev server prints", async () => {
		const sent: { method: string; url: string; body: string }[] = [];
		/** The leaseIds the service answered (acquire and renewals). */
		const answered = new Set<string>();
		const recording = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
			sent.push({
				method: init?.method ?? "GET",
				url: String(input),
				body: typeof init?.body === "string" ? init.body : "",
			});
			const response = await fetch(input, init);
			const granted = /"leaseId":"([A-Za-z0-9_-]{32})"/.exec(await response.clone().text());
			if (granted?.[1]) answered.add(granted[1]);
			return response;
		}) as typeof fetch;
		const generator = await createLeasedGenerator({
			source: idsClient({ baseUrl: dev.url, fetch: recording }),
			holder: "dev-server-test",
		});
		const ids: string[] = [];
		for (let i = 0; i < 12; i++) {
			ids.push(...(await generator.next(100)));
			await sleep(250); // 3 s in all: renewals every 0.5 s
		}
		const stats = generator.stats();
		await generator.close();
		await sleep(1_500); // the dev server prints its lines a moment later
		expect(new Set(ids).size).toBe(1_200);
		expect(stats).toMatchObject({ acquires: 1, leasesLost: 0 });
		expect(stats.renewalsGranted).toBeGreaterThanOrEqual(3);

		// One lease, its leaseId in no URL; it went out in bodies only (renewals, release).
		expect(answered.size).toBe(1);
		const [leaseId] = answered as unknown as [string];
		for (const request of sent) expect(request.url).not.toContain(leaseId);
		const routes = sent.map((request) => `${request.method} ${new URL(request.url).pathname}`);
		expect(routes[0]).toBe("POST /leases");
		expect(routes).toContain(`POST /leases/${generator.workerId}/renew`);
		expect(routes.at(-1)).toBe(`POST /leases/${generator.workerId}/release`);
		const carried = sent.filter((request) => request.body === JSON.stringify({ leaseId }));
		expect(carried.length).toBe(sent.length - 1); // all but the acquire

		// The dev server printed a line for each request (so the check below has lines to
		// look in), and none holds the leaseId.
		expect(printed).toContain(`/leases/${generator.workerId}/renew`);
		expect(printed).toContain(`/leases/${generator.workerId}/release`);
		expect(printed).not.toContain(leaseId);
	});
});
