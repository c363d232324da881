/**
 * Security: the bearer token, CORS, and what error bodies may say. The app runs
 * with its own config here: `app.fetch(request, { ...env, API_TOKEN, CORS_ORIGINS },
 * ctx)`; config is cached per env object, so each object below is its own config.
 *
 * The token comparison (src/worker/http/middleware/auth.ts) compares SHA-256 digests with
 * `crypto.subtle.timingSafeEqual`; tokens.test.ts checks that it is what runs.
 * Timing is not measured here (it would be a flaky test).
 *
 * Worker IDs 170-199 (storage is per file).
 */
import { createExecutionContext, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/wire";
import type { SnowflakeWorker } from "../../src/worker/object/snowflake-worker";
import { IdService } from "../../src/worker/rpc/id-service";
import { envWith, fetchApp } from "../shared/fetch-app";
import { captureErrorLog, snowflakeStub, useTestClock } from "./helpers";

const TOKEN = "s3cret-T0ken.value~42";
const ALLOWED = "https://a.example";
const ALSO_ALLOWED = "https://b.example";
const EVIL = "https://evil.example";

type Send = (path: string, init?: RequestInit) => Promise<Response>;

/** The app under a config of its own (a new env object, so a new parsed config). */
function appWith(vars: Record<string, unknown>): Send {
	const ownEnv = envWith(vars);
	return (path, init) => fetchApp(path, init, ownEnv);
}

const secured = appWith({
	API_TOKEN: TOKEN,
	CORS_ORIGINS: `${ALLOWED}, ${ALSO_ALLOWED}`,
	AUTO_WORKER_IDS: "170-179",
});
const bearer = { Authorization: `Bearer ${TOKEN}` };

/** Every route but `/health` and `/`, with a method it takes, plus paths that match no route. */
const PROTECTED: [string, string][] = [
	["GET", "/layout"],
	["GET", "/snowflake/180?count=2"],
	["POST", "/snowflake/181?count=3"],
	["GET", "/snowflake?count=2"],
	["POST", "/snowflake"],
	["GET", "/snowflake/180/stats"],
	["GET", "/ulid?count=2"],
	["POST", "/ulid?format=uuid"],
	["GET", "/uuidv7"],
	["POST", "/uuidv7?count=2"],
	["GET", "/decode/910499571847892992"],
	["GET", "/decode/01ARYZ6S41TSV4RRFFQ69G5FAV"],
];
const UNROUTED: [string, string][] = [
	["GET", "/nope"],
	["PUT", "/snowflake/180"],
	["GET", "/health/"],
	["GET", "//health"],
	["GET", "/health/../layout"],
	["GET", "/layout?/health"],
	["GET", "/HEALTH"],
];

/** Things no error body may contain: the token, stack frames, file paths, internal names. */
const LEAKS: RegExp[] = [
	new RegExp(TOKEN.replace(/[.~]/g, "\\$&")),
	/s3cret/i,
	/\n\s+at /,
	/\bat \w+ \(/,
	/\.(ts|js|tsx):\d+/,
	/node_modules|\/work\/|src\//,
	/SnowflakeWorker|IdError|HTTPException|TypeError|ReferenceError|idFromName|durableObject/,
	/a\.example|b\.example/, // the configured origins
];

async function expectUnauthorized(response: Response, label: string) {
	expect(response.status, label).toBe(401);
	expect(response.headers.get("Content-Type"), label).toMatch(/^application\/json/);
	expect(response.headers.get("WWW-Authenticate"), label).toMatch(/^Bearer\b/);
	const text = await response.text();
	const body = JSON.parse(text) as ErrorBody;
	expect(body.error.code, label).toBe("unauthorized");
	for (const leak of LEAKS) expect(text, label).not.toMatch(leak);
}

describe("with API_TOKEN set", () => {
	it.each([...PROTECTED, ...UNROUTED])(
		"%s %s without a token → 401 unauthorized",
		async (method, path) => {
			await expectUnauthorized(await secured(path, { method }), `${method} ${path}`);
		},
	);

	const malformed = [
		"Bearer",
		"Bearer ",
		"Bearer    ",
		TOKEN,
		`Basic ${btoa(`user:${TOKEN}`)}`,
		`Token ${TOKEN}`,
		`Bearer ${TOKEN}x`,
		`Bearer ${TOKEN.slice(0, -1)}`,
		`Bearer ${TOKEN.toUpperCase()}`,
		`Bearer ${TOKEN} extra`,
		`Bearer ${TOKEN},`,
		`Bearer "${TOKEN}"`,
		`Bearer\t${TOKEN}`,
		`Bearer=${TOKEN}`,
		"Bearer wrong-token",
		`Bearer ${"A".repeat(10_000)}`,
	];
	it.each(malformed.map((h, i) => [i, h] as const))(
		"a malformed or wrong header (%i) → 401, without echoing it",
		async (_, header) => {
			for (const [method, path] of PROTECTED.slice(0, 4)) {
				const response = await secured(path, { method, headers: { Authorization: header } });
				await expectUnauthorized(response, `${method} ${path} with ${header.slice(0, 40)}`);
			}
		},
	);

	it("two Authorization headers, one of them right → 401", async () => {
		const headers = new Headers();
		headers.append("Authorization", "Bearer wrong");
		headers.append("Authorization", `Bearer ${TOKEN}`);
		await expectUnauthorized(await secured("/ulid", { headers }), "two headers");
	});

	it.each(PROTECTED)("%s %s with the token → 200", async (method, path) => {
		const response = await secured(path, { method, headers: bearer });
		expect(response.status).toBe(200);
		expect(await response.text()).not.toContain(TOKEN);
	});

	it("the scheme is case-insensitive (RFC 7235), the token is not", async () => {
		expect((await secured("/ulid", { headers: { Authorization: `bearer ${TOKEN}` } })).status).toBe(
			200,
		);
		const upper = await secured("/ulid", {
			headers: { Authorization: `Bearer ${TOKEN.toUpperCase()}` },
		});
		expect(upper.status).toBe(401);
	});

	it("/health and / need no token", async () => {
		const health = await secured("/health");
		expect(health.status).toBe(200);
		expect(await health.json()).toEqual({ status: "ok" });
		const home = await secured("/");
		expect(home.status).not.toBe(401);
		expect(home.status).toBeLessThan(500);
	});

	it("the auto route picks from AUTO_WORKER_IDS only once authorized", async () => {
		const response = await secured("/snowflake?count=2", { headers: bearer });
		const body = (await response.json()) as { workerId: number; ids: string[] };
		expect(body.workerId).toBeGreaterThanOrEqual(170);
		expect(body.workerId).toBeLessThanOrEqual(179);
	});

	it("RPC callers through a service binding are trusted: no token asked", async () => {
		const service = new IdService(
			createExecutionContext(),
			envWith({ API_TOKEN: TOKEN, AUTO_WORKER_IDS: "182" }),
		);
		const ulids = await service.ulid({ count: 2 });
		expect(ulids.ids).toHaveLength(2);
		const snowflakes = await service.snowflake({ workerId: 183, count: 2 });
		expect(snowflakes.ids).toHaveLength(2);
		const overHttp = await service.fetch(new Request("https://ids.test/layout"));
		expect(overHttp.status).toBe(200);
	});
});

describe("CORS answers only the configured origins", () => {
	it.each([ALLOWED, ALSO_ALLOWED])("a request from %s gets its origin back", async (origin) => {
		const response = await secured("/health", { headers: { Origin: origin } });
		expect(response.headers.get("Access-Control-Allow-Origin")).toBe(origin);
		expect(response.headers.get("Vary")).toMatch(/Origin/);
		expect(response.headers.get("Access-Control-Expose-Headers")).toMatch(/Retry-After/);
		expect(response.headers.get("Access-Control-Allow-Credentials")).toBeNull();
	});

	const others = [
		EVIL,
		"null",
		"https://a.example.evil.example",
		"https://evil.example/https://a.example",
		"http://a.example",
		"https://a.example:8443",
		"https://a.example/",
		"https://A.EXAMPLE",
		`${ALLOWED}, ${EVIL}`,
		"*",
		"",
	];
	it.each(others)("a request from %j gets no Access-Control-Allow-Origin", async (origin) => {
		for (const [method, path, headers] of [
			["GET", "/health", {}],
			["GET", "/ulid", bearer],
			["GET", "/ulid", {}], // a 401
		] as const) {
			const response = await secured(path, { method, headers: { ...headers, Origin: origin } });
			expect(
				response.headers.get("Access-Control-Allow-Origin"),
				`${path} from ${origin}`,
			).toBeNull();
		}
	});

	it("a preflight from an allowed origin gets the CORS headers, without a token", async () => {
		const response = await secured("/snowflake/184?count=5", {
			method: "OPTIONS",
			headers: {
				Origin: ALLOWED,
				"Access-Control-Request-Method": "POST",
				"Access-Control-Request-Headers": "authorization, content-type",
			},
		});
		expect(response.status).toBe(204);
		expect(response.headers.get("Access-Control-Allow-Origin")).toBe(ALLOWED);
		expect(response.headers.get("Access-Control-Allow-Methods")).toMatch(/POST/);
		expect(response.headers.get("Access-Control-Allow-Headers")).toMatch(/Authorization/i);
		expect(response.headers.get("Access-Control-Max-Age")).toBe("86400");
		expect(response.headers.get("Vary")).toMatch(/Origin/);
	});

	it.each(others.slice(0, 6))(
		"a preflight from %j gets no Access-Control-Allow-Origin",
		async (origin) => {
			const response = await secured("/snowflake/184", {
				method: "OPTIONS",
				headers: { Origin: origin, "Access-Control-Request-Method": "POST" },
			});
			expect(response.headers.get("Access-Control-Allow-Origin")).toBeNull();
			expect(await response.text()).toBe("");
		},
	);

	it("error answers to an allowed origin are readable by it (the origin is echoed)", async () => {
		const response = await secured("/ulid", { headers: { Origin: ALLOWED } });
		expect(response.status).toBe(401);
		expect(response.headers.get("Access-Control-Allow-Origin")).toBe(ALLOWED);
	});

	it("the default `*` answers any origin with `*` and no credentials", async () => {
		const open = appWith({ CORS_ORIGINS: "*" });
		const response = await open("/health", { headers: { Origin: EVIL } });
		expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
		expect(response.headers.get("Access-Control-Allow-Credentials")).toBeNull();
	});
});

describe("error bodies carry no stack traces, internal names or config values", () => {
	async function expectClean(response: Response, status: number, code: string) {
		expect(response.status).toBe(status);
		const text = await response.text();
		expect((JSON.parse(text) as ErrorBody).error.code).toBe(code);
		for (const leak of LEAKS) expect(text).not.toMatch(leak);
		return (JSON.parse(text) as ErrorBody).error.message;
	}

	it("4xx answers", async () => {
		const cases: [string, RequestInit, number, string][] = [
			["/snowflake/1024", {}, 400, "invalid_worker_id"],
			["/snowflake/185?count=0", {}, 400, "invalid_count"],
			["/ulid?format=hex", {}, 400, "invalid_format"],
			["/decode/not-an-id", {}, 400, "invalid_id"],
			["/nope", {}, 404, "not_found"],
			["/layout", { method: "POST" }, 405, "method_not_allowed"],
			[`/ulid?x=${"a".repeat(5_000)}`, {}, 404, "not_found"],
		];
		for (const [path, init, status, code] of cases) {
			await expectClean(await secured(path, { ...init, headers: bearer }), status, code);
		}
	});

	it("a bad config names the variable, never its value (nor the token)", async () => {
		const cases: Record<string, string>[] = [
			{ MAX_BATCH: "lots-of-s3cret" },
			{ MAX_BATCH: "123456789012345678901234567890" },
			{ CORS_ORIGINS: "https://a.example, javascript:s3cret" },
			{ AUTO_WORKER_IDS: "0-9999,s3cret" },
			{ SNOWFLAKE_EPOCH: "s3cret" },
		];
		for (const vars of cases) {
			const broken = appWith({ API_TOKEN: TOKEN, ...vars });
			for (const path of ["/health", "/ulid"]) {
				const message = await expectClean(
					await broken(path, { headers: bearer }),
					500,
					"invalid_config",
				);
				expect(message).toContain(Object.keys(vars)[0] as string);
			}
		}
	});

	it("an internal failure says only that (the thrown TypeError stays in the log)", async () => {
		const noBinding = appWith({ API_TOKEN: TOKEN, SNOWFLAKE: undefined });
		const [response, logged] = await captureErrorLog(() =>
			noBinding("/snowflake/186", { headers: bearer }),
		);
		const message = await expectClean(response, 500, "internal");
		expect(message).toBe("an internal error occurred; it has been logged");
		expect(logged).toHaveLength(1);
		expect(logged[0]?.[0]).toBe("internal error");
		expect(logged[0]?.[2]).toBeInstanceOf(TypeError);
	});

	it("503 clock_regression and 500 layout_mismatch", async () => {
		const clock = await useTestClock(187, 1_800_000_000_000);
		expect((await secured("/snowflake/187", { headers: bearer })).status).toBe(200);
		clock.time -= 5_000;
		await expectClean(
			await secured("/snowflake/187", { headers: bearer }),
			503,
			"clock_regression",
		);

		await runInDurableObject(snowflakeStub(188), (_instance: SnowflakeWorker, state) => {
			state.storage.kv.put("layout", "epoch=0;bits=39/12/12;unit=10");
		});
		await expectClean(await secured("/snowflake/188", { headers: bearer }), 500, "layout_mismatch");
	});
});
