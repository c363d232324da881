/**
 * Snowflake IDs as short sortable text: 13 lowercase characters of TypeID's base32
 * alphabet (65 bits, the first character 0-7 since the sign bit and one more are
 * zero), fixed width, so that text order is number order — a decimal Snowflake sorts
 * as text only when zero-padded to 19 digits. TSID writes 64-bit IDs the same way.
 * An optional TypeID-style prefix says what the ID identifies: `order_0g4b3…`.
 *
 *   snowflakeToBase32(1541815603606036480n);          // "1asd13xh1f800"
 *   snowflakeFromBase32("1asd13xh1f800");              // 1541815603606036480n
 *   snowflakeText(1541815603606036480n, { format: "base32", prefix: "order" }); // "order_1asd13xh1f800"
 */

import { describeValue, IdError } from "../errors";
import { invalidSnowflakeFormat, SNOWFLAKE_FORMATS, type SnowflakeFormat } from "../field-rules";
import { base32Digits } from "../forms/crockford";
import {
	checkPrefix,
	checkStrictBase32,
	splitPrefix,
	strictDigitValue,
	TYPEID_ALPHABET,
} from "../forms/typeid";
import { checkRun, formatRuns } from "./decimal";
import type { IdRun } from "./generator";
import type { SnowflakeLayout } from "./layout";

export { invalidSnowflakeFormat, SNOWFLAKE_FORMATS, type SnowflakeFormat };

export const SNOWFLAKE_BASE32_LENGTH = 13;
/** A text form asked for: decimal, or base32 with an optional prefix ("" for none). */
export interface SnowflakeTextForm {
	format: SnowflakeFormat;
	prefix: string;
}

const LIMIT = 2n ** 63n;
/** The low 30 bits become the last 6 characters, the high 33 bits the first 7. */
const LOW_BITS = 30;
const LOW_LIMIT = 2 ** LOW_BITS;
const LOW_MASK = BigInt(LOW_LIMIT - 1);

/** "00" … "zz": two base32 characters for each 10-bit value, so an ID's low 30 bits are three lookups. */
const PAIRS = Array.from(
	{ length: 1024 },
	(_, value) => TYPEID_ALPHABET.charAt(value >> 5) + TYPEID_ALPHABET.charAt(value & 31),
);

/** The low 30 bits as 6 characters. */
function lowDigits(low: number): string {
	return (PAIRS[low >>> 20] as string) + PAIRS[(low >>> 10) & 1023] + PAIRS[low & 1023];
}

/** The high bits (below 32^7) as 7 characters. */
function highDigits(value: number): string {
	return base32Digits(value, 7, TYPEID_ALPHABET);
}

/** A Snowflake's decimal text: 1–19 digits (leading zeros allowed); below 2^63 is checked on the value. */
export const SNOWFLAKE_DECIMAL = /^[0-9]{1,19}$/;

function checkId(id: bigint): bigint {
	if (id < 0n || id >= LIMIT) {
		throw new IdError("invalid_id", `a Snowflake ID must be in [0, 2^63); got ${id}`);
	}
	return id;
}

/**
 * A Snowflake ID from a bigint in [0, 2^63) or its decimal text (1–19 digits, below
 * 2^63); anything else is `invalid_id`. `BigInt(text)` alone is looser than a
 * Snowflake's text: it reads "", " 12 ", "0x10" and "0b1", and throws a SyntaxError
 * for "1e3".
 */
export function snowflakeIdOf(id: bigint | string): bigint {
	if (typeof id === "bigint") return checkId(id);
	if (typeof id === "string" && SNOWFLAKE_DECIMAL.test(id) && BigInt(id) < LIMIT) return BigInt(id);
	const shown = typeof id === "string" && id.length > 40 ? `${id.slice(0, 40)}…` : id;
	throw new IdError(
		"invalid_id",
		`a Snowflake ID must be 1-19 decimal digits below 2^63 (9223372036854775808), or a bigint in [0, 2^63); got ${describeValue(shown)}`,
	);
}

