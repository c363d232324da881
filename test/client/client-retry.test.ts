/** The HTTP client's retries, over a scripted fetch (the client's own logic; no service). */
import { describe, expect, it } from "vitest";
import { IdsError, idsClient, type RetryOptions } from "../../src/client";

type Scripted =
	| { status: number; retryAfter?: string; body?: unknown; html?: string }
	| { reject: Error };

/** A fetch answering `answers` in turn; records the URLs and which answers' bodies were cancelled. */
function scriptedFetch(answers: Scripted[]) {
	const calls: string[] = [];
	const cancelled: number[] = [];
	const fetch = (async (input: RequestInfo | URL) => {
		const index = calls.push(String(input instanceof Request ? input.url : input)) - 1;
		const next = answers.shift();
		if (!next) throw new Error("the script ran out of answers");
		if ("reject" in next) throw next.reject;
		const headers = new Headers({
			"Content-Type": next.html === undefined ? "application/json" : "text/html",
		});
		if (next.retryAfter !== undefined) headers.set("Retry-After", next.retryAfter);
		const body =
			next.body ??
			(next.status === 200
				? { type: "ulid", ids: ["01ARYZ6S41TSV4RRFFQ69G5FAV"] }
				: {
						error: { code: next.status === 429 ? "rate_limited" : "overloaded", message: "later" },
					});
		const text = next.html ?? JSON.stringify(body);
		const stream = new ReadableStream<Uint8Array>({
			start(controller) {
				controller.enqueue(new TextEncoder().encode(text));
				controller.close();
			},
			cancel() {
				cancelled.push(index);
			},
		});
		return new Response(stream, { status: next.status, headers });
	}) as typeof globalThis.fetch;
	return { fetch, calls, cancelled };
}

function clientWith(answers: Scripted[], retry: RetryOptions = {}) {
	const { fetch, calls, cancelled } = scriptedFetch(answers);
	const waits: number[] = [];
	const client = idsClient({
		baseUrl: "https://ids.test",
		fetch,
		retry: { sleep: async (ms) => void waits.push(ms), ...retry },
	});
	return { client, calls, waits, cancelled };
}

