/** rateLimit on an app of its own, with a counting limiter: keys, exemptions, the 429 and a failing limiter. */
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { errorResponse } from "../../src/worker/errors";
import type { AppEnv } from "../../src/worker/http/app-env";
import { rateLimit } from "../../src/worker/http/middleware/rate-limit";
import { resolveConfig } from "../../src/worker/http/middleware/request-config";

/** A limiter allowing `budget` calls per key, recording the keys it was asked about. */
function countingLimiter(budget: number, fails = false) {
	const calls = new Map<string, number>();
	const limiter: RateLimit = {
		async limit({ key }) {
			if (fails) throw new Error("limiter down");
			const n = (calls.get(key) ?? 0) + 1;
			calls.set(key, n);
			return { success: n <= budget };
		},
	};
	return { limiter, keys: () => [...calls.keys()] };
}

function limitedApp(limiter: RateLimit, vars: Record<string, string> = {}) {
	const app = new Hono<AppEnv>()
		.use(resolveConfig())
		.use(rateLimit({ limiter: () => limiter }))
		.get("/*", (c) => c.text("ok"))
		.onError((error, c) => errorResponse(c, error));
	const own = { ...env, API_TOKEN: undefined, API_TOKEN_NEXT: undefined, ...vars } as Env;
	return (path: string, address?: string) =>
		app.request(path, address ? { headers: { "CF-Connecting-IP": address } } : {}, own);
}

describe("rateLimit", () => {
	it("answers 429 with Retry-After (RATE_LIMIT_PERIOD) once an address is over its budget", async () => {
		const { limiter, keys } = countingLimiter(2);
		const request = limitedApp(limiter);
		expect((await request("/ids", "203.0.113.9")).status).toBe(200);
		expect((await request("/ids", "203.0.113.9")).status).toBe(200);
		const refused = await request("/ids", "203.0.113.9");
		expect(refused.status).toBe(429);
		expect(refused.headers.get("Retry-After")).toBe("10");
		expect(await refused.json()).toMatchObject({ error: { code: "rate_limited" } });
		expect(keys()).toEqual(["ip:203.0.113.9"]);
	});

	it("limits neither /health, nor a request without an address, nor loopback", async () => {
		const { limiter, keys } = countingLimiter(0);
		const request = limitedApp(limiter);
		expect((await request("/health", "203.0.113.9")).status).toBe(200);
		expect((await request("/ids")).status).toBe(200);
		expect((await request("/ids", "127.0.0.1")).status).toBe(200);
		expect(keys()).toEqual([]);
	});

	it("with TRUST_CF_CONNECTING_IP off (wrangler dev), takes no address from the header: a made-up one buys no budget", async () => {
		const { limiter, keys } = countingLimiter(1);
		const request = limitedApp(limiter, { TRUST_CF_CONNECTING_IP: "off" });
		for (let i = 1; i <= 6; i++) {
			expect((await request("/ids", `203.0.113.${i}`)).status).toBe(200);
		}
		expect(keys()).toEqual([]); // keyed by nothing the caller can make up
	});

	it("lets the request through when the limiter fails", async () => {
		const { limiter } = countingLimiter(0, true);
		expect((await limitedApp(limiter)("/ids", "203.0.113.9")).status).toBe(200);
	});
});
