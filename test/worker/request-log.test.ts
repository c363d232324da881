/** One JSON log line per request: what it was, how it ended; never a token or an ID. */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { app } from "../../src/worker/app";
import type { RequestLogLine } from "../../src/worker/middleware/request-log";

const TOKEN = "request-log-test-token-abcdef";

async function logged(path: string, init?: RequestInit, vars: Record<string, unknown> = {}) {
	const lines: string[] = [];
	const spy = vi.spyOn(console, "log").mockImplementation((line) => lines.push(String(line)));
	const response = await Promise.resolve(
		app.fetch(
			new Request(`https://ids.test${path}`, init),
			{ ...env, ...vars } as Env,
			createExecutionContext(),
		),
	).finally(() => spy.mockRestore());
	const text = await response.text();
	return { response, text, lines, line: JSON.parse(lines.at(-1) ?? "null") as RequestLogLine };
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

	it("never writes the token, whether accepted or refused", async () => {
		for (const auth of [`Bearer ${TOKEN}`, `Bearer ${TOKEN}x`]) {
			const { lines } = await logged(
				"/uuidv7",
				{ headers: { Authorization: auth } },
				{ API_TOKEN: TOKEN },
			);
			expect(lines).toHaveLength(1);
			expect(lines[0]).not.toContain(TOKEN);
		}
	});

	it("writes nothing with REQUEST_LOG=off", async () => {
		const { response, lines } = await logged("/ulid", undefined, { REQUEST_LOG: "off" });
		expect(response.status).toBe(200);
		expect(lines).toEqual([]);
	});
});
