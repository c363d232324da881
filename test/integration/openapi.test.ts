/**
 * The OpenAPI document served by the real bundle: valid OpenAPI 3.1, and true of
 * the service — every documented operation is called here, and its live answers
 * (successes and errors) must match the document's schemas for that status.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEASES_ON, startServiceAndConsumer } from "./setup";

const TOKEN = "openapi-test-secret";
let mf: Miniflare;
let baseUrl: URL;
// biome-ignore lint/suspicious/noExplicitAny: a parsed OpenAPI document
let document: any;

beforeAll(async () => {
	const started = await startServiceAndConsumer({ apiToken: TOKEN, vars: LEASES_ON });
	mf = started.mf;
	baseUrl = started.url;
	const answer = await fetch(new URL("/openapi.json", baseUrl)); // public: no token
	expect(answer.status).toBe(200);
	document = await answer.json();
}, 120_000);

afterAll(() => mf?.dispose());

const ajv = new Ajv2020({ strict: false, allErrors: true });

/**
 * The schema with every object closed (`additionalProperties: false`), so a field
 * an answer carries but the document leaves out fails the check.
 */
function closed(schema: unknown): unknown {
	if (Array.isArray(schema)) return schema.map(closed);
	if (!schema || typeof schema !== "object") return schema;
	const copy: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(schema)) copy[key] = closed(value);
	if (copy.properties && copy.additionalProperties === undefined) copy.additionalProperties = false;
	return copy;
}

interface Call {
	method: "get" | "post" | "put" | "delete";
	/** The documented path this call exercises. */
	operation: string;
	url: string;
	body?: unknown;
	/** The body's Content-Type; default application/json. */
	type?: string;
	token?: boolean;
	accept?: string;
}

async function call({ method, url, body, type, token = true, accept }: Call) {
	const headers: Record<string, string> = {};
	if (token) headers.Authorization = `Bearer ${TOKEN}`;
	if (body !== undefined) headers["Content-Type"] = type ?? "application/json";
	if (accept) headers.Accept = accept;
	return fetch(new URL(url, baseUrl), {
		method: method.toUpperCase(),
		headers,
		body: body === undefined ? undefined : JSON.stringify(body),
	});
}

/** Calls and checks the answer against the document's schema for its status. */
async function conforms(c: Call, expectedStatus: number) {
	const answer = await call(c);
	const text = await answer.text();
	expect(answer.status, `${c.method} ${c.url}: ${text}`).toBe(expectedStatus);
	const documented = document.paths[c.operation]?.[c.method]?.responses?.[String(expectedStatus)];
	expect(documented, `${c.method} ${c.operation} documents ${expectedStatus}`).toBeDefined();
	if (expectedStatus === 204) {
		expect(text).toBe("");
		expect(documented.content).toBeUndefined();
		return { answer, text };
	}
	const type = (answer.headers.get("Content-Type") ?? "").split(";")[0] ?? "";
	const schema = documented.content?.[type]?.schema;
	expect(schema, `${c.method} ${c.operation} ${expectedStatus} documents ${type}`).toBeDefined();
	if (type === "application/json") {
		const validate = ajv.compile(closed(schema) as object);
		const body = JSON.parse(text);
		expect(validate(body), `${c.method} ${c.url}: ${JSON.stringify(validate.errors)}`).toBe(true);
	}
	return { answer, text };
}

const ULID = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
const UUID_V7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
const UUID_V4 = "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6";
const DISCORD_ID = "175928847299117063";

