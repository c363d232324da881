/**
 * leaf-server's routes end to end: `/api/segment/get/:key` and `/api/snowflake/get/:key`
 * answer bare digits (the exact bytes, as leaf-server's `String.valueOf(id)`), by GET and
 * POST, in ordered and pooled mode; `/decodeSnowflakeId` answers Leaf's map, byte for
 * byte; every refusal is the service's JSON error with its status; auth, the rate limit,
 * HEAD and other methods as on every route.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ErrorBody } from "../../src/wire";
import { envWith, fetchApp } from "../shared/fetch-app";
import { call, callJson } from "./helpers";
import { sequenceName } from "./sequence-helpers";

const TEXT = "text/plain; charset=utf-8";

async function created(label: string, settings: object = {}): Promise<string> {
	const name = sequenceName(label);
	const made = await call(`/sequences/${name}`, {
		method: "PUT",
		headers: { "Content-Type": "application/json" },
		body: JSON.stringify(settings),
	});
	expect(made.status).toBe(201);
	return name;
}

/** An answer's status, headers that matter and exact body text. */
async function answer(path: string, init?: RequestInit) {
	const response = await call(path, init);
	return {
		status: response.status,
		type: response.headers.get("Content-Type"),
		cache: response.headers.get("Cache-Control"),
		body: await response.text(),
	};
}

afterEach(() => vi.restoreAllMocks());

describe("/api/segment/get/:key", () => {
	it("answers the next number as bare digits by GET and POST, with or without a body", async () => {
		const name = await created("leaf-ordered", { start: 1000 });
		const exact = (body: string) => ({ status: 200, type: TEXT, cache: "no-store", body });
		expect(await answer(`/api/segment/get/${name}`)).toEqual(exact("1000"));
		expect(await answer(`/api/segment/get/${name}`, { method: "POST" })).toEqual(exact("1001"));
		const json = { "Content-Type": "application/json" };
		expect(
			await answer(`/api/segment/get/${name}`, { method: "POST", headers: json, body: "{}" }),
		).toEqual(exact("1002"));
		// The numbers are the sequence's own: the next call of its own route follows.
		const next = await callJson<{ numbers: string[] }>(`/sequences/${name}/next`);
		expect(next.body.numbers).toEqual(["1003"]);
	});

	it("serves a pooled sequence: distinct numbers, rising within this isolate", async () => {
		const name = await created("leaf-pooled", { mode: "pooled" });
		const got: bigint[] = [];
		for (let i = 0; i < 6; i++) {
			const { status, body } = await answer(`/api/segment/get/${name}`);
			expect(status).toBe(200);
			expect(body).toMatch(/^[1-9][0-9]*$/);
			got.push(BigInt(body));
		}
		expect(got).toEqual([...got].sort((a, b) => (a < b ? -1 : 1)));
		expect(new Set(got).size).toBe(got.length);
	});

	it("answers 404 unknown_sequence for a key never created", async () => {
		const { status, body } = await callJson<ErrorBody>("/api/segment/get/never-made-leaf");
		expect(status).toBe(404);
		expect(body.error.code).toBe("unknown_sequence");
	});

	it.each([
		["订单", "%E8%AE%A2%E5%8D%95"],
		[".hidden", ".hidden"],
		["a".repeat(65), "a".repeat(65)],
		["order id", "order%20id"],
	])(
		"refuses %j, a Leaf biz_tag that is no sequence name, naming the rule and the mapping",
		async (key, path) => {
			const { status, body } = await callJson<ErrorBody>(`/api/segment/get/${path}`);
			expect(status).toBe(400);
			expect(body.error.code).toBe("invalid_sequence_name");
			const shown = key.length > 64 ? `${key.slice(0, 64)}…` : key; // a value is shown to 64 characters
			expect(body.error.message).toBe(
				`key must be a sequence name: 1-64 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit (a Leaf biz_tag outside this rule maps to a name as docs/MIGRATING.md, "Leaf keys that are not sequence names", shows); got ${JSON.stringify(shown)}`,
			);
		},
	);

	it("refuses parameters it does not take, and a body that is not JSON", async () => {
		const name = await created("leaf-params");
		const query = await callJson<ErrorBody>(`/api/segment/get/${name}?count=5`);
		expect([query.status, query.body.error.code]).toEqual([400, "invalid_request"]);
		expect(query.body.error.message).toBe('unknown parameter "count"; it takes none');
		const form = await callJson<ErrorBody>(`/api/segment/get/${name}`, {
			method: "POST",
			headers: { "Content-Type": "application/x-www-form-urlencoded" },
			body: "count=5",
		});
		expect([form.status, form.body.error.code]).toEqual([415, "unsupported_media_type"]);
		// Nothing was issued by the refusals.
		expect((await answer(`/api/segment/get/${name}`)).body).toBe("1");
	});
});

