/**
 * Hostile input, property-based (fast-check, fixed seeds, bounded runs): paths,
 * query strings, headers, methods and bodies sent to the Worker as a client would.
 * Every answer is a 2xx for a valid request, or a 4xx/405 in the one JSON error
 * shape; never a 5xx, never a stack trace; the service keeps answering.
 *
 * "Oversized" for this service: a body not declared JSON is refused with 415 at its
 * first byte that is not blank, a JSON body is read up to 1 KiB, so their size costs
 * nothing; a URL longer than 4,096 characters
 * is refused with 404 `not_found` before routing and auth, in a short answer that
 * does not echo it.
 *
 * Transport: every `exports.default.fetch` (what `call()` uses) costs 2-4 ms in the
 * test runtime, the app itself 0.1 ms. So the bulk goes straight to `app.fetch`, the
 * very function src/index.ts exports as the Worker's fetch, with the Worker's own
 * env; a sample of the hostile requests and every oversized one go through `call()`,
 * the runtime's own request path.
 *
 * Worker IDs 150-169 (storage is per file). Requests that would reach another
 * worker ID's object, the auto route's 0-31 included, are moved into that range.
 * The hostile requests and the check of every answer are in hostile-requests.ts.
 */

import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/wire";
import { call, printTestStats } from "./helpers";
import {
	direct,
	expectSafeAnswer,
	headerValue,
	MAX_URL,
	ORIGIN,
	OWN_IDS,
	printable,
	request,
	type Sent,
	tally,
} from "./hostile-requests";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const HEX = "0123456789abcdef";
afterAll(() => {
	const byStatus = [...tally.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
	printTestStats(
		`fuzz: ${tally.sent} hostile or edge-case requests sent (${tally.unsendable} more generated that no client can send); answers ${byStatus.join(", ")}`,
	);
});

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

/** Valid requests wrapped in legal noise: leading zeros, any Accept, bodies. */
const padded = (n: number, zeros: number) => `${"0".repeat(zeros)}${n}`;
/** Query names no route takes (the lowercase ones that some route does are left out). */
const KNOWN_NAMES = new Set(["count", "format", "prefix", "layout", "epoch", "kind", "from", "to"]);
const unknownParam = fc.tuple(
	fc.stringMatching(/^[a-z_][a-z0-9_]{0,7}$/).filter((k) => !KNOWN_NAMES.has(k)),
	fc.string({ unit: "grapheme", maxLength: 20 }),
);
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
		// Legal bodies: none, or blank (an empty body asks for the defaults); any other
		// body needs a JSON Content-Type (415), json-body.test.ts covers those.
		body: fc.option(fc.constantFrom("", " ", "\r\n", new Uint8Array(0)), { nil: undefined }),
		junkHeaders: fc.record(
			{ "X-Request-Id": headerValue, Origin: headerValue },
			{ requiredKeys: [] },
		),
	})
	.map((v) => {
		const params: string[] = [];
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
					tally.sent++;
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

describe("valid requests with unknown query parameters (fast-check, fixed seed)", () => {
	it("are 400 invalid_request naming each unknown name", async () => {
		await fc.assert(
			fc.asyncProperty(
				validRequest,
				fc.uniqueArray(unknownParam, { minLength: 1, maxLength: 3, selector: ([k]) => k }),
				async (r, extra) => {
					tally.sent++;
					const query = extra.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
					const path = `${r.path}${r.path.includes("?") ? "&" : "?"}${query}`;
					const response = await direct(path, {
						method: r.method,
						headers: r.headers,
						body: r.body,
					});
					expect(response.status, `${r.method} ${path}`).toBe(400);
					const { error } = (await response.json()) as ErrorBody;
					expect(error.code).toBe("invalid_request");
					for (const [k] of extra) expect(error.message).toContain(JSON.stringify(k));
				},
			),
			{ seed: 0x0dd9a, numRuns: 200, endOnFailure: true },
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
			tally.sent += 2;
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
			const body = (await over.json()) as ErrorBody;
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
				tally.sent++;
				const started = performance.now();
				const response = await call(`${base}${"9".repeat(length)}`, { method: m });
				const text = await response.text();
				expect(response.status).toBe(404);
				expect(text.length).toBeLessThan(300);
				expect(performance.now() - started).toBeLessThan(1_000);
			}
		}
	});

	it("refuses a body not declared JSON at once, however large: POST with 1 MB → 415", async () => {
		tally.sent++;
		const started = performance.now();
		const response = await call("/ulid?count=2", {
			method: "POST",
			body: new Uint8Array(1_048_576),
		});
		expect(response.status).toBe(415);
		expect(((await response.json()) as ErrorBody).error.code).toBe("unsupported_media_type");
		expect(performance.now() - started).toBeLessThan(1_000);
	});

	it("answers huge headers without a 5xx", async () => {
		for (const name of ["Accept", "Authorization", "Origin", "X-Request-Id", "Cookie"]) {
			tally.sent++;
			const response = await call("/ulid", { headers: { [name]: "z".repeat(60_000) } });
			expect(response.status).toBeLessThan(500);
		}
		expect((await call("/health")).status).toBe(200);
	});
});
