/**
 * Crockford base32 as ULID uses it, and the 48-bit millisecond timestamp that ULID
 * and UUIDv7 share. Pure functions, no state.
 */
import { finiteReading } from "../clock";
import { IdError } from "../errors";

export const CROCKFORD_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** The largest 48-bit millisecond timestamp: 10889-08-02T05:31:50.655Z. */
export const MAX_TIMESTAMP_MS = 2 ** 48 - 1;

/** A 48-bit time takes 10 base32 characters (50 bits, the top 2 always zero). */
export const TIME_CHARS = 10;

/** What a Crockford digit may be, for error messages. */
export const CROCKFORD_ALLOWED =
	"Crockford base32 characters (0-9 and A-Z except U, any case; I and L read as 1, O as 0)";

/** Character code → digit value, -1 for a character that is not a Crockford digit. */
const DIGIT_VALUES = buildDigitValues();

function buildDigitValues(): Int8Array {
	const table = new Int8Array(256).fill(-1);
	const lower = CROCKFORD_ALPHABET.toLowerCase();
	for (let value = 0; value < 32; value++) {
		table[CROCKFORD_ALPHABET.charCodeAt(value)] = value;
		table[lower.charCodeAt(value)] = value;
	}
	// Crockford's aliases: the letters people confuse with 1 and 0 decode as those digits.
	for (const alias of "IiLl") table[alias.charCodeAt(0)] = 1;
	for (const alias of "Oo") table[alias.charCodeAt(0)] = 0;
	return table;
}

/** The value (0-31) of a Crockford digit, given its character code; -1 if it is not one. */
export function digitValue(charCode: number): number {
	// Codes beyond the table (and NaN, from charCodeAt past the end) read as undefined.
	return DIGIT_VALUES[charCode] ?? -1;
}

/** Index of the first character of `text` that is not a Crockford digit, or -1. */
export function findInvalidDigit(text: string): number {
	for (let i = 0; i < text.length; i++) {
		if (digitValue(text.charCodeAt(i)) < 0) return i;
	}
	return -1;
}