describe("/api/snowflake/get/:key", () => {
	it("answers one Snowflake of the auto pool as bare digits, whatever the key", async () => {
		const seen: bigint[] = [];
		for (const [key, init] of [
			["orders", undefined],
			["%E8%AE%A2%E5%8D%95", undefined],
			["x", { method: "POST" }],
		] as const) {
			const { status, type, cache, body } = await answer(`/api/snowflake/get/${key}`, init);
			expect({ status, type, cache }).toEqual({ status: 200, type: TEXT, cache: "no-store" });
			expect(body).toMatch(/^[1-9][0-9]{0,18}$/);
			const id = BigInt(body);
			expect(id < 2n ** 63n).toBe(true); // Long.parseLong reads it
			seen.push(id);
		}
		expect(new Set(seen).size).toBe(3);
		// From an auto worker ID (the first 32 by default), in this deployment's layout.
		const decoded = await callJson<{ workerId: number; timestamp: number }>(`/decode/${seen[0]}`);
		expect(decoded.body.workerId).toBeLessThan(32);
		expect(Math.abs(decoded.body.timestamp - Date.now())).toBeLessThan(60_000);
	});
});

describe("/decodeSnowflakeId", () => {
	// The expected bytes are what a JDK 17 printed for leaf-server's arithmetic and HashMap,
	// its SimpleDateFormat set to UTC (2026-11-29).
	it("answers leaf-server's map byte for byte, the time in UTC", async () => {
		// The seed's example: 2017-09-20 13:43:08.849 UTC, datacenter 17 and machine 25 (worker ID 569), sequence 0.
		const seed = await answer("/decodeSnowflakeId?snowflakeId=910499571847892992");
		expect(seed.status).toBe(200);
		expect(seed.type).toBe("application/json");
		expect(seed.body).toBe(
			'{"workerId":"569","sequenceId":"0","timestamp":"1505914988849(2017-09-20 13:43:08.849)"}',
		);
		const last = await answer("/decodeSnowflakeId?snowflakeId=9223372036854775807");
		expect(last.body).toBe(
			'{"workerId":"1023","sequenceId":"4095","timestamp":"3487858230208(2080-07-10 17:30:30.208)"}',
		);
		// Leading zeros are read as Long.parseLong reads them.
		const zero = await answer("/decodeSnowflakeId?snowflakeId=000");
		expect(zero.body).toBe(
			'{"workerId":"0","sequenceId":"0","timestamp":"1288834974657(2010-11-04 01:42:54.657)"}',
		);
	});

	it.each([
		["", "it is missing"],
		["?snowflakeId=-1", 'got "-1"'],
		["?snowflakeId=12a", 'got "12a"'],
		["?snowflakeId=9223372036854775808", 'got "9223372036854775808"'],
	])("refuses %j with 400 invalid_id", async (query, got) => {
		const { status, body } = await callJson<ErrorBody>(`/decodeSnowflakeId${query}`);
		expect(status).toBe(400);
		expect(body.error).toEqual({
			code: "invalid_id",
			message: `snowflakeId must be 1-19 decimal digits below 2^63 (9223372036854775808); ${got}`,
		});
	});
});

