/** One JSON log line per request: what it was, how it ended; never a token or an ID. */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { configFrom } from "../../src/worker/config/config";
import type { RequestLogLine } from "../../src/worker/http/middleware/request-log";
import type { IssueResult } from "../../src/worker/object/object-protocol";
import { envWith, fetchApp } from "../shared/fetch-app";

const TOKEN = "request-log-test-token-abcdef";
const FAR_AWAY = { "CF-Connecting-IP": "203.0.113.9" };

afterEach(() => vi.restoreAllMocks());

/** Every ID an answer carries: `ids`, or the `first` of each block. */
function idsIn(text: string): string[] {
	try {
		const body = JSON.parse(text) as { ids?: string[]; blocks?: { first: string }[] };
		return [...(body.ids ?? []), ...(body.blocks ?? []).map((block) => block.first)];
	} catch {
		return text.split("\n").filter(Boolean); // text/plain: one ID a line
	}
}

/** Sends a request with console.log captured; checks that no line has the token or an ID. */
async function logged(path: string, init?: RequestInit, vars: Record<string, unknown> = {}) {
	const lines: string[] = [];
	const spy = vi.spyOn(console, "log").mockImplementation((line) => lines.push(String(line)));
	const response = await fetchApp(path, init, envWith(vars)).finally(() => spy.mockRestore());
	const text = await response.text();
	for (const line of lines) {
		expect(line).not.toContain(TOKEN);
		for (const id of idsIn(text)) expect(line).not.toContain(id);
	}
	return { response, text, lines, line: JSON.parse(lines.at(-1) ?? "null") as RequestLogLine };
}

/**
 * A stand-in SNOWFLAKE namespace (as in do-errors.test.ts): its object answers
 * `issue` with fresh runs of the count asked, or rejects as `fail` says; `asked`
 * lists the counts each call asked for (a pool refill asks for its block size).
 */
function fakeObjects(fail?: { overloaded?: boolean }, failFirstCall = false) {
	const { layout } = configFrom(env);
	const asked: number[] = [];
	const reject = () => Promise.reject(Object.assign(new Error("object down"), fail));
	const stub = {
		issue: (_workerId: number, count: number): Promise<IssueResult> => {
			asked.push(count);
			if (fail || (failFirstCall && asked.length === 1)) return reject();
			const tick = layout.tickOf(Date.now());
			return Promise.resolve({
				ok: true,
				runs: [{ tick, firstSequence: 0, count }],
				layout: layout.fingerprint(),
			});
		},
		stats: reject,
	};
	return { SNOWFLAKE: { idFromName: (name: string) => name, get: () => stub }, asked };
}

