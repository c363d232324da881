/** One JSON log line per RPC call, like an HTTP request's: method, status, what was asked; never an ID. */
import { createExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { idErrorCode, idRequestId, idRetryAfter } from "../../src/client";
import { IdService } from "../../src/worker/rpc/id-service";
import { envWith } from "../shared/fetch-app";

afterEach(() => vi.restoreAllMocks());

/** Runs `call` on an IdService over `vars` with console.log captured; the lines it wrote. */
async function logged<T>(
	call: (service: IdService) => Promise<T>,
	vars: Record<string, unknown> = {},
): Promise<{ result: T | Error; lines: Record<string, unknown>[]; raw: string[] }> {
	const raw: string[] = [];
	const spy = vi.spyOn(console, "log").mockImplementation((line) => raw.push(String(line)));
	const service = new IdService(createExecutionContext(), envWith(vars));
	const result = await call(service)
		.catch((error: Error) => error)
		.finally(() => spy.mockRestore());
	return { result, raw, lines: raw.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe("RPC log lines", () => {
	it("writes one line for an explicit snowflake call, without its IDs", async () => {
		const { result, lines, raw } = await logged((s) => s.snowflake({ workerId: 41, count: 3 }));
		expect(lines).toEqual([
			{
				rpc: "snowflake",
				requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
				status: 200,
				kind: "snowflake",
				workerId: 41,
				count: 3,
				source: "direct",
				durationMs: expect.any(Number),
			},
		]);
		if (result instanceof Error) throw result;
		for (const id of result.ids) expect(raw[0]).not.toContain(id);
	});

	it("says pool for an auto call and names the worker ID used", async () => {
		const { result, lines } = await logged((s) => s.snowflake({ count: 2 }));
		if (result instanceof Error) throw result;
		expect(lines).toEqual([
			expect.objectContaining({
				rpc: "snowflake",
				status: 200,
				source: "pool",
				workerId: result.workerId,
				count: 2,
			}),
		]);
	});

	it("names the code and the HTTP status of a refusal", async () => {
		const { result, lines } = await logged((s) => s.ulid({ count: 0 }));
		expect(result).toBeInstanceOf(Error);
		expect(lines).toEqual([
			{
				rpc: "ulid",
				requestId: expect.any(String),
				status: 400,
				kind: "ulid",
				count: 0,
				durationMs: expect.any(Number),
				error: "invalid_count",
			},
		]);
	});

	it("gives each call its own request ID, and ends a refusal's message with it", async () => {
		const first = await logged((s) => s.ulid({ count: 0 }));
		const second = await logged((s) => s.ulid({ count: 1 }));
		const [refused, answered] = [first.lines[0]?.requestId, second.lines[0]?.requestId];
		expect(refused).not.toBe(answered);
		const message = (first.result as Error).message;
		expect(message).toBe(`${message.split(" (request ")[0]} (request ${refused})`);
		expect(idErrorCode(first.result)).toBe("invalid_count");
		expect(idRequestId(first.result)).toBe(refused);
	});

	it("puts the request ID before a retryable refusal's retry time", async () => {
		// A worker ID's object that cannot be reached: 503 unavailable, retryable.
		const down = { issue: () => Promise.reject(new Error("object down")) };
		const SNOWFLAKE = { idFromName: (name: string) => name, get: () => down };
		const { result, lines } = await logged((s) => s.snowflake({ workerId: 3 }), { SNOWFLAKE });
		const requestId = lines[0]?.requestId as string;
		expect((result as Error).message).toMatch(
			new RegExp(`^unavailable: .* \\(request ${requestId}\\) \\(retry after [0-9]+ s\\)$`),
		);
		expect(idRequestId(result)).toBe(requestId);
		expect(idRetryAfter(result)).toBeGreaterThan(0);
	});

	it("logs an invalid_config even with REQUEST_LOG unreadable, and nothing with REQUEST_LOG=off", async () => {
		const broken = await logged((s) => s.layout(), { SNOWFLAKE_TIME_BITS: "40" });
		expect(broken.lines).toEqual([
			expect.objectContaining({ rpc: "layout", status: 500, error: "invalid_config" }),
		]);
		const off = await logged((s) => s.uuidv7({ count: 2 }), { REQUEST_LOG: "off" });
		expect(off.lines).toEqual([]);
	});
});
