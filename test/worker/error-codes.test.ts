/**
 * No code without a status: every error code the service's sources can raise maps to
 * a 4xx or 5xx in STATUS_OF, and an error whose code has none answers 500 `internal`,
 * never a 200 with an error body. The codes are read from the sources themselves (the
 * code unions and every refusal site), so a new code cannot slip past a list kept by hand.
 */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { IdError } from "../../src/ids/errors";
import { type ErrorBody, STATUS_OF } from "../../src/wire";
import { errorResponse } from "../../src/worker/errors";
import { captureErrorLog } from "./helpers";

declare global {
	interface ImportMeta {
		/** Vite's: the files a pattern matches, here their text (`?raw`), read when the test is built. */
		glob<T>(
			patterns: string[],
			options: { query: "?raw"; import: "default"; eager: true },
		): Record<string, T>;
	}
}

/** The service's sources: the Worker, the core it runs and the wire format (not the client's own). */
const sources = import.meta.glob<string>(
	["../../src/ids/**/*.ts", "../../src/worker/**/*.ts", "../../src/wire/**/*.ts"],
	{ query: "?raw", import: "default", eager: true },
);
/** Holder processes run the lease holder, never the service. */
const serviceSources = Object.entries(sources).filter(
	([path]) => !path.includes("/leases/holder/"),
);

/** `"code"` members of every `…Code = | "a" | "b"` union type. */
function unionCodes(text: string): string[] {
	const codes: string[] = [];
	for (const union of text.matchAll(/type \w*Code\w* =([^;]*);/g)) {
		const body = (union[1] ?? "").replace(/\/\*\*[\s\S]*?\*\//g, "");
		for (const member of body.matchAll(/\|\s*"([a-z_]+)"/g)) codes.push(member[1] as string);
	}
	return codes;
}

/** The first, literal argument of every error or refusal made: `new IdError("x", …)`, `serviceError("x", …)`, `refuse("x", …)`, `refused("x", …)`. */
function raisedCodes(text: string): string[] {
	const site =
		/\b(?:new\s+\w*(?:Error|Refusal)|serviceError|refuse\w*)(?:<[^>()]*>)?\(\s*"([a-z_]+)"/g;
	return [...text.matchAll(site)].map((match) => match[1] as string);
}

/** Codes a contract's field refuses with: `field.…("code", …)`. */
function fieldCodes(text: string): string[] {
	return [...text.matchAll(/\bfield\.\w+\(\s*"([a-z_]+)"/g)].map((match) => match[1] as string);
}

const everyCode = new Map<string, string>();
for (const [path, text] of serviceSources) {
	for (const code of [...unionCodes(text), ...raisedCodes(text), ...fieldCodes(text)]) {
		if (!everyCode.has(code)) everyCode.set(code, path);
	}
}

describe("every error code has a status", () => {
	it("finds the codes the sources raise (the scan itself works)", () => {
		for (const known of ["invalid_count", "buffer_closed", "lease_lost", "invalid_config"]) {
			expect([...everyCode.keys()]).toContain(known);
		}
		expect(everyCode.size).toBeGreaterThanOrEqual(30);
	});

	it("maps each code the service can produce to a 4xx or 5xx", () => {
		const statusOf = (code: string) => (STATUS_OF as Record<string, number | undefined>)[code] ?? 0;
		const without = [...everyCode]
			.filter(([code]) => !(statusOf(code) >= 400 && statusOf(code) < 600))
			.map(([code, path]) => `${code} (${path})`);
		expect(without).toEqual([]);
	});

	it("answers a code without a status as 500 internal, never 200", async () => {
		const app = new Hono().get("/", () => {
			throw new IdError<string>("no_such_code", "made up");
		});
		app.onError((error, c) => errorResponse(c, error));
		const [response, logged] = await captureErrorLog(() => app.request("/"));
		expect(logged).toHaveLength(1); // logged as any internal error is
		expect(response.status).toBe(500);
		expect(((await response.json()) as ErrorBody).error.code).toBe("internal");
	});
});