/** At least one successful call per documented operation. */
const SUCCESSES: Call[] = [
	{ method: "get", operation: "/openapi.json", url: "/openapi.json", token: false },
	{ method: "get", operation: "/health", url: "/health", token: false },
	{ method: "get", operation: "/layout", url: "/layout" },
	{ method: "get", operation: "/regions", url: "/regions" },
	{ method: "get", operation: "/decode/{id}", url: "/decode/1288834974657" },
	{ method: "get", operation: "/decode/{id}", url: `/decode/${ULID}` },
	{ method: "get", operation: "/decode/{id}", url: `/decode/${UUID_V7}` },
	{ method: "get", operation: "/decode/{id}", url: `/decode/${UUID_V4}` },
	{ method: "get", operation: "/decode/{id}", url: `/decode/${DISCORD_ID}?layout=discord` },
	{ method: "get", operation: "/decode/{id}", url: `/decode/${DISCORD_ID}?layout=sonyflake` },
	{ method: "get", operation: "/snowflake", url: "/snowflake?count=3" },
	{ method: "post", operation: "/snowflake", url: "/snowflake", body: { count: 2 } },
	{ method: "get", operation: "/snowflake/{workerId}", url: "/snowflake/7?count=3" },
	{ method: "post", operation: "/snowflake/{workerId}", url: "/snowflake/7", body: { count: 2 } },
	{ method: "get", operation: "/snowflake/blocks", url: "/snowflake/blocks?count=5" },
	{ method: "post", operation: "/snowflake/blocks", url: "/snowflake/blocks", body: {} },
	{ method: "get", operation: "/snowflake/{workerId}/blocks", url: "/snowflake/8/blocks?count=5" },
	{
		method: "post",
		operation: "/snowflake/{workerId}/blocks",
		url: "/snowflake/8/blocks",
		body: { count: 4 },
	},
	{ method: "get", operation: "/snowflake/{workerId}/stats", url: "/snowflake/7/stats" },
	{ method: "get", operation: "/ulid", url: "/ulid?count=2&format=uuid" },
	{ method: "post", operation: "/ulid", url: "/ulid", body: { count: 2, format: "ulid" } },
	{ method: "get", operation: "/uuidv7", url: "/uuidv7?count=2" },
	{ method: "post", operation: "/uuidv7", url: "/uuidv7", body: { count: 2 } },
	{ method: "get", operation: "/uuidv7", url: "/uuidv7?count=2", accept: "text/plain" },
	{ method: "get", operation: "/typeid", url: "/typeid?prefix=user&count=2" },
	{ method: "post", operation: "/typeid", url: "/typeid", body: { count: 2, prefix: "order" } },
	{ method: "get", operation: "/snowflake/{workerId}", url: "/snowflake/7?prefix=order&count=2" },
	{ method: "get", operation: "/snowflake/blocks", url: "/snowflake/blocks?format=base32" },
	{ method: "get", operation: "/decode/{id}", url: "/decode/user_01h455vb4pex5vsknk084sn02q" },
	{
		method: "get",
		operation: "/decode/{id}",
		url: "/decode/0123456789abcdefghjkmnpqrs?format=typeid",
	},
	{ method: "get", operation: "/decode/{id}", url: "/decode/order_1asd13xh1f800" },
	{
		method: "get",
		operation: "/range",
		url: "/range?kind=snowflake&from=2026-11-01&to=2026-11-02",
	},
	{ method: "get", operation: "/range", url: "/range?kind=typeid&prefix=user&from=0&to=1000" },
	{ method: "get", operation: "/stats", url: "/stats" },
	{ method: "get", operation: "/stats/history", url: "/stats/history?minutes=5" },
	{ method: "get", operation: "/stats/{workerId}/history", url: "/stats/7/history?minutes=5" },
	{ method: "get", operation: "/metrics", url: "/metrics" },
	{ method: "get", operation: "/api/snowflake/get/{key}", url: "/api/snowflake/get/order" },
	{ method: "post", operation: "/api/snowflake/get/{key}", url: "/api/snowflake/get/order" },
	{
		method: "get",
		operation: "/decodeSnowflakeId",
		url: "/decodeSnowflakeId?snowflakeId=910499571847892992",
	},
];

const RENEW = "/leases/{workerId}/renew";
const RELEASE = "/leases/{workerId}/release";
const OLD_RENEW = "/leases/{workerId}/{leaseId}/renew";
const OLD_RELEASE = "/leases/{workerId}/{leaseId}";
const STATUS = "/leases/{workerId}";
/** The lease operations, called in order by the test (they need the acquire's leaseId). */
const LEASE_OPERATIONS: Pick<Call, "method" | "operation">[] = [
	{ method: "post", operation: "/leases" },
	{ method: "post", operation: RENEW },
	{ method: "get", operation: STATUS },
	{ method: "get", operation: "/leases" },
	{ method: "post", operation: RELEASE },
	{ method: "post", operation: OLD_RENEW },
	{ method: "delete", operation: OLD_RELEASE },
];
const FOREIGN_LEASE = { leaseId: "F".repeat(32) };