/** A character for an error message: 'x' when printable ASCII, else its code point (U+00E9). */
export function describeCharAt(text: string, index: number): string {
	const code = text.codePointAt(index) ?? 0;
	if (code > 0x20 && code < 0x7f) return `'${String.fromCharCode(code)}'`;
	return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * Throws unless `ms` can be the 48-bit time of a ULID or UUIDv7. Time past the
 * range is `layout_exhausted`; a negative, fractional or non-number reading means
 * the clock itself is broken, which is a server fault (`internal`).
 */
export function checkTimestamp(ms: number, kind: string): void {
	if (Number.isInteger(ms) && ms >= 0 && ms <= MAX_TIMESTAMP_MS) return;
	// Stryker disable next-line EqualityOperator: the maximum itself returned on the line above
	if (ms > MAX_TIMESTAMP_MS) {
		throw new IdError(
			"layout_exhausted",
			`time ${ms} ms is beyond the 48-bit timestamp of ${kind} (at most ${MAX_TIMESTAMP_MS} ms, 10889-08-02T05:31:50.655Z)`,
		);
	}
	throw new IdError(
		"internal",
		`clock reading ${ms} is not a whole number of milliseconds since 1970 in [0, ${MAX_TIMESTAMP_MS}]`,
	);
}

/**
 * `checkTimestamp` for a clock reading (what the ULID and UUIDv7 factories are given):
 * one that is not a finite number is a clock fault, refused as retryable (`clockFault`).
 */
export function checkReading(ms: number, kind: string): void {
	// Stryker disable next-line EqualityOperator: a fast path; the two checks below accept the same readings
	if (Number.isInteger(ms) && ms >= 0 && ms <= MAX_TIMESTAMP_MS) return;
	finiteReading(ms);
	checkTimestamp(ms, kind);
}

/** The 10-character base32 form of a 48-bit millisecond time. */
export function encodeTime(ms: number): string {
	checkTimestamp(ms, "ULID");
	return base32Digits(ms, TIME_CHARS, CROCKFORD_ALPHABET);
}

/**
 * `value` (a non-negative safe integer below 32^width) as `width` characters of
 * `alphabet` (Crockford's, in the case the form uses). Division, not bit shifts:
 * values have up to 53 bits and JS bitwise operators have 32.
 */
export function base32Digits(value: number, width: number, alphabet: string): string {
	let text = "";
	let rest = value;
	for (let i = 0; i < width; i++) {
		text = alphabet.charAt(rest % 32) + text;
		rest = Math.floor(rest / 32);
	}
	return text;
}

/** The millisecond time of a 10-character base32 ULID time part. */
export function decodeTime(text: string): number {
	if (text.length !== TIME_CHARS) {
		throw new IdError(
			"invalid_id",
			`ULID time must be ${TIME_CHARS} ${CROCKFORD_ALLOWED}; got ${text.length} characters`,
		);
	}
	let ms = 0;
	for (let i = 0; i < TIME_CHARS; i++) {
		const digit = digitValue(text.charCodeAt(i));
		if (digit < 0) {
			throw new IdError(
				"invalid_id",
				`ULID time must be ${TIME_CHARS} ${CROCKFORD_ALLOWED}; found ${describeCharAt(text, i)} at position ${i + 1}`,
			);
		}
		ms = ms * 32 + digit;
	}
	if (ms > MAX_TIMESTAMP_MS) {
		throw new IdError(
			"invalid_id",
			`ULID time must not exceed 7ZZZZZZZZZ (${MAX_TIMESTAMP_MS} ms); got ${text.toUpperCase()}`,
		);
	}
	return ms;
}

/**
 * The bits of `bytes`, preceded by `padBits` zero bits, as base32 text. The total
 * must be a multiple of 5: 10 bytes with no padding are a ULID's 16 random
 * characters, 16 bytes with 2 padding bits a whole ULID.
 */
export function encodeBits(bytes: Uint8Array, padBits: number): string {
	let text = "";
	let pending = 0; // bit buffer; only its low `pendingBits` bits are still to be written
	let pendingBits = padBits;
	for (const byte of bytes) {
		pending = ((pending << 8) | byte) & 0xffff; // at most 4 + 8 live bits, so 16 keep them all
		pendingBits += 8;
		while (pendingBits >= 5) {
			pendingBits -= 5;
			text += CROCKFORD_ALPHABET.charAt((pending >>> pendingBits) & 31);
		}
	}
	return text;
}

/**
 * The inverse of `encodeBits`: the bits of base32 `text` without its first
 * `skipBits` bits, as bytes. The caller checks that the skipped bits are zero;
 * `text` must hold only Crockford digits (aliases and lowercase allowed).
 */
export function decodeBits(text: string, skipBits: number): Uint8Array {
	// Stryker disable next-line ArithmeticOperator: for 16 digits skipping 0 and 26 skipping 2 (the only uses), + and - round down to one length
	const bytes = new Uint8Array((text.length * 5 - skipBits) / 8);
	let pending = 0;
	let pendingBits = -skipBits; // the skipped bits fall off the top of the first byte
	let written = 0;
	for (let i = 0; i < text.length; i++) {
		const digit = digitValue(text.charCodeAt(i));
		if (digit < 0) throw new RangeError(`decodeBits: not a base32 digit at ${i}`);
		pending = ((pending << 5) | digit) & 0xffff;
		pendingBits += 5;
		if (pendingBits >= 8) {
			pendingBits -= 8;
			bytes[written++] = (pending >>> pendingBits) & 0xff;
		}
	}
	return bytes;
}

/**
 * Base32 `text` (Crockford digits only) plus one, with carry ("A1YZZ" → "A1Z00"), keeping its
 * length; undefined when every digit is already Z (the caller decides what
 * overflow means — it must never wrap to zeros).
 */
export function incrementBase32(text: string): string | undefined {
	let i = text.length - 1;
	while (i >= 0 && digitValue(text.charCodeAt(i)) === 31) i--;
	if (i < 0) return undefined;
	const next = CROCKFORD_ALPHABET.charAt(digitValue(text.charCodeAt(i)) + 1);
	return text.slice(0, i) + next + "0".repeat(text.length - 1 - i);
}
