/**
 * The service's tokens: one rule for what config accepts and what auth reads,
 * rotation with API_TOKEN_NEXT, constant-time comparison, and one rate-limit
 * budget per token however auth lets it be spelled. Limiter answers are spies,
 * as in rate-limit.test.ts. No object is reached (stateless routes only).
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { IdError } from "../../src/ids/errors";
import type { ErrorBody } from "../../src/wire";
import { bearerToken } from "../../src/worker/config/bearer-token";
import { parseConfig } from "../../src/worker/config/config";
import { IdService } from "../../src/worker/rpc/id-service";
import { envWith, fetchApp } from "../shared/fetch-app";

const CURRENT = "current-token_0123456789";
const NEXT = "next/token+value==";
const FAR_AWAY = { "CF-Connecting-IP": "203.0.113.9" };

function appWith(vars: Record<string, unknown>) {
	const own = envWith(vars);
	return (path: string, headers: Record<string, string> = {}) =>
		fetchApp(path, { headers: { ...FAR_AWAY, ...headers } }, own);
}

function limiterKeys() {
	const limit = vi.spyOn(env.RATE_LIMITER, "limit").mockResolvedValue({ success: true });
	return () => limit.mock.calls.map(([options]) => options.key);
}

afterEach(() => vi.restoreAllMocks());

describe("one rule for tokens: config accepts exactly what auth can read", () => {
	it.each([
		["API_TOKEN", { API_TOKEN: "correct-horse!battery" }],
		["API_TOKEN", { API_TOKEN: "two words" }],
		["API_TOKEN", { API_TOKEN: "trailing-newline\n" }],
		["API_TOKEN", { API_TOKEN: "pad=in=middle" }],
		["API_TOKEN_NEXT", { API_TOKEN: CURRENT, API_TOKEN_NEXT: "naïve" }],
	])(
		"refuses an unsendable %s with invalid_config naming it and the allowed characters",
		async (name, vars) => {
			const send = appWith(vars);
			for (const path of ["/health", "/ulid"]) {
				const response = await send(path, { Authorization: `Bearer ${CURRENT}` });
				expect(response.status).toBe(500);
				const body = (await response.json()) as ErrorBody;
				expect(body.error.code).toBe("invalid_config");
				expect(body.error.message).toContain(
					`${name} must be a bearer token of letters, digits and - . _ ~ + /`,
				);
				expect(body.error.message).not.toContain(Object.values(vars).at(-1) as string);
			}
		},
	);

	it("refuses API_TOKEN_NEXT without API_TOKEN", async () => {
		const response = await appWith({ API_TOKEN_NEXT: NEXT })("/health");
		expect(response.status).toBe(500);
		expect(((await response.json()) as ErrorBody).error.message).toMatch(
			/^API_TOKEN_NEXT is set without API_TOKEN/,
		);
	});

	it("every token config accepts is one auth accepts, and every token auth reads config accepts", async () => {
		const alphabet = 'abcXYZ019._~+/-=!" ,;:\t%é\\';
		const candidates = fc.string({
			unit: fc.constantFrom(...alphabet),
			minLength: 1,
			maxLength: 12,
		});
		let accepted = 0;
		await fc.assert(
			fc.asyncProperty(candidates, async (token) => {
				let configured: string | undefined;
				try {
					configured = parseConfig({ API_TOKEN: token }).apiToken;
				} catch (error) {
					expect((error as IdError).code).toBe("invalid_config");
				}
				const read = bearerToken(`Bearer ${token}`);
				// Both ways: config accepts ⇔ auth reads the token back unchanged.
				expect(configured).toBe(read === token ? token : undefined);
				if (configured === undefined) return;
				accepted++;
				const response = await appWith({ API_TOKEN: token })("/uuidv7", {
					Authorization: `Bearer ${token}`,
				});
				expect(response.status).toBe(200);
			}),
			{ seed: 20261125, numRuns: 300 },
		);
		expect(accepted).toBeGreaterThan(20);
	});
});

describe("rotation: API_TOKEN_NEXT is accepted beside API_TOKEN", () => {
	const both = appWith({ API_TOKEN: CURRENT, API_TOKEN_NEXT: NEXT });

	it("accepts either token, and nothing else", async () => {
		limiterKeys();
		expect((await both("/ulid", { Authorization: `Bearer ${CURRENT}` })).status).toBe(200);
		expect((await both("/ulid", { Authorization: `Bearer ${NEXT}` })).status).toBe(200);
		for (const wrong of [`Bearer ${NEXT.slice(0, -1)}`, `Bearer ${CURRENT}${NEXT}`, "Bearer x"]) {
			const response = await both("/ulid", { Authorization: wrong });
			expect(response.status).toBe(401);
			expect(response.headers.get("WWW-Authenticate")).toBe(
				'Bearer realm="edge-ids", error="invalid_token"',
			);
		}
		const malformed = await both("/ulid", { Authorization: `Basic ${CURRENT}` });
		expect(malformed.headers.get("WWW-Authenticate")).toBe(
			'Bearer realm="edge-ids", error="invalid_request"',
		);
		const none = await both("/ulid");
		expect(none.headers.get("WWW-Authenticate")).toBe('Bearer realm="edge-ids"');
		// Once NEXT is promoted and removed, the old token is refused.
		const promoted = appWith({ API_TOKEN: NEXT });
		expect((await promoted("/ulid", { Authorization: `Bearer ${NEXT}` })).status).toBe(200);
		expect((await promoted("/ulid", { Authorization: `Bearer ${CURRENT}` })).status).toBe(401);
	});

	it("compares a sent token with every configured token in constant time, whichever matches", async () => {
		limiterKeys();
		const compare = vi.spyOn(crypto.subtle, "timingSafeEqual");
		for (const token of [CURRENT, NEXT, "wrong", "a-much-longer-wrong-token-than-either-one"]) {
			compare.mockClear();
			await both("/ulid", { Authorization: `Bearer ${token}` });
			// Once in auth, not again in the rate limiter (one parse per request); two tokens.
			expect(compare, token).toHaveBeenCalledTimes(2);
			for (const [a, b] of compare.mock.calls) {
				expect((a as ArrayBuffer).byteLength).toBe(32);
				expect((b as ArrayBuffer).byteLength).toBe(32);
			}
		}
	});

	it("keys each token as its own budget, by a hash, and a token keeps its budget when promoted", async () => {
		const keys = limiterKeys();
		await both("/ulid", { Authorization: `Bearer ${CURRENT}` });
		await both("/ulid", { Authorization: `Bearer ${NEXT}` });
		await appWith({ API_TOKEN: NEXT })("/ulid", { Authorization: `Bearer ${NEXT}` });
		const [current, next, promoted] = keys();
		expect(current).toMatch(/^token:[0-9a-f]{32}$/);
		expect(next).toMatch(/^token:[0-9a-f]{32}$/);
		expect(next).not.toBe(current);
		expect(promoted).toBe(next);
		for (const key of keys()) {
			expect(key).not.toContain(CURRENT);
			expect(key).not.toContain(NEXT);
		}
	});
});

describe("every spelling auth accepts counts against the token's one budget", () => {
	const secured = appWith({ API_TOKEN: CURRENT });
	const spellings = [
		`Bearer ${CURRENT}`,
		`bearer ${CURRENT}`,
		`BEARER ${CURRENT}`,
		`bEaReR    ${CURRENT}`,
		`Bearer ${CURRENT}   `,
	];

	it.each(spellings)("%j is accepted and keyed as the token", async (header) => {
		const keys = limiterKeys();
		expect((await secured("/ulid", { Authorization: header })).status).toBe(200);
		// On a public path too: the token is still the caller.
		expect((await secured("/openapi.json", { Authorization: header })).status).toBe(200);
		expect(new Set(keys()).size).toBe(1);
		expect(keys()[0]).toMatch(/^token:/);
	});

	it("all spellings share one key", async () => {
		const keys = limiterKeys();
		for (const header of spellings) await secured("/ulid", { Authorization: header });
		expect(new Set(keys()).size).toBe(1);
	});

	it("a token auth refuses is keyed by the address, on a public path too", async () => {
		const keys = limiterKeys();
		await secured("/openapi.json", { Authorization: `Bearer\t${CURRENT}` });
		await secured("/openapi.json", { Authorization: `Bearer ${CURRENT}x` });
		expect(keys()).toEqual(["ip:203.0.113.9", "ip:203.0.113.9"]);
	});
});

describe("config", () => {
	it("keeps tokens as set, and none when unset or empty", () => {
		expect(parseConfig({ API_TOKEN: NEXT }).apiToken).toBe(NEXT);
		expect(parseConfig({ API_TOKEN: "" }).apiToken).toBeUndefined();
		expect(parseConfig({ API_TOKEN: CURRENT, API_TOKEN_NEXT: "" }).apiTokenNext).toBeUndefined();
		expect(() => parseConfig({ API_TOKEN: "a b" })).toThrow(IdError);
	});
});

describe("RPC callers", () => {
	it("are trusted with both tokens set: no token asked, no invalid_config", async () => {
		const service = new IdService(
			createExecutionContext(),
			envWith({ API_TOKEN: CURRENT, API_TOKEN_NEXT: NEXT }),
		);
		expect((await service.ulid({ count: 2 })).ids).toHaveLength(2);
		expect((await service.fetch(new Request("https://ids.test/uuidv7"))).status).toBe(200);
	});
});