/** A sequence's life, one call per documented operation (a name of this run: storage outlives none). */
const SEQUENCE = `openapi-${Date.now()}`;
/** Another, retired at the end of its life. */
const RETIRED = `openapi-retired-${Date.now()}`;
const SEQUENCE_CALLS: [Call, number][] = [
	[
		{
			method: "put",
			operation: "/sequences/{name}",
			url: `/sequences/${SEQUENCE}`,
			body: { reset: "daily" },
		},
		201,
	],
	[
		{
			method: "put",
			operation: "/sequences/{name}",
			url: `/sequences/${SEQUENCE}`,
			body: { reset: "daily" },
		},
		200,
	],
	[
		{
			method: "get",
			operation: "/sequences/{name}/next",
			url: `/sequences/${SEQUENCE}/next?count=2`,
		},
		200,
	],
	[
		{
			method: "post",
			operation: "/sequences/{name}/next",
			url: `/sequences/${SEQUENCE}/next`,
			accept: "text/plain",
		},
		200,
	],
	[
		{
			method: "post",
			operation: "/sequences/{name}/reserve",
			url: `/sequences/${SEQUENCE}/reserve`,
			body: { count: 9 },
		},
		200,
	],
	[
		{
			method: "post",
			operation: "/sequences/{name}/advance",
			url: `/sequences/${SEQUENCE}/advance`,
			body: { to: "99" },
		},
		200,
	],
	[{ method: "get", operation: "/sequences/{name}", url: `/sequences/${SEQUENCE}` }, 200],
	[
		{
			method: "get",
			operation: "/api/segment/get/{key}",
			url: `/api/segment/get/${SEQUENCE}`,
		},
		200,
	],
	[
		{
			method: "post",
			operation: "/api/segment/get/{key}",
			url: `/api/segment/get/${SEQUENCE}`,
		},
		200,
	],
	[{ method: "get", operation: "/sequences", url: "/sequences?limit=5" }, 200],
	[
		{
			method: "get",
			operation: "/sequences/{name}/history",
			url: `/sequences/${SEQUENCE}/history?minutes=5`,
		},
		200,
	],
	[{ method: "put", operation: "/sequences/{name}", url: `/sequences/${RETIRED}`, body: {} }, 201],
	[
		{
			method: "delete",
			operation: "/sequences/{name}",
			url: `/sequences/${RETIRED}`,
			body: { confirm: RETIRED },
		},
		200,
	],
];

