import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkCount, IdError, invalidCount } from "../../src/ids/errors";

describe("checkCount: the one count check", () => {
	const rule = { min: 1, max: 10_000 };

	it("returns every integer in the range", () => {
		fc.assert(fc.property(fc.integer({ min: 1, max: 10_000 }), (n) => checkCount(n, rule) === n));
	});

	it("takes both ends of the range, and says nothing more than the range without a spelling", () => {
		expect(checkCount(1, rule)).toBe(1);
		expect(checkCount(10_000, rule)).toBe(10_000);
		expect(invalidCount(rule, 0).detail).toBe("count must be an integer in [1, 10000]; got 0");
	});

	it.each([0, 10_001, -1, 1.5, Number.NaN, "5", undefined, null, 2n])(
		"refuses %s with invalid_count",
		(value) => {
			expect(() => checkCount(value, rule)).toThrow(IdError);
			expect(() => checkCount(value, rule)).toThrow(
				/^invalid_count: count must be an integer in \[1, 10000\]/,
			);
		},
	);

	it("says how a count is written when the rule says so, and quotes strings", () => {
		const error = invalidCount({ ...rule, spelling: "written once in decimal digits" }, "5");
		expect(error.code).toBe("invalid_count");
		expect(error.detail).toBe(
			'count must be an integer in [1, 10000], written once in decimal digits; got "5"',
		);
	});
});

describe("IdError codes", () => {
	it("takes only the core's codes unless a wider union is named", () => {
		// @ts-expect-error: `not_found` is the service's code, not the core's
		const wrong = new IdError("not_found", "the core cannot raise this");
		const wider = new IdError<"not_found">("not_found", "the service can");
		expect([wrong.code, wider.code]).toEqual(["not_found", "not_found"]);
		expect(wider.message).toBe("not_found: the service can");
	});
});
