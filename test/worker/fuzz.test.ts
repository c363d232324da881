/**
 * Hostile input, property-based (fast-check, fixed seeds, bounded runs): paths,
 * query strings, headers, methods and bodies sent to the Worker as a client would.
 * Every answer is a 2xx for a valid request, or a 4xx/405 in the one JSON error
 * shape; never a 5xx, never a stack trace; the service keeps answering.
 *
 * "Oversized" for this service: bodies are never read (POST takes its parameters
 * from the query), so their size costs nothing; a URL longer than 4,096 characters
 * is refused with 404 `not_found` before routing and auth, in a short answer that
 * does not echo it.
 *
 * Transport: under vitest-pool-workers 0.15.1 every `exports.default.fetch` (what
 * `call()` uses) is slower than the one before within a test file (about 5 ms per
 * request at first, 40 ms after 300: cloudflare/workers-sdk#15446; the app itself
 * stays at 0.1 ms). So the bulk goes straight to `app.fetch`, the very function
 * src/index.ts exports as the Worker's fetch, with the Worker's own env; a sample of
 * the hostile requests and every oversized one go through `call()`, the runtime's
 * own request path.
 *
 * Worker IDs 150-169 (storage is per file). Requests that would reach another
 * worker ID's object, the auto route's 0-31 included, are moved into that range.
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { app } from "../../src/worker/app";
import { STATUS_OF } from "../../src/worker/errors";
import { call, printTestStats } from "./helpers";

const OWN_IDS = { from: 150, count: 20 };
const MAX_URL = 4_096;
const ORIGIN = "https://ids.test";
const STACK_MARKERS = [/\n\s+at /, /\.ts:\d+/, /node_modules/, /SnowflakeWorker/, /IdError/];
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const HEX = "0123456789abcdef";

/** Hostile inputs sent by this file (printed at the end with TEST_STATS=1, for docs/RELIABILITY.md). */
let sent = 0;
let unsendable = 0;
const statuses = new Map<number, number>();
afterAll(() => {
	const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
	printTestStats(
		`fuzz: ${sent} hostile or edge-case requests sent (${unsendable} more generated that no client can send); answers ${byStatus.join(", ")}`,
	);
});

type Sent = { method: string; path: string; headers: Record<string, string>; body?: BodyInit };

/** Counterexamples print short: a 1 MB path in a failure message helps nobody. */
function printable<T extends Sent>(r: T): T {
	const cut = (text: string) =>
		text.length > 300 ? `${text.slice(0, 300)}…(${text.length} chars)` : text;
	const headerList = Object.entries(r.headers).map(([k, v]) => `${k}: ${cut(JSON.stringify(v))}`);
	const bodySize =
		r.body === undefined ? "none" : typeof r.body === "string" ? r.body.length : "bytes";
	return Object.assign(r, {
		[fc.toStringMethod]: () =>
			`${r.method} ${cut(JSON.stringify(r.path))} {${headerList.join(", ")}} body: ${bodySize}`,
	});
}

function ownWorkerId(id: number): number {
	return OWN_IDS.from + (id % OWN_IDS.count);
}