/** The request's log line (console.log captured), and the answer's text. */
async function logged(path: string) {
	const lines: string[] = [];
	const spy = vi.spyOn(console, "log").mockImplementation((line) => lines.push(String(line)));
	const response = await fetchApp(path).finally(() => spy.mockRestore());
	return { text: await response.text(), line: lines.at(-1) ?? "" };
}

describe("the Leaf routes as every route", () => {
	it("write a log line naming the kind and route, never the ID", async () => {
		const name = await created("leaf-log");
		const segment = await logged(`/api/segment/get/${name}`);
		expect(JSON.parse(segment.line)).toMatchObject({
			route: "/api/segment/get/:key",
			status: 200,
			kind: "leaf-segment",
			count: 1,
		});
		const snowflake = await logged("/api/snowflake/get/x");
		expect(JSON.parse(snowflake.line)).toMatchObject({
			route: "/api/snowflake/get/:key",
			kind: "leaf-snowflake",
			count: 1,
			source: expect.stringMatching(/^(pool|direct)$/),
			workerId: expect.any(Number),
		});
		expect(snowflake.line).not.toContain(snowflake.text);
	});

	const TOKEN = "leaf-routes-test-token-0123456789";

	it.each([
		"/api/segment/get/orders",
		"/api/snowflake/get/orders",
		"/decodeSnowflakeId?snowflakeId=1",
	])("%s needs the token when API_TOKEN is set", async (path) => {
		const vars = envWith({ API_TOKEN: TOKEN });
		const refused = await fetchApp(path, {}, vars);
		expect(refused.status).toBe(401);
		expect(((await refused.json()) as ErrorBody).error.code).toBe("unauthorized");
		const allowed = await fetchApp(
			"/decodeSnowflakeId?snowflakeId=1",
			{ headers: { Authorization: `Bearer ${TOKEN}` } },
			vars,
		);
		expect(allowed.status).toBe(200);
	});

	it("is rate limited: 429 with Retry-After, and nothing issued", async () => {
		const name = await created("leaf-limited");
		vi.spyOn(env.RATE_LIMITER, "limit").mockResolvedValue({ success: false });
		const headers = { "CF-Connecting-IP": "203.0.113.9" };
		for (const path of [`/api/segment/get/${name}`, "/api/snowflake/get/x"]) {
			const limited = await fetchApp(path, { headers });
			expect([limited.status, limited.headers.get("Retry-After")]).toEqual([429, "10"]);
		}
		vi.restoreAllMocks();
		expect((await answer(`/api/segment/get/${name}`)).body).toBe("1");
	});

	it("answers HEAD on the issuing routes 405 (issuing nothing), HEAD on the decode as GET", async () => {
		const name = await created("leaf-head");
		for (const path of [`/api/segment/get/${name}`, "/api/snowflake/get/x"]) {
			const head = await call(path, { method: "HEAD" });
			expect([head.status, head.headers.get("Allow"), await head.text()]).toEqual([
				405,
				"GET, POST",
				"",
			]);
		}
		expect((await answer(`/api/segment/get/${name}`)).body).toBe("1");
		const decode = await call("/decodeSnowflakeId?snowflakeId=1", { method: "HEAD" });
		expect([decode.status, await decode.text()]).toEqual([200, ""]);
	});

	it("answers 405 with Allow for other methods", async () => {
		for (const [path, method, allow] of [
			["/api/segment/get/orders", "PUT", "GET, POST"],
			["/api/snowflake/get/orders", "DELETE", "GET, POST"],
			["/decodeSnowflakeId", "POST", "GET"],
		] as const) {
			const { status, body, headers } = await callJson<ErrorBody>(path, { method });
			expect([status, headers.get("Allow"), body.error.code]).toEqual([
				405,
				allow,
				"method_not_allowed",
			]);
		}
	});
});