describe("client retries", () => {
	it("retries 503 and 429 after their Retry-After, then answers", async () => {
		const { client, calls, waits } = clientWith([
			{ status: 503, retryAfter: "1" },
			{ status: 429, retryAfter: "2" },
			{ status: 200 },
		]);
		expect((await client.ulid()).ids).toEqual(["01ARYZ6S41TSV4RRFFQ69G5FAV"]);
		expect(calls).toHaveLength(3);
		expect(waits).toEqual([1000, 2000]);
	});

	it("backs off exponentially when there is no Retry-After", async () => {
		const { client, waits } = clientWith(
			[{ status: 503 }, { status: 503 }, { status: 503 }, { status: 200 }],
			{ attempts: 4, baseDelayMs: 100 },
		);
		await client.ulid();
		expect(waits).toEqual([100, 200, 400]);
	});

	it("gives up after the attempts with the service's error", async () => {
		const { client, calls } = clientWith([
			{ status: 503, retryAfter: "1" },
			{ status: 503, retryAfter: "1" },
			{ status: 503, retryAfter: "1" },
		]);
		const error = await client.ulid().catch((thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(IdsError);
		expect(error).toMatchObject({ code: "overloaded", status: 503, retryAfter: 1 });
		expect(calls).toHaveLength(3);
	});

	it("does not wait longer than maxDelayMs: a longer Retry-After is answered at once", async () => {
		const { client, calls, waits } = clientWith([{ status: 429, retryAfter: "60" }], {
			maxDelayMs: 5_000,
		});
		await expect(client.ulid()).rejects.toMatchObject({ code: "rate_limited", retryAfter: 60 });
		expect(calls).toHaveLength(1);
		expect(waits).toEqual([]);
	});

	it("never retries a 4xx other than 429", async () => {
		const { client, calls } = clientWith([
			{ status: 400, body: { error: { code: "invalid_count", message: "count must be …" } } },
		]);
		await expect(client.ulid({ count: 0 })).rejects.toMatchObject({ code: "invalid_count" });
		expect(calls).toHaveLength(1);
	});

	it("attempts: 1 turns retries off", async () => {
		const { client, calls } = clientWith([{ status: 503, retryAfter: "1" }], { attempts: 1 });
		await expect(client.ulid()).rejects.toMatchObject({ code: "overloaded" });
		expect(calls).toHaveLength(1);
	});

	it("cancels the body of every answer it retries, not of the one it returns", async () => {
		const { client, cancelled } = clientWith([
			{ status: 503, retryAfter: "1" },
			{ status: 429, retryAfter: "1" },
			{ status: 200 },
		]);
		await client.ulid();
		expect(cancelled).toEqual([0, 1]);
	});

	it("retries a gateway's 502 and 504, bounded by the attempts", async () => {
		const { client, calls, waits } = clientWith(
			[{ status: 502, html: "<h1>Bad gateway</h1>" }, { status: 504 }, { status: 200 }],
			{ baseDelayMs: 100 },
		);
		expect((await client.ulid()).ids).toHaveLength(1);
		expect(calls).toHaveLength(3);
		expect(waits).toEqual([100, 200]);
		const gaveUp = clientWith([{ status: 504 }, { status: 504 }, { status: 504 }, { status: 200 }]);
		await expect(gaveUp.client.ulid()).rejects.toMatchObject({ status: 504 });
		expect(gaveUp.calls).toHaveLength(3);
	});

	it("retries a network failure after the backoff, and throws the last one when attempts run out", async () => {
		const failure = new TypeError("fetch failed");
		const { client, calls, waits } = clientWith(
			[{ reject: failure }, { reject: failure }, { status: 200 }],
			{ baseDelayMs: 100 },
		);
		expect((await client.ulid()).ids).toHaveLength(1);
		expect(calls).toHaveLength(3);
		expect(waits).toEqual([100, 200]);
		const down = clientWith([{ reject: failure }, { reject: failure }, { reject: failure }]);
		const error = await down.client.ulid().catch((thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(IdsError);
		expect(error).toMatchObject({ code: "network_error", status: undefined, cause: failure });
		expect((error as Error).message).toMatch(/^network_error: .*fetch failed/);
		expect(down.calls).toHaveLength(3);
	});

	it("does not retry a custom fetch's own abort, and names it", async () => {
		const abort = new DOMException("aborted", "AbortError");
		const { client, calls } = clientWith([{ reject: abort }, { status: 200 }]);
		await expect(client.ulid()).rejects.toMatchObject({ code: "aborted", cause: abort });
		expect(calls).toHaveLength(1);
		const late = new DOMException("signal timed out", "TimeoutError");
		const timedOut = clientWith([{ reject: late }, { status: 200 }]);
		await expect(timedOut.client.ulid()).rejects.toMatchObject({ code: "timeout", cause: late });
		expect(timedOut.calls).toHaveLength(1);
	});

	it.each([
		[429, "rate_limited"],
		[502, "unavailable"],
		[503, "unavailable"],
		[504, "unavailable"],
		[500, "internal"],
		[401, "unauthorized"],
		[404, "not_found"],
		[200, "internal"],
	] as const)("a non-JSON answer %i throws IdsError %s, not SyntaxError", async (status, code) => {
		const { client } = clientWith([{ status, retryAfter: "7", html: "<html>Error</html>" }], {
			attempts: 1,
		});
		const error = await client.ulid().catch((thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(IdsError);
		expect(error).toMatchObject({ code, status, retryAfter: 7 });
		expect((error as Error).message).toContain("<html>Error</html>");
	});

	it("a JSON answer that is not the service's error takes its code from the status", async () => {
		const { client } = clientWith([{ status: 503, body: { message: "no healthy upstream" } }], {
			attempts: 1,
		});
		await expect(client.ulid()).rejects.toMatchObject({ code: "unavailable", status: 503 });
	});

	it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
		"refuses attempts %s at once (IdsError invalid_config), instead of looping",
		(attempts) => {
			expect(() => idsClient({ retry: { attempts } })).toThrow(IdsError);
			expect(() => idsClient({ retry: { attempts } })).toThrow(
				/^invalid_config: retry.attempts must be a positive integer/,
			);
		},
	);

	it.each([
		{ maxDelayMs: Number.NaN },
		{ baseDelayMs: -1 },
		{ baseDelayMs: Number.POSITIVE_INFINITY },
	])("refuses delays %o", (retry) => {
		expect(() => idsClient({ retry })).toThrow(
			/^invalid_config: retry\.\w+ must be a finite number/,
		);
	});
});