function decoded(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

/** Keeps Durable Object traffic on this file's worker IDs. */
function keepToOwnWorkerIds(path: string): string {
	let url: URL;
	try {
		url = new URL(`${ORIGIN}${path}`); // as call() builds it
	} catch {
		return path; // no client could send it; expectSafeAnswer skips it
	}
	const plain = decoded(url.pathname);
	if (plain === "/snowflake") {
		url.pathname = `/snowflake/${OWN_IDS.from}`;
	} else {
		const match = /^\/snowflake\/([0-9]+)(\/stats)?$/.exec(plain);
		const id = match ? Number(match[1]) : Number.NaN;
		if (id <= 1023 && (id < OWN_IDS.from || id >= OWN_IDS.from + OWN_IDS.count)) {
			url.pathname = `/snowflake/${ownWorkerId(id)}${match?.[2] ?? ""}`;
		}
	}
	return url.pathname + url.search + url.hash;
}

const printableChar = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
const byte = fc.integer({ min: 0, max: 255 });
const percentBytes = fc
	.array(byte, { minLength: 1, maxLength: 12 })
	.map((bytes) => bytes.map((b) => `%${b.toString(16).padStart(2, "0")}`).join(""));
const numberish = fc.oneof(
	fc.nat().map(String),
	fc.bigInt({ min: -(2n ** 130n), max: 2n ** 130n }).map(String),
	fc.nat(10_000).map((n) => `${"0".repeat(30)}${n}`),
	fc.constantFrom(
		"",
		"0",
		"-1",
		"+5",
		"1e3",
		"2.5",
		"0x1f",
		"Infinity",
		"NaN",
		" 5",
		"5 ",
		"%205",
		"1%00",
		"１２", // fullwidth digits
		"٣", // Arabic-Indic digit
		"9".repeat(400),
	),
);
const segment = fc.oneof(
	fc.string({ unit: printableChar, maxLength: 20 }),
	fc.string({ unit: "grapheme", maxLength: 10 }),
	fc.string({ unit: "binary", maxLength: 10 }),
	fc.string({ unit: "grapheme", maxLength: 10 }).map(encodeURIComponent),
	percentBytes,
	numberish,
	fc.webSegment(),
	fc.constantFrom("..", ".", "%2e%2e", "%2F", "//", "\\", "stats", "%", "%zz", "%E0%A4%A", "~"),
);
const prefix = fc.constantFrom(
	"/",
	"/health",
	"/layout",
	"/snowflake",
	"/snowflake/",
	`/snowflake/${OWN_IDS.from}`,
	`/snowflake/${OWN_IDS.from + 1}/stats`,
	"/ulid",
	"/uuidv7",
	"/decode",
	"/decode/",
	"//",
	"",
);
const path = fc.oneof(
	{
		weight: 6, // a known route with a hostile parameter: the validators' side
		arbitrary: fc.oneof(
			numberish.map((n) => `/snowflake/${n}`),
			numberish.map((n) => `/snowflake/${n}/stats`),
			segment.map((s) => `/decode/${s}`),
			fc.constantFrom("/snowflake", "/ulid", "/uuidv7", "/health", "/layout", "/"),
		),
	},
	{
		weight: 4, // a known prefix and random segments: the router's side
		arbitrary: fc
			.tuple(prefix, fc.array(segment, { maxLength: 4 }))
			.map(([p, segs]) => (segs.length ? `${p.replace(/\/$/, "")}/${segs.join("/")}` : p || "/")),
	},
	{ weight: 1, arbitrary: fc.webPath() },
	{
		weight: 1, // long: around and far past the limit
		arbitrary: fc
			.tuple(
				prefix,
				fc.constantFrom(500, 4_000, 4_100, 10_000),
				fc.constantFrom("a", "9", "%41", "é"),
			)
			.map(([p, n, unit]) => `${p.replace(/\/$/, "")}/${unit.repeat(Math.ceil(n / unit.length))}`),
	},
);
const queryValue = fc.oneof(
	numberish,
	fc.constantFrom("ulid", "uuid", "ULID", "", "uuid%00", "ulid&format=uuid"),
	fc.string({ unit: "grapheme", maxLength: 12 }).map(encodeURIComponent),
	fc.string({ unit: printableChar, maxLength: 12 }),
	percentBytes,
);
const queryKey = fc.oneof(
	fc.constantFrom("count", "format", "workerId", "x", "", "count[]", "%63ount", "COUNT", "count "),
	fc.string({ unit: printableChar, maxLength: 8 }),
);
const query = fc.oneof(
	fc.constant(""),
	fc
		.array(
			fc.oneof(
				fc.tuple(queryKey, queryValue).map(([k, v]) => `${k}=${v}`),
				queryKey, // a bare key
				fc.constant(""), // "&&"
			),
			{ minLength: 1, maxLength: 5 },
		)
		.map((parts) => `?${parts.join("&")}`),
	fc.webQueryParameters().map((q) => `?${q}`),
	fc.constantFrom(2_000, 5_000, 10_000).map((n) => `?count=1&junk=${"x".repeat(n)}`),
);
const headerValue = fc.oneof(
	fc.string({ unit: printableChar, maxLength: 40 }),
	fc.constantFrom(1_000, 10_000).map((n) => "A".repeat(n)),
);
const headers = fc.record(
	{
		Accept: fc.oneof(
			fc.constantFrom(
				"text/plain",
				"application/json",
				"*/*",
				"text/*",
				"text/plain;q=0",
				"text/plain;q=0.5, application/json;q=0.9",
				"application/json;q=0, text/plain",
				"image/png",
				"text/plain;q=abc",
				";;;,,,",
				"",
			),
			headerValue,
		),
		Authorization: fc.oneof(
			fc.constantFrom(
				"Bearer",
				"Bearer ",
				"Bearer x",
				"bearer x",
				"Basic Zm9vOmJhcg==",
				"Bearer ===",
				"",
			),
			fc.string({ unit: printableChar, maxLength: 40 }).map((t) => `Bearer ${t}`),
			headerValue,
		),
		Origin: fc.oneof(
			fc.constantFrom("null", "https://evil.example", "http://localhost:1"),
			headerValue,
		),
		"Content-Type": fc.oneof(
			fc.constantFrom(
				"application/json",
				"text/plain",
				"multipart/form-data; boundary=x",
				"application/x-www-form-urlencoded",
			),
			headerValue,
		),
		"X-Request-Id": headerValue,
		"Access-Control-Request-Method": fc.constantFrom("GET", "POST", "DELETE", "x"),
	},
	{ requiredKeys: [] },
);
const method = fc.oneof(
	{ weight: 6, arbitrary: fc.constantFrom("GET", "POST") },
	{ weight: 3, arbitrary: fc.constantFrom("PUT", "DELETE", "PATCH", "OPTIONS", "HEAD") },
	{
		weight: 2, // the other methods workerd parses, and lowercase ones
		arbitrary: fc.constantFrom(
			"PURGE",
			"COPY",
			"LOCK",
			"MKCOL",
			"MOVE",
			"PROPFIND",
			"PROPPATCH",
			"SEARCH",
			"UNLOCK",
			"ACL",
			"REPORT",
			"NOTIFY",
			"SUBSCRIBE",
			"get",
			"post",
			"delete",
			"options",
		),
	},
);
const body = fc.oneof(
	fc.constant(undefined),
	fc.string({ unit: "grapheme", maxLength: 100 }),
	fc.json({ maxDepth: 2 }),
	fc.uint8Array({ maxLength: 2_000 }),
); // megabyte bodies: see "oversized requests" below
const request: fc.Arbitrary<Sent> = fc
	.record({ method, path, query, headers, body })
	.map(({ method: m, path: p, query: q, headers: h, body: b }) => {
		const upper = m.toUpperCase();
		const bodyless = upper === "GET" || upper === "HEAD";
		return printable({
			method: m,
			path: keepToOwnWorkerIds(`${p}${q}`),
			headers: h as Record<string, string>,
			...(bodyless || b === undefined ? {} : { body: b as BodyInit }),
		});
	});

/**
 * What is wrong with an answer, or nothing. Plain checks, one `expect` per request
 * by the caller: vitest's `expect` costs milliseconds inside workerd.
 */
function problemsWith(r: Sent, response: Response, text: string): string[] {
	const problems: string[] = [];
	const check = (ok: boolean, what: string) => {
		if (!ok) problems.push(what);
	};
	const status = response.status;
	check(status < 500, `status ${status}`);
	for (const marker of STACK_MARKERS) {
		check(marker.test(r.path) || !marker.test(text), `body matches ${marker}`);
	}
	if (r.method.toUpperCase() === "HEAD" || status === 204) {
		check(text === "", "a body on HEAD or 204");
		return problems;
	}
	if (status >= 400) {
		check(/^application\/json/.test(response.headers.get("Content-Type") ?? ""), "error not JSON");
		let parsed: { error?: { code?: keyof typeof STATUS_OF; message?: unknown } } = {};
		try {
			parsed = JSON.parse(text);
		} catch {
			problems.push("error body does not parse");
		}
		check(Object.keys(parsed).join() === "error", "keys other than error");
		check(
			Object.keys(parsed.error ?? {})
				.sort()
				.join() === "code,message",
			"error keys not code, message",
		);
		check(
			parsed.error?.code !== undefined && STATUS_OF[parsed.error.code] === status,
			"code does not match status",
		);
		check(typeof parsed.error?.message === "string", "message not a string");
		// Messages may quote the input, but only up to the URL limit (JSON escaping can quadruple it).
		check(text.length < 5 * MAX_URL, `error body of ${text.length} characters`);
		if (status === 405) check(Boolean(response.headers.get("Allow")), "405 without Allow");
		return problems;
	}
	check(status < 300, `status ${status}`);
	const type = response.headers.get("Content-Type") ?? "";
	if (type.startsWith("application/json")) {
		try {
			JSON.parse(text);
		} catch {
			problems.push("2xx JSON does not parse");
		}
	} else {
		// IDs as text, or the playground page at "/".
		const page = decoded(new URL(`${ORIGIN}${r.path}`).pathname) === "/";
		check(
			type === "text/plain; charset=utf-8" || (page && type === "text/html; charset=utf-8"),
			`2xx of type ${type}`,
		);
	}
	return problems;
}

type Transport = (path: string, init: RequestInit) => Promise<Response>;
/** The app's fetch, as the Worker runs it, without the test harness's loopback. */
const direct: Transport = async (p, init) =>
	app.fetch(new Request(`${ORIGIN}${p}`, init), env, createExecutionContext());

/** Sends a request; the answer must never be a 5xx, and an error must be in the JSON shape. */
async function expectSafeAnswer(r: Sent, send: Transport = direct): Promise<Response | undefined> {
	try {
		new Request(`${ORIGIN}${r.path}`, { method: r.method, headers: r.headers, body: r.body });
	} catch {
		unsendable++; // the client's own Request refuses it: nothing reaches the service
		return undefined;
	}
	sent++;
	const response = await send(r.path, { method: r.method, headers: r.headers, body: r.body });
	statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
	const problems = problemsWith(r, response, await response.text());
	if (problems.length > 0) {
		expect(problems, `${r.method} ${r.path.slice(0, 200)} → ${response.status}`).toEqual([]);
	}
	return response;
}

describe("hostile requests (fast-check, fixed seed)", () => {
	it("never answer 5xx; errors are the JSON shape without stack traces", {
		timeout: 30_000,
	}, async () => {
		await fc.assert(
			fc.asyncProperty(request, async (r) => {
				await expectSafeAnswer(r);
			}),
			{ seed: 0xf022ed, numRuns: 3_000, endOnFailure: true },
		);
		const health = await call("/health");
		expect(health.status).toBe(200);
		expect(await health.json()).toEqual({ status: "ok" });
	});

	it("the same through the runtime's request path (a sample)", { timeout: 30_000 }, async () => {
		await fc.assert(
			fc.asyncProperty(request, async (r) => {
				await expectSafeAnswer(r, call);
			}),
			{ seed: 0x5e1f, numRuns: 150, endOnFailure: true },
		);
		expect((await call("/health")).status).toBe(200);
	});
});

/** Valid requests wrapped in legal noise: leading zeros, ignored parameters, any Accept, bodies. */
const padded = (n: number, zeros: number) => `${"0".repeat(zeros)}${n}`;
const ignoredParam = fc
	.tuple(
		fc.stringMatching(/^[a-z_][a-z0-9_]{0,7}$/).filter((k) => k !== "count" && k !== "format"),
		fc.string({ unit: "grapheme", maxLength: 20 }),
	)
	.map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
const countArb = fc.oneof(
	{ weight: 9, arbitrary: fc.integer({ min: 1, max: 100 }) },
	{ weight: 1, arbitrary: fc.constant(10_000) },
);
const ulidText = fc
	.tuple(
		fc.constantFrom(..."01234567"),
		fc.array(fc.constantFrom(...CROCKFORD), { minLength: 25, maxLength: 25 }),
		fc.boolean(),
	)
	.map(([first, rest, lower]) => {
		const text = first + rest.join("");
		return lower ? text.toLowerCase() : text;
	});
const uuidText = fc
	.tuple(fc.array(fc.constantFrom(...HEX), { minLength: 32, maxLength: 32 }), fc.boolean())
	.map(([hex, upper]) => {
		const h = hex.join("");
		const text = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
		return upper ? text.toUpperCase() : text;
	});
type Valid = Sent & {
	expect: "snowflake" | "ulid" | "uuidv7" | "decode" | "object";
	count?: number;
};
const validRequest: fc.Arbitrary<Valid> = fc
	.record({
		route: fc.constantFrom("snowflake", "ulid", "uuidv7", "decode", "health", "layout", "stats"),
		workerId: fc.nat(OWN_IDS.count - 1).map((i) => OWN_IDS.from + i),
		count: fc.option(countArb, { nil: undefined }),
		zeros: fc.nat(5),
		format: fc.option(fc.constantFrom("ulid", "uuid"), { nil: undefined }),
		id: fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }).map(String), ulidText, uuidText),
		extra: fc.array(ignoredParam, { maxLength: 3 }),
		post: fc.boolean(),
		accept: fc.option(
			fc.constantFrom(
				"text/plain",
				"application/json",
				"*/*",
				"text/plain;q=0.1, application/json",
				"x/y",
			),
			{ nil: undefined },
		),
		body: fc.option(fc.oneof(fc.string({ maxLength: 50 }), fc.uint8Array({ maxLength: 100 })), {
			nil: undefined,
		}),
		junkHeaders: fc.record(
			{ "X-Request-Id": headerValue, Origin: headerValue },
			{ requiredKeys: [] },
		),
	})
	.map((v) => {
		const params = [...v.extra];
		if (v.count !== undefined) params.push(`count=${padded(v.count, v.zeros)}`);
		const generating = v.route === "snowflake" || v.route === "ulid" || v.route === "uuidv7";
		if (v.route === "ulid" && v.format) params.push(`format=${v.format}`);
		const q = params.length ? `?${params.join("&")}` : "";
		const pathFor: Record<string, string> = {
			snowflake: `/snowflake/${padded(v.workerId, v.zeros)}${q}`,
			ulid: `/ulid${q}`,
			uuidv7: `/uuidv7${q}`,
			decode: `/decode/${v.id}`,
			health: "/health",
			layout: "/layout",
			stats: `/snowflake/${v.workerId}/stats`,
		};
		const headers: Record<string, string> = { ...(v.junkHeaders as Record<string, string>) };
		if (v.accept) headers.Accept = v.accept;
		const post = generating && v.post;
		return printable({
			method: post ? "POST" : "GET",
			path: pathFor[v.route] as string,
			headers,
			...(post && v.body !== undefined ? { body: v.body as BodyInit } : {}),
			expect: generating
				? (v.route as Valid["expect"])
				: v.route === "decode"
					? "decode"
					: "object",
			count: v.count ?? 1,
		});
	});

