import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startWranglerDev } from "../../scripts/lib/wrangler-dev";

/**
 * Pooled sequences across requests, under `wrangler dev`: each HTTP request is a
 * request of its own there (in the workerd test pool, calls share the test's), and
 * a Worker's promise settles only in the request that made it. A call that waits
 * for a segment after the request that made its isolate's buffer has ended must be
 * served (found by `npm run test:sequences`: it answered 500).
 */
let dev: DevServer;
beforeAll(async () => {
	dev = await startWranglerDev();
});
afterAll(() => dev?.stop());

async function next(name: string, count: number) {
	const response = await fetch(`${dev.url}/sequences/${name}/next?count=${count}`, {
		method: "POST",
	});
	const body = (await response.json()) as { count?: number; error?: { code: string } };
	return { status: response.status, count: body.count ?? body.error?.code };
}

describe("a pooled sequence under wrangler dev", () => {
	it("serves calls that wait for a segment after the request that made the buffer ended", async () => {
		const created = await fetch(`${dev.url}/sequences/clicks`, {
			method: "PUT",
			headers: { "Content-Type": "application/json" },
			body: JSON.stringify({ mode: "pooled" }),
		});
		expect(created.status).toBe(201);
		expect(await next("clicks", 1)).toEqual({ status: 200, count: 1 }); // learns the mode
		expect(await next("clicks", 1)).toEqual({ status: 200, count: 1 }); // makes the buffer
		// More than the first segment holds: each waits for a fetch, in a request of its own.
		const later = await Promise.all([next("clicks", 500), next("clicks", 700)]);
		expect(later).toEqual([
			{ status: 200, count: 500 },
			{ status: 200, count: 700 },
		]);
	});
});
