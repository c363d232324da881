/** The HTTP client's retries, over a scripted fetch (the client's own logic; no service). */
import { describe, expect, it } from "vitest";
import { IdsError, idsClient, type RetryOptions } from "../../src/client";

type Scripted = { status: number; retryAfter?: string; body?: unknown };

function scriptedFetch(answers: Scripted[]) {
	const calls: string[] = [];
	const fetch = (async (input: RequestInfo | URL) => {
		calls.push(String(input instanceof Request ? input.url : input));
		const next = answers.shift();
		if (!next) throw new Error("the script ran out of answers");
		const headers = new Headers({ "Content-Type": "application/json" });
		if (next.retryAfter !== undefined) headers.set("Retry-After", next.retryAfter);
		const body =
			next.body ??
			(next.status === 200
				? { type: "ulid", ids: ["01ARYZ6S41TSV4RRFFQ69G5FAV"] }
				: {
						error: { code: next.status === 429 ? "rate_limited" : "overloaded", message: "later" },
					});
		return new Response(JSON.stringify(body), { status: next.status, headers });
	}) as typeof globalThis.fetch;
	return { fetch, calls };
}

function clientWith(answers: Scripted[], retry: RetryOptions = {}) {
	const { fetch, calls } = scriptedFetch(answers);
	const waits: number[] = [];
	const client = idsClient({
		baseUrl: "https://ids.test",
		fetch,
		retry: { sleep: async (ms) => void waits.push(ms), ...retry },
	});
	return { client, calls, waits };
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
});