describe("valid requests with legal noise (fast-check, fixed seed)", () => {
	it("answer 2xx with what was asked for", { timeout: 30_000 }, async () => {
		await fc.assert(
			fc.asyncProperty(validRequest, async (r) => {
				const response = await expectSafeAnswer(r);
				if (response?.status !== 200) expect(response?.status, `${r.method} ${r.path}`).toBe(200);
			}),
			{ seed: 0x7a11d, numRuns: 500, endOnFailure: true },
		);
	});

	it("answer with the requested number of IDs, as JSON or as text", async () => {
		await fc.assert(
			fc.asyncProperty(
				validRequest.filter((r) => r.expect !== "decode" && r.expect !== "object"),
				async (r) => {
					sent++;
					const response = await direct(r.path, {
						method: r.method,
						headers: r.headers,
						body: r.body,
					});
					expect(response.status).toBe(200);
					const text = await response.text();
					const ids = response.headers.get("Content-Type")?.startsWith("text/plain")
						? text.trimEnd().split("\n")
						: (JSON.parse(text) as { ids: string[] }).ids;
					expect(ids).toHaveLength(r.count ?? 1);
				},
			),
			{ seed: 0xc0417, numRuns: 200, endOnFailure: true },
		);
	});
});

describe("oversized requests are refused early", () => {
	const fill = (base: string, length: number, sep: string) =>
		`${base}${sep}${"a".repeat(length - ORIGIN.length - base.length - sep.length)}`;

	it.each([
		["/ulid", "?x="],
		["/snowflake/150", "?count=1&pad="],
		["/decode", "/"],
		["/nope", "/"],
	])(
		"%s: a %s-padded URL of exactly 4,096 characters is served; one more is 404",
		async (base, sep) => {
			sent += 2;
			const atLimit = await call(fill(base, MAX_URL, sep));
			expect(atLimit.status).not.toBe(500);
			if (atLimit.status === 404) {
				// a 404 at the limit is the route's own (an unknown path), not the guard's
				expect(
					((await atLimit.json()) as { error: { message: string } }).error.message,
				).not.toContain("longer than");
			}
			const over = await call(fill(base, MAX_URL + 1, sep));
			expect(over.status).toBe(404);
			const body = (await over.json()) as { error: { code: string; message: string } };
			expect(body.error.code).toBe("not_found");
			expect(body.error.message).toContain(`longer than ${MAX_URL} characters`);
		},
	);

	it("answers URLs of 4 KB to 1 MB quickly, without echoing them, on every route and method", async () => {
		for (const length of [4_097, 16_384, 65_536, 1_048_576]) {
			for (const [m, base] of [
				["GET", "/snowflake/150?count="],
				["POST", "/ulid?format="],
				["GET", "/decode/"],
				["PUT", "/uuidv7?"],
				["DELETE", "/"],
			] as const) {
				sent++;
				const started = performance.now();
				const response = await call(`${base}${"9".repeat(length)}`, { method: m });
				const text = await response.text();
				expect(response.status).toBe(404);
				expect(text.length).toBeLessThan(300);
				expect(performance.now() - started).toBeLessThan(1_000);
			}
		}
	});

	it("ignores bodies, however large: POST with 1 MB answers at once", async () => {
		sent++;
		const response = await call("/ulid?count=2", {
			method: "POST",
			body: new Uint8Array(1_048_576),
		});
		expect(response.status).toBe(200);
		expect(((await response.json()) as { ids: string[] }).ids).toHaveLength(2);
	});

	it("answers huge headers without a 5xx", async () => {
		for (const name of ["Accept", "Authorization", "Origin", "X-Request-Id", "Cookie"]) {
			sent++;
			const response = await call("/ulid", { headers: { [name]: "z".repeat(60_000) } });
			expect(response.status).toBeLessThan(500);
		}
		expect((await call("/health")).status).toBe(200);
	});
});
