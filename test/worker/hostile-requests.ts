/**
 * The hostile side of the fuzz tests: fast-check arbitraries for requests a client
 * could send (paths, query strings, headers, methods, bodies), kept to the fuzz
 * file's worker IDs, and the check every answer must pass: never a 5xx, an error
 * only in the one JSON shape, no stack trace, no echo of a huge input.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { STATUS_OF } from "../../src/worker/errors";
import { fetchApp } from "../shared/fetch-app";

export const OWN_IDS = { from: 150, count: 20 };
export const MAX_URL = 4_096;
export const ORIGIN = "https://ids.test";
const STACK_MARKERS = [/\n\s+at /, /\.ts:\d+/, /node_modules/, /SnowflakeWorker/, /IdError/];
/** What the fuzz file sent (printed at the end with TEST_STATS=1, for docs/RELIABILITY.md). */
export const tally = { sent: 0, unsendable: 0, statuses: new Map<number, number>() };

export type Sent = {
	method: string;
	path: string;
	headers: Record<string, string>;
	body?: BodyInit;
};

/** Counterexamples print short: a 1 MB path in a failure message helps nobody. */
export function printable<T extends Sent>(r: T): T {
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
export const headerValue = fc.oneof(
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
export const request: fc.Arbitrary<Sent> = fc
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
		// IDs as text, or the playground page: at "/", or a file of public/ (its CSP is
		// public/_headers'), which the static layer may also find at a path such as "///".
		const page =
			decoded(new URL(`${ORIGIN}${r.path}`).pathname) === "/" ||
			(response.headers.get("Content-Security-Policy") ?? "").startsWith("default-src 'self'");
		check(
			type === "text/plain; charset=utf-8" || (page && type === "text/html; charset=utf-8"),
			`2xx of type ${type}`,
		);
	}
	return problems;
}

export type Transport = (path: string, init: RequestInit) => Promise<Response>;
/** The app's fetch, as the Worker runs it, without the test harness's loopback. */
export const direct: Transport = fetchApp;

/** Sends a request; the answer must never be a 5xx, and an error must be in the JSON shape. */
export async function expectSafeAnswer(
	r: Sent,
	send: Transport = direct,
): Promise<Response | undefined> {
	try {
		new Request(`${ORIGIN}${r.path}`, { method: r.method, headers: r.headers, body: r.body });
	} catch {
		tally.unsendable++; // the client's own Request refuses it: nothing reaches the service
		return undefined;
	}
	tally.sent++;
	const response = await send(r.path, { method: r.method, headers: r.headers, body: r.body });
	tally.statuses.set(response.status, (tally.statuses.get(response.status) ?? 0) + 1);
	const problems = problemsWith(r, response, await response.text());
	if (problems.length > 0) {
		expect(problems, `${r.method} ${r.path.slice(0, 200)} → ${response.status}`).toEqual([]);
	}
	return response;
}
