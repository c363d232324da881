/**
 * A failed call names the service's request ID, so a caller can point at the
 * service's log line: `IdsError.requestId` from the answer's `X-Request-Id`, and
 * `idRequestId` for both clients (the RPC rejection's `(request …)`).
 */
import { describe, expect, it } from "vitest";
import { IdsError, idErrorCode, idRequestId, idRetryAfter, idsClient } from "../../src/client";

const REQUEST_ID = "5f0c2a44-9d1e-4a7b-8f36-0b7e1c2d3e4f";

/** A client whose every fetch answers `status` with `body` and `headers`. */
function answering(status: number, body: string, headers: Record<string, string>) {
	const fetch = (async () => new Response(body, { status, headers })) as typeof globalThis.fetch;
	return idsClient({ baseUrl: "https://ids.test", fetch, retry: { attempts: 1 } });
}

const refusal = JSON.stringify({ error: { code: "invalid_count", message: "count must be …" } });

describe("IdsError.requestId", () => {
	it("is the X-Request-Id of the service's error answer", async () => {
		const client = answering(400, refusal, { "X-Request-Id": REQUEST_ID });
		const error = await client.ulid({ count: 0 }).catch((thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(IdsError);
		expect(error).toMatchObject({ code: "invalid_count", status: 400, requestId: REQUEST_ID });
		expect(idRequestId(error)).toBe(REQUEST_ID);
		// The message stays `code: detail`.
		expect((error as IdsError).message).toBe("invalid_count: count must be …");
	});

	it("is kept for an answer that is not the service's JSON, when it has one", async () => {
		const page = answering(502, "<html>bad gateway</html>", { "X-Request-Id": REQUEST_ID });
		await expect(page.ulid()).rejects.toMatchObject({ code: "unavailable", requestId: REQUEST_ID });
		const bare = answering(502, "<html>bad gateway</html>", {});
		const error = await bare.ulid().catch((thrown: unknown) => thrown);
		expect(error).toMatchObject({ code: "unavailable", requestId: undefined });
		expect(idRequestId(error)).toBeUndefined();
	});

	it("is undefined when no answer came", async () => {
		const fetch = (async () => {
			throw new TypeError("fetch failed");
		}) as typeof globalThis.fetch;
		const client = idsClient({ baseUrl: "https://ids.test", fetch, retry: { attempts: 1 } });
		const error = await client.ulid().catch((thrown: unknown) => thrown);
		expect(error).toMatchObject({ code: "network_error", requestId: undefined });
	});
});

describe("idRequestId on an RPC rejection's message", () => {
	it("reads the request ID, before or without a retry time, and keeps code and retry readable", () => {
		const plain = new Error(`invalid_count: count must be … (request ${REQUEST_ID})`);
		expect([idErrorCode(plain), idRequestId(plain), idRetryAfter(plain)]).toEqual([
			"invalid_count",
			REQUEST_ID,
			undefined,
		]);
		const retryable = new Error(`overloaded: busy (request ${REQUEST_ID}) (retry after 2 s)`);
		expect([idErrorCode(retryable), idRequestId(retryable), idRetryAfter(retryable)]).toEqual([
			"overloaded",
			REQUEST_ID,
			2,
		]);
	});

	it("is undefined for a message without one (an older service) and for non-errors", () => {
		expect(idRequestId(new Error("overloaded: busy (retry after 1 s)"))).toBeUndefined();
		expect(idRequestId("invalid_count: (request x)")).toBeUndefined();
		expect(idRequestId(undefined)).toBeUndefined();
	});
});
