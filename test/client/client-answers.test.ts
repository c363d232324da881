/**
 * How the HTTP client reads an answer: a JSON object is the result; the service's
 * error body is an `IdsError` with its code, status and `Retry-After` (whole
 * seconds, else undefined); anything else (a proxy's page, JSON that is no object)
 * is an `IdsError` with the status's code and the answer's start quoted.
 */
import { describe, expect, it } from "vitest";
import { IdsError, idsClient } from "../../src/client";

/** A client whose one attempt is answered `status` with `text` and `headers`. */
function answering(status: number, text: string, headers: Record<string, string> = {}) {
	const fetch = (async () => new Response(text, { status, headers })) as typeof globalThis.fetch;
	return idsClient({ baseUrl: "https://ids.test", fetch, retry: { attempts: 1 } });
}

const refusal = (code: string) => JSON.stringify({ error: { code, message: "not now" } });

describe("an error answer", () => {
	it.each([
		["2", 2],
		["0", 0],
		[" 5 ", 5],
		["", undefined],
		["  ", undefined],
		["-1", undefined],
		["soon", undefined],
		["Wed, 21 Oct 2026 07:28:00 GMT", undefined],
	])("reads Retry-After %j as %j", async (header, retryAfter) => {
		const error = await answering(503, refusal("overloaded"), { "Retry-After": header })
			.ulid()
			.catch((thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(IdsError);
		expect(error).toMatchObject({
			code: "overloaded",
			status: 503,
			retryAfter,
			message: "overloaded: not now",
		});
	});

	it("has no retryAfter without the header", async () => {
		await expect(answering(429, refusal("rate_limited")).ulid()).rejects.toMatchObject({
			code: "rate_limited",
			retryAfter: undefined,
		});
	});
});

describe("an answer that is not the service's JSON", () => {
	it.each([
		[401, "unauthorized"],
		[404, "not_found"],
		[405, "method_not_allowed"],
		[429, "rate_limited"],
		[502, "unavailable"],
		[503, "unavailable"],
		[504, "unavailable"],
		[500, "internal"],
		[418, "internal"],
	])("%i is %s, the page's start quoted", async (status, code) => {
		const page = `<html>${"x".repeat(200)}</html>`;
		await expect(answering(status, page).ulid()).rejects.toMatchObject({
			code,
			status,
			message: `${code}: answer ${status} is not the service's JSON: ${JSON.stringify(page.slice(0, 100))}`,
		});
	});

	it("an error body without a string code or message is not the service's", async () => {
		const body = JSON.stringify({ error: { code: 7, message: "m" } });
		await expect(answering(400, body).ulid()).rejects.toMatchObject({
			code: "internal",
			message: `internal: answer 400 is not the service's JSON: ${JSON.stringify(body)}`,
		});
		const noMessage = JSON.stringify({ error: { code: "invalid_count" } });
		await expect(answering(400, noMessage).ulid()).rejects.toMatchObject({ code: "internal" });
	});

	it("a 200 whose JSON is no object is refused, not returned", async () => {
		for (const text of ["null", "3", '"ids"']) {
			await expect(answering(200, text).ulid()).rejects.toMatchObject({
				code: "internal",
				status: 200,
				message: `internal: answer 200 is not the service's JSON: ${JSON.stringify(text)}`,
			});
		}
	});

	it("a 204 resolves with nothing", async () => {
		const fetch = (async () => new Response(null, { status: 204 })) as typeof globalThis.fetch;
		const client = idsClient({ fetch, retry: { attempts: 1 } });
		expect(await client.health()).toBeUndefined();
	});
});

describe("a custom fetch's own cancellation", () => {
	it.each([
		["TimeoutError", "timeout"],
		["AbortError", "aborted"],
	])("%s is %s, the fetch's message kept", async (name, code) => {
		const cancelled = new DOMException("gave up", name);
		const fetch = (async () => {
			throw cancelled;
		}) as typeof globalThis.fetch;
		const client = idsClient({ fetch, retry: { attempts: 1 } });
		const error = await client.ulid().catch((thrown: unknown) => thrown);
		expect(error).toMatchObject({
			code,
			message: `${code}: the fetch was cancelled (gave up)`,
			cause: cancelled,
		});
	});
});