/** A Snowflake ID (bigint, or decimal text as `snowflakeIdOf` reads it) as 13 base32 characters. */
export function snowflakeToBase32(id: bigint | string): string {
	const value = snowflakeIdOf(id);
	return highDigits(Number(value >> BigInt(LOW_BITS))) + lowDigits(Number(value & LOW_MASK));
}

/** The Snowflake ID of 13 strict base32 characters; throws `invalid_id`. */
export function snowflakeFromBase32(text: string): bigint {
	checkStrictBase32(text, SNOWFLAKE_BASE32_LENGTH, "a Snowflake in base32");
	let value = 0n;
	let chunk = 0;
	// Stryker disable next-line EqualityOperator: the text is 13 characters (checked): a 14th step adds NaN to a chunk never used
	for (let i = 0; i < SNOWFLAKE_BASE32_LENGTH; i++) {
		chunk = chunk * 32 + strictDigitValue(text.charCodeAt(i));
		if (i === 6 || i === SNOWFLAKE_BASE32_LENGTH - 1) {
			// Stryker disable next-line ConditionalExpression: at i = 6 the value is still 0, and 0 shifted by anything is 0
			value = (value << BigInt(i === 6 ? 35 : 30)) | BigInt(chunk);
			chunk = 0;
		}
	}
	return value;
}

/** A Snowflake's text read back: its ID, and the prefix it carried ("" for none). */
export interface ParsedSnowflakeText {
	id: bigint;
	prefix: string;
}

/** `[prefix_]` + 13 base32 characters → the ID; throws `invalid_id`. */
export function parseSnowflakeBase32(text: string): ParsedSnowflakeText {
	const { prefix, suffix } = splitPrefix(text, "Snowflake in base32");
	return { id: snowflakeFromBase32(suffix), prefix };
}

/**
 * The text form a caller asked for. `format` is decimal (default) or base32; a
 * `prefix` implies base32 (a prefixed decimal would neither sort nor read back
 * unambiguously), so `format: "decimal"` with a prefix is `invalid_prefix`.
 */
export function snowflakeTextForm(format: unknown, prefix: unknown): SnowflakeTextForm {
	if (format !== undefined && !SNOWFLAKE_FORMATS.includes(format as SnowflakeFormat)) {
		throw invalidSnowflakeFormat(format);
	}
	const checked = checkPrefix(prefix);
	if (checked && format === "decimal") {
		throw new IdError(
			"invalid_prefix",
			`a prefix is written before base32 Snowflakes only (they sort and read back unambiguously); ask for format=base32 or leave format out, or drop the prefix; got format=decimal with prefix ${JSON.stringify(checked)}`,
		);
	}
	const base32 = format === "base32" || Boolean(checked); // "" is no prefix
	return { format: base32 ? "base32" : "decimal", prefix: checked ?? "" };
}

/** One ID in the asked form. */
export function snowflakeText(id: bigint, form: SnowflakeTextForm): string {
	if (form.format === "decimal") return checkId(id).toString();
	const text = snowflakeToBase32(id);
	return form.prefix ? `${form.prefix}_${text}` : text;
}

/** The IDs of runs of one worker ID in the asked form (decimal: `formatRuns`). */
export function formatRunsAs(
	layout: SnowflakeLayout,
	workerId: number,
	runs: IdRun[],
	form: SnowflakeTextForm,
): string[] {
	if (form.format === "decimal") return formatRuns(layout, workerId, runs);
	for (const run of runs) checkRun(layout, run);
	const head = form.prefix ? `${form.prefix}_` : "";
	const ids: string[] = [];
	for (const run of runs) {
		// A run is consecutive IDs of one tick: only the sequence counts up, and the sequence
		// field (at most 30 bits, layout.ts) lies within the low 30 bits, so they never
		// carry into the high 33 within a run: the high characters are written once.
		const first = layout.compose({ tick: run.tick, workerId, sequence: run.firstSequence });
		const highText = head + highDigits(Number(first >> BigInt(LOW_BITS)));
		const low = Number(first & LOW_MASK);
		for (let i = 0; i < run.count; i++) ids.push(highText + lowDigits(low + i));
	}
	return ids;
}
