/**
 * Rate limiting over the RATE_LIMITER binding. The local limiter counts in windows
 * that reset on 10-s clock boundaries, so every test decides the limiter's answer
 * with a spy instead of racing the window.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ErrorBody } from "../../src/wire";
import { envWith, fetchApp } from "../shared/fetch-app";
import { snowflakeStub } from "./helpers";

const TOKEN = "rate-limit-test-token-0123456789";
const FAR_AWAY = { "CF-Connecting-IP": "203.0.113.9" };

function send(path: string, init?: RequestInit, vars: Record<string, unknown> = {}) {
	return fetchApp(path, init, envWith(vars));
}

function answerLimit(success: boolean) {
	return vi.spyOn(env.RATE_LIMITER, "limit").mockResolvedValue({ success });
}

afterEach(() => vi.restoreAllMocks());

describe("rate limiting", () => {
	it("answers 429 rate_limited with Retry-After and calls no object when over the limit", async () => {
		const limit = answerLimit(false);
		const before = await snowflakeStub(801).stats(801);
		const response = await send("/snowflake/801?count=5", { headers: FAR_AWAY });
		expect(response.status).toBe(429);
		expect(response.headers.get("Retry-After")).toBe("10");
		const body = (await response.json()) as ErrorBody;
		expect(body.error.code).toBe("rate_limited");
		expect(body.error.message).toMatch(/rate limit/);
		expect(limit).toHaveBeenCalledWith({ key: "ip:203.0.113.9" });
		const after = await snowflakeStub(801).stats(801);
		expect(after).toEqual(before);
	});

	it("lets a caller within the limit through", async () => {
		const limit = answerLimit(true);
		const response = await send("/ulid?count=2", { headers: FAR_AWAY });
		expect(response.status).toBe(200);
		expect(limit).toHaveBeenCalledOnce();
	});

	it("keys a caller with the service's token by a hash of the token, never the token", async () => {
		const limit = answerLimit(true);
		const headers = { ...FAR_AWAY, Authorization: `Bearer ${TOKEN}` };
		expect((await send("/uuidv7", { headers }, { API_TOKEN: TOKEN })).status).toBe(200);
		const key = limit.mock.calls[0]?.[0].key;
		expect(key).toMatch(/^token:[0-9a-f]{32}$/);
		expect(key).not.toContain(TOKEN);
	});

	it("keys by IP when the service has no token, whatever token a caller makes up", async () => {
		const limit = answerLimit(true);
		const headers = { ...FAR_AWAY, Authorization: "Bearer made-up" };
		expect((await send("/uuidv7", { headers })).status).toBe(200);
		expect(limit).toHaveBeenCalledWith({ key: "ip:203.0.113.9" });
	});

	it("never limits /health, loopback callers (wrangler dev) or callers without an address", async () => {
		const limit = answerLimit(false);
		expect((await send("/health", { headers: FAR_AWAY })).status).toBe(200);
		expect((await send("/ulid", { headers: { "CF-Connecting-IP": "127.0.0.1" } })).status).toBe(
			200,
		);
		expect((await send("/ulid", { headers: { "CF-Connecting-IP": "::1" } })).status).toBe(200);
		expect((await send("/ulid")).status).toBe(200);
		expect(limit).not.toHaveBeenCalled();
	});

	it("does not limit without a binding: no limiter is asked", async () => {
		const limit = answerLimit(false);
		// With the binding this request is refused: the spy is the limiter it would reach.
		expect((await send("/ulid", { headers: FAR_AWAY })).status).toBe(429);
		limit.mockClear();
		const { RATE_LIMITER: _, ...withoutBinding } = env;
		const response = await fetchApp("/ulid", { headers: FAR_AWAY }, withoutBinding as Env);
		expect(response.status).toBe(200);
		expect(limit).not.toHaveBeenCalled();
	});

	it("answers Retry-After with RATE_LIMIT_PERIOD, the binding's period", async () => {
		answerLimit(false);
		const response = await send("/ulid", { headers: FAR_AWAY }, { RATE_LIMIT_PERIOD: "60" });
		expect(response.status).toBe(429);
		expect(response.headers.get("Retry-After")).toBe("60");
		const body = (await response.json()) as { error: { message: string } };
		expect(body.error.message).toMatch(/retry after 60 s/);
	});

	it("refuses a RATE_LIMIT_PERIOD the binding cannot have with invalid_config", async () => {
		const limit = answerLimit(true);
		for (const period of ["30", "0", "10s", "-10"]) {
			const response = await send("/ulid", { headers: FAR_AWAY }, { RATE_LIMIT_PERIOD: period });
			expect(response.status).toBe(500);
			expect(await response.json()).toMatchObject({
				error: { code: "invalid_config", message: expect.stringMatching(/RATE_LIMIT_PERIOD/) },
			});
		}
		expect(limit).not.toHaveBeenCalled();
	});

	it("lets requests through when the limiter itself fails", async () => {
		vi.spyOn(env.RATE_LIMITER, "limit").mockRejectedValue(new Error("limiter down"));
		expect((await send("/ulid", { headers: FAR_AWAY })).status).toBe(200);
	});
});
