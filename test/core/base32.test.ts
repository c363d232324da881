import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	CROCKFORD_ALPHABET,
	decodeBits,
	decodeTime,
	describeCharAt,
	digitValue,
	encodeBits,
	encodeTime,
	findInvalidDigit,
	incrementBase32,
	MAX_TIMESTAMP_MS,
} from "../../src/ids/forms/crockford";
import { bigOf, expectIdError, SPEC_ALPHABET, toBase32 } from "./oracle";

describe("digit table", () => {
	it("maps every character code exactly as Crockford specifies", () => {
		const expected = (code: number): number => {
			// Only ASCII is accepted: toUpperCase would map e.g. dotless 'ı' to 'I'.
			if (code > 0x7f) return -1;
			const upper = String.fromCharCode(code).toUpperCase();
			if (upper === "I" || upper === "L") return 1;
			if (upper === "O") return 0;
			return SPEC_ALPHABET.indexOf(upper);
		};
		for (let code = 0; code <= 0xffff; code++) {
			const char = String.fromCharCode(code);
			const want = expected(code);
			if (digitValue(code) !== want) {
				throw new Error(`code ${code} (${char}): got ${digitValue(code)}, want ${want}`);
			}
		}
	});

	it("rejects U in both cases and reads past-the-end as invalid", () => {
		expect(digitValue("U".charCodeAt(0))).toBe(-1);
		expect(digitValue("u".charCodeAt(0))).toBe(-1);
		expect(digitValue("".charCodeAt(0))).toBe(-1); // NaN
		expect(digitValue(0x10000)).toBe(-1);
	});

	it("exports the canonical alphabet", () => {
		expect(CROCKFORD_ALPHABET).toBe(SPEC_ALPHABET);
	});

	it("finds the first invalid character", () => {
		expect(findInvalidDigit("01ARYZ")).toBe(-1);
		expect(findInvalidDigit("01AUYU")).toBe(3);
		expect(findInvalidDigit("")).toBe(-1);
	});

	it("describes characters readably for error messages", () => {
		expect(describeCharAt("aUb", 1)).toBe("'U'");
		expect(describeCharAt("a b", 1)).toBe("U+0020");
		expect(describeCharAt("é", 0)).toBe("U+00E9");
		expect(describeCharAt("x😀", 1)).toBe("U+1F600");
		// The printable ASCII range's two ends, and DEL just past it.
		expect(describeCharAt("!", 0)).toBe("'!'");
		expect(describeCharAt("~", 0)).toBe("'~'");
		expect(describeCharAt("\x7f", 0)).toBe("U+007F");
	});
});

describe("encodeTime / decodeTime", () => {
	it("encodes the spec's example time", () => {
		expect(encodeTime(1469918176385)).toBe("01ARYZ6S41");
		expect(decodeTime("01ARYZ6S41")).toBe(1469918176385);
	});

	it("covers the whole 48-bit range", () => {
		expect(encodeTime(0)).toBe("0000000000");
		expect(encodeTime(MAX_TIMESTAMP_MS)).toBe("7ZZZZZZZZZ");
		expect(decodeTime("7ZZZZZZZZZ")).toBe(281474976710655);
		expect(MAX_TIMESTAMP_MS).toBe(281474976710655);
	});

	it("round-trips every 48-bit time and matches the BigInt oracle", () => {
		fc.assert(
			fc.property(fc.integer({ min: 0, max: MAX_TIMESTAMP_MS }), (ms) => {
				const text = encodeTime(ms);
				expect(text).toBe(toBase32(BigInt(ms), 10));
				expect(decodeTime(text)).toBe(ms);
				expect(decodeTime(text.toLowerCase())).toBe(ms);
			}),
		);
	});

	it("refuses times it cannot represent", () => {
		expectIdError(
			() => encodeTime(MAX_TIMESTAMP_MS + 1),
			"layout_exhausted",
			/^time 281474976710656 ms is beyond the 48-bit timestamp of ULID \(at most 281474976710655 ms, 10889-08-02T05:31:50.655Z\)$/,
		);
		expectIdError(() => encodeTime(Number.POSITIVE_INFINITY), "layout_exhausted");
		for (const broken of [-1, 1.5, Number.NaN]) {
			expectIdError(
				() => encodeTime(broken),
				"internal",
				/clock reading .* is not a whole number of milliseconds since 1970/,
			);
		}
	});

	it("decodes aliases and rejects bad time text", () => {
		expect(decodeTime("OlARYZ6S4I")).toBe(1469918176385);
		expectIdError(() => decodeTime("01ARYZ6S4"), "invalid_id", /10 Crockford.*got 9 characters/);
		expectIdError(() => decodeTime("01ARYZUS41"), "invalid_id", /found 'U' at position 7/);
		expectIdError(() => decodeTime("8000000000"), "invalid_id", /must not exceed 7ZZZZZZZZZ/);
		// The text as given, in the canonical case.
		expectIdError(() => decodeTime("8zzzzzzzzz"), "invalid_id", /; got 8ZZZZZZZZZ$/);
	});
});

describe("encodeBits / decodeBits", () => {
	it("match the BigInt oracle for 80 and 128 bits", () => {
		fc.assert(
			fc.property(fc.uint8Array({ minLength: 10, maxLength: 10 }), (bytes) => {
				const text = encodeBits(bytes, 0);
				expect(text).toBe(toBase32(bigOf(bytes), 16));
				expect(decodeBits(text, 0)).toEqual(bytes);
			}),
		);
		fc.assert(
			fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (bytes) => {
				const text = encodeBits(bytes, 2);
				expect(text).toBe(toBase32(bigOf(bytes), 26));
				expect(decodeBits(text, 2)).toEqual(bytes);
				expect(decodeBits(text.toLowerCase(), 2)).toEqual(bytes);
			}),
		);
	});

	it("refuses to decode non-digits instead of producing garbage", () => {
		expect(() => decodeBits("U000000000000000", 0)).toThrow(
			new RangeError("decodeBits: not a base32 digit at 0"),
		);
	});
});

describe("incrementBase32", () => {
	it("adds one with carry", () => {
		expect(incrementBase32("A1YZZ")).toBe("A1Z00");
		expect(incrementBase32("0")).toBe("1");
		expect(incrementBase32("09")).toBe("0A");
		expect(incrementBase32("0ZZZ")).toBe("1000");
	});

	it("skips the letters Crockford leaves out", () => {
		expect(incrementBase32("H")).toBe("J"); // not I
		expect(incrementBase32("K")).toBe("M"); // not L
		expect(incrementBase32("N")).toBe("P"); // not O
		expect(incrementBase32("T")).toBe("V"); // not U
	});

	it("reports overflow instead of wrapping", () => {
		expect(incrementBase32("Z")).toBeUndefined();
		expect(incrementBase32("ZZZZZZZZZZZZZZZ")).toBeUndefined();
	});

	it("is value + 1 for any 15-digit value below the maximum", () => {
		const max = 32n ** 15n - 1n;
		fc.assert(
			fc.property(fc.bigInt({ min: 0n, max: max - 1n }), (value) => {
				expect(incrementBase32(toBase32(value, 15))).toBe(toBase32(value + 1n, 15));
			}),
		);
	});
});