describe("request log", () => {
	it("writes one line for a Snowflake request: route, status, kind, worker ID, count", async () => {
		const { response, text, lines, line } = await logged("/snowflake/812?count=3");
		expect(lines).toHaveLength(1);
		expect(line).toMatchObject({
			requestId: response.headers.get("X-Request-Id"),
			method: "GET",
			route: "/snowflake/:workerId",
			status: 200,
			kind: "snowflake",
			workerId: 812,
			count: 3,
		});
		expect(line.durationMs).toBeGreaterThanOrEqual(0);
		for (const id of (JSON.parse(text) as { ids: string[] }).ids) {
			expect(lines[0]).not.toContain(id);
		}
	});

	it("names the error code of a refused request", async () => {
		const { line } = await logged("/ulid?count=0", { method: "POST" });
		expect(line).toMatchObject({
			method: "POST",
			route: "/ulid",
			status: 400,
			error: "invalid_count",
		});
	});

	it("has no route for an unknown path", async () => {
		const { line } = await logged("/nope");
		expect(line).toMatchObject({ route: null, status: 404, error: "not_found" });
	});

	it("never writes a token, whether accepted or refused, current or next", async () => {
		const next = `${TOKEN}-next`;
		for (const auth of [`Bearer ${TOKEN}`, `Bearer ${TOKEN}x`, `bearer  ${next}`]) {
			const { lines } = await logged(
				"/uuidv7",
				{ headers: { Authorization: auth } },
				{ API_TOKEN: TOKEN, API_TOKEN_NEXT: next },
			);
			expect(lines).toHaveLength(1);
			expect(lines[0]).not.toContain(TOKEN);
		}
	});

	it("names which configured token authorized the request: current or next", async () => {
		const next = `${TOKEN}-next`;
		const tokens = { API_TOKEN: TOKEN, API_TOKEN_NEXT: next };
		const sent = async (path: string, token?: string) =>
			(await logged(path, { headers: token ? { Authorization: `Bearer ${token}` } : {} }, tokens))
				.line;
		expect(await sent("/ulid", TOKEN)).toMatchObject({ status: 200, token: "current" });
		expect(await sent("/ulid", next)).toMatchObject({ status: 200, token: "next" });
		// Refused, public, or no token configured: no token field.
		expect(await sent("/ulid", `${TOKEN}x`)).not.toHaveProperty("token");
		expect(await sent("/health", TOKEN)).not.toHaveProperty("token");
		const open = await logged("/ulid", { headers: { Authorization: `Bearer ${TOKEN}` } });
		expect(open.line).not.toHaveProperty("token");
	});

	it("writes nothing with REQUEST_LOG=off", async () => {
		const { response, lines } = await logged("/ulid", undefined, { REQUEST_LOG: "off" });
		expect(response.status).toBe(200);
		expect(lines).toEqual([]);
	});

	it("writes the line of a request refused by the rate limiter (429)", async () => {
		vi.spyOn(env.RATE_LIMITER, "limit").mockResolvedValue({ success: false });
		const headers = { ...FAR_AWAY, Authorization: `Bearer ${TOKEN}` };
		const { lines, line } = await logged("/snowflake/5?count=2", { headers }, { API_TOKEN: TOKEN });
		expect(lines).toHaveLength(1);
		expect(line).toMatchObject({
			route: "/snowflake/:workerId",
			status: 429,
			error: "rate_limited",
		});
	});

	it("writes the line of an invalid_config answer, even when REQUEST_LOG itself is bad", async () => {
		for (const vars of [{ RATE_LIMIT_PERIOD: "30" }, { REQUEST_LOG: "maybe" }]) {
			const { response, lines, line } = await logged("/ulid", undefined, vars);
			expect(response.status).toBe(500);
			expect(lines).toHaveLength(1);
			expect(line).toMatchObject({ route: "/ulid", status: 500, error: "invalid_config" });
		}
	});

	it("names the worker ID, count and kind of a failed object call (503)", async () => {
		const objects = fakeObjects({ overloaded: true });
		const cases = [
			["/snowflake/7?count=4", { kind: "snowflake", count: 4, source: "direct" }],
			["/snowflake/7/blocks?count=100", { kind: "snowflake-blocks", count: 100, source: "direct" }],
			["/snowflake/7/stats", { kind: "snowflake-stats" }],
		] as const;
		for (const [path, fields] of cases) {
			const { line } = await logged(path, undefined, objects);
			expect(line).toMatchObject({ status: 503, error: "overloaded", workerId: 7, ...fields });
		}
	});

	it("says pool only when the pool served the request, direct when the object was asked", async () => {
		const cases = [
			// [vars, path, count, source, what the object was asked for]
			// Auto pools are the isolate's, found by their settings: each case's own settings
			// give it a pool of its own, whose calls reach this case's objects.
			[{ POOL_MAX_SIZE: "4095" }, "/snowflake?count=3", 3, "pool", 16], // a refill of the first block size
			[{ POOL_MAX_SIZE: "8" }, "/snowflake?count=3", 3, "pool", 8],
			[{ POOL_MAX_SIZE: "7" }, "/snowflake?count=9", 9, "direct", 9], // above the pool's size
			[{ POOL_MAX_AGE_MS: "0" }, "/snowflake?count=3", 3, "direct", 3], // pools off
			[{}, "/snowflake/3", 1, "direct", 1], // a named worker ID
		] as const;
		for (const [vars, path, count, source, asked] of cases) {
			const objects = fakeObjects();
			const { response, text, line } = await logged(path, undefined, { ...objects, ...vars });
			expect(response.status).toBe(200);
			expect(objects.asked).toEqual([asked]);
			const { workerId } = JSON.parse(text) as { workerId: number };
			expect(line).toMatchObject({ kind: "snowflake", count, workerId, source });
		}
		// The pool's refill fails, so the pool goes straight to an object: direct.
		const flaky = { ...fakeObjects(undefined, true), POOL_MAX_SIZE: "4094" };
		const { response, line } = await logged("/snowflake?count=3", undefined, flaky);
		expect(response.status).toBe(200);
		expect(flaky.asked).toEqual([16, 3]);
		expect(line).toMatchObject({ kind: "snowflake", count: 3, source: "direct" });
	});

	it("writes blocks and stats lines with their kind, worker ID and count", async () => {
		const auto = await logged("/snowflake/blocks?count=1000");
		expect(auto.response.status).toBe(200);
		expect(auto.line).toMatchObject({
			route: "/snowflake/blocks",
			kind: "snowflake-blocks",
			workerId: (JSON.parse(auto.text) as { workerId: number }).workerId,
			count: 1000,
			source: "direct",
		});
		const named = await logged("/snowflake/9/blocks", {
			method: "POST",
			headers: { "Content-Type": "application/json" },
			body: JSON.stringify({ count: 50 }),
		});
		expect(named.line).toMatchObject({
			method: "POST",
			route: "/snowflake/:workerId/blocks",
			status: 200,
			kind: "snowflake-blocks",
			workerId: 9,
			count: 50,
			source: "direct",
		});
		const stats = await logged("/snowflake/9/stats");
		expect(stats.line).toMatchObject({
			route: "/snowflake/:workerId/stats",
			status: 200,
			kind: "snowflake-stats",
			workerId: 9,
		});
		expect(stats.line).not.toHaveProperty("count");
	});
});