describe("GET /openapi.json", () => {
	it("is a valid OpenAPI 3.1 document", async () => {
		const validator = new Validator();
		const result = await validator.validate(document);
		expect(result.errors ?? []).toEqual([]);
		expect(result.valid).toBe(true);
		expect(validator.version).toBe("3.1");
	});

	it("answers every documented operation as its schemas say", async () => {
		const documented = Object.entries(document.paths).flatMap(([path, item]) =>
			Object.keys(item as object).map((method) => `${method} ${path}`),
		);
		// The HTML pages are checked by type and headers below.
		const html = ["get /", "get /docs", "get /monitor"];
		const called = new Set(
			[...SUCCESSES, ...LEASE_OPERATIONS, ...SEQUENCE_CALLS.map(([c]) => c)].map(
				(c) => `${c.method} ${c.operation}`,
			),
		);
		expect([...called].sort()).toEqual(documented.filter((op) => !html.includes(op)).sort());
		for (const c of SUCCESSES) await conforms(c, 200);
		for (const [c, status] of SEQUENCE_CALLS) await conforms(c, status);
		// A lease's life: its leaseId is the acquire's.
		const acquired = await conforms(
			{ method: "post", operation: "/leases", url: "/leases", body: { holder: "openapi" } },
			201,
		);
		const { workerId, leaseId } = JSON.parse(acquired.text);
		const lease = `/leases/${workerId}`;
		const body = { leaseId };
		await conforms({ method: "post", operation: RENEW, url: `${lease}/renew`, body }, 200);
		await conforms({ method: "get", operation: STATUS, url: lease }, 200);
		await conforms({ method: "get", operation: "/leases", url: "/leases" }, 200);
		// The 0.2.0 forms are refused, the lease untouched.
		const old = `${lease}/${leaseId}`;
		await conforms({ method: "post", operation: OLD_RENEW, url: `${old}/renew` }, 410);
		await conforms({ method: "delete", operation: OLD_RELEASE, url: old }, 410);
		await conforms({ method: "post", operation: RELEASE, url: `${lease}/release`, body }, 204);
	});

	it("describes the error answers the service gives", async () => {
		const errors: [Call, number, string][] = [
			[
				{ method: "get", operation: "/snowflake/{workerId}", url: "/snowflake/7?count=0" },
				400,
				"invalid_count",
			],
			[
				{ method: "get", operation: "/snowflake/{workerId}", url: "/snowflake/99999" },
				400,
				"invalid_worker_id",
			],
			[{ method: "post", operation: "/ulid", url: "/ulid", body: [1] }, 400, "invalid_body"],
			[
				{
					method: "post",
					operation: "/uuidv7",
					url: "/uuidv7",
					body: { count: 2 },
					type: "text/plain",
				},
				415,
				"unsupported_media_type",
			],
			[{ method: "get", operation: "/ulid", url: "/ulid?format=hex" }, 400, "invalid_format"],
			[
				{ method: "get", operation: "/sequences/{name}", url: "/sequences/never-made-openapi" },
				404,
				"unknown_sequence",
			],
			[
				{
					method: "put",
					operation: "/sequences/{name}",
					url: `/sequences/${SEQUENCE}`,
					body: { start: 5 },
				},
				409,
				"sequence_exists",
			],
			[
				{ method: "get", operation: "/api/segment/get/{key}", url: "/api/segment/get/never-made" },
				404,
				"unknown_sequence",
			],
			[
				{ method: "post", operation: "/api/segment/get/{key}", url: "/api/segment/get/.x" },
				400,
				"invalid_sequence_name",
			],
			[
				{ method: "get", operation: "/decodeSnowflakeId", url: "/decodeSnowflakeId?snowflakeId=x" },
				400,
				"invalid_id",
			],
			[
				{ method: "get", operation: "/sequences/{name}/next", url: `/sequences/${RETIRED}/next` },
				410,
				"sequence_retired",
			],
			[
				{ method: "put", operation: "/sequences/{name}", url: `/sequences/${RETIRED}`, body: {} },
				409,
				"sequence_retired",
			],
			[
				{
					method: "delete",
					operation: "/sequences/{name}",
					url: `/sequences/${SEQUENCE}`,
					body: { confirm: "other" },
				},
				400,
				"invalid_request",
			],
			[{ method: "get", operation: "/ulid", url: "/ulid?cuont=3" }, 400, "invalid_request"],
			[{ method: "get", operation: "/health", url: "/health?t=1" }, 400, "invalid_request"],
			[{ method: "get", operation: "/decode/{id}", url: "/decode/xyz" }, 400, "invalid_id"],
			[
				{ method: "get", operation: "/decode/{id}", url: "/decode/1?layout=nope" },
				400,
				"invalid_layout",
			],
			[{ method: "get", operation: "/typeid", url: "/typeid?prefix=User" }, 400, "invalid_prefix"],
			[
				{ method: "get", operation: "/range", url: "/range?kind=ulid&from=5&to=5" },
				400,
				"invalid_range",
			],
			[{ method: "get", operation: "/uuidv7", url: "/uuidv7", token: false }, 401, "unauthorized"],
			[
				{ method: "get", operation: "/snowflake/{workerId}", url: "/snowflake/900" },
				409,
				"worker_id_leased",
			],
			[
				{ method: "post", operation: RENEW, url: "/leases/901/renew", body: FOREIGN_LEASE },
				409,
				"lease_lost",
			],
			[
				{
					method: "post",
					operation: RELEASE,
					url: "/leases/901/release",
					body: { leaseId: "short" },
				},
				400,
				"invalid_lease_id",
			],
			[
				{ method: "post", operation: "/leases", url: "/leases", body: { holder: "" } },
				400,
				"invalid_holder",
			],
			[{ method: "get", operation: STATUS, url: "/leases/5" }, 400, "invalid_worker_id"],
		];
		for (const [c, status, code] of errors) {
			const { text } = await conforms(c, status);
			expect(JSON.parse(text).error.code).toBe(code);
		}
	});

	it("needs no token, like /health", async () => {
		const answer = await call({
			method: "get",
			operation: "/openapi.json",
			url: "/openapi.json",
			token: false,
		});
		expect(answer.status).toBe(200);
	});
});

describe("GET /docs", () => {
	it("is public HTML loading the pinned reference UI under a CSP that allows only it", async () => {
		const answer = await call({ method: "get", operation: "/docs", url: "/docs", token: false });
		expect(answer.status).toBe(200);
		expect(answer.headers.get("Content-Type")).toMatch(/^text\/html/);
		const html = await answer.text();
		const script = html.match(/<script src="([^"]+)" integrity="(sha384-[A-Za-z0-9+/=]+)"/);
		expect(script?.[1]).toMatch(/@scalar\/api-reference@\d+\.\d+\.\d+\//); // a version, not "latest"
		expect(html).toContain('data-url="/openapi.json"');
		const csp = answer.headers.get("Content-Security-Policy") ?? "";
		expect(csp).toContain(`script-src ${script?.[1]}`);
		expect(csp).toContain("default-src 'none'");
		expect(csp).toContain("connect-src 'self'");
		expect(csp).toContain("frame-ancestors 'none'");
	});
});
