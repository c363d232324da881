/**
 * `idErrorCode`, `idRetryAfter` and `idRequestId` read an `IdsError`'s fields, and
 * a plain Error's message only where the RPC client puts them: the code at the
 * start, the request ID and the retry time at the end; anything else is undefined.
 */
import { describe, expect, it } from "vitest";
import { IdsError, idErrorCode, idRequestId, idRetryAfter } from "../../src/client";

describe("IdsError", () => {
	it("is named IdsError, its message `code: detail`", () => {
		const error = new IdsError("overloaded", "busy", 503, 4, { requestId: "r-1" });
		expect([error.name, error.message, String(error)]).toEqual([
			"IdsError",
			"overloaded: busy",
			"IdsError: overloaded: busy",
		]);
		expect([idErrorCode(error), idRetryAfter(error), idRequestId(error)]).toEqual([
			"overloaded",
			4,
			"r-1",
		]);
	});

	it("its fields are read, not its message", () => {
		const error = new IdsError("overloaded", "busy (request r-9) (retry after 9 s)", 503, 2);
		expect([idRetryAfter(error), idRequestId(error)]).toEqual([2, undefined]);
	});
});

describe("a plain Error's message", () => {
	it("gives the code only at its start", () => {
		expect(idErrorCode(new Error("invalid_count: count must be …"))).toBe("invalid_count");
		expect(idErrorCode(new Error("Failed invalid_count: count must be …"))).toBeUndefined();
		expect(idErrorCode(new Error("no code here"))).toBeUndefined();
	});

	it("gives the retry time and the request ID only at its end, of any length", () => {
		const error = new Error("overloaded: busy (request ab-12) (retry after 120 s)");
		expect([idRetryAfter(error), idRequestId(error)]).toEqual([120, "ab-12"]);
		const middle = new Error("overloaded: busy (request ab-12) (retry after 12 s) then more");
		expect([idRetryAfter(middle), idRequestId(middle)]).toEqual([undefined, undefined]);
		const requestFirst = new Error("overloaded: (request ab-12) busy");
		expect(idRequestId(requestFirst)).toBeUndefined();
	});

	it("is read only from Errors: a string or nothing gives undefined", () => {
		for (const value of ["invalid_count: x (request r-1) (retry after 2 s)", undefined, null, 7]) {
			expect([idErrorCode(value), idRetryAfter(value), idRequestId(value)]).toEqual([
				undefined,
				undefined,
				undefined,
			]);
		}
	});
});
