/**
 * The numbers of a sequence: integers in [0, 2^63 − 1], bigints inside the rules
 * and decimal strings outward (as Snowflakes are). `readSequenceNumber` reads one
 * from what a caller sent: a safe integer, a bigint or a decimal string (JSON
 * numbers above 2^53 lose digits, so those are written as strings).
 *
 *   readSequenceNumber("start", 1000);                    // 1000n
 *   readSequenceNumber("to", "9007199254740993");         // 9007199254740993n
 *   readSequenceNumber("to", -1);                         // throws invalid_sequence_options
 */
import { describeValue } from "../errors";
import { SequenceRefusal } from "./refusals";

/** The largest number a sequence issues: 2^63 − 1, as SQLite's INTEGER and a signed 64-bit long hold it. */
export const MAX_SEQUENCE_NUMBER = 2n ** 63n - 1n;

const DECIMAL = /^(0|[1-9][0-9]{0,18})$/;

/**
 * `value` as a sequence number, or `invalid_sequence_options` naming `field` and
 * what is allowed.
 */
export function readSequenceNumber(field: string, value: unknown): bigint {
	let number: bigint | undefined;
	if (typeof value === "bigint") number = value;
	else if (typeof value === "number" && Number.isSafeInteger(value)) number = BigInt(value);
	else if (typeof value === "string" && DECIMAL.test(value)) number = BigInt(value);
	if (number !== undefined && number >= 0n && number <= MAX_SEQUENCE_NUMBER) return number;
	throw new SequenceRefusal(
		"invalid_sequence_options",
		`${field} must be an integer in [0, ${MAX_SEQUENCE_NUMBER}] (above 2^53 written as a decimal string); got ${describeValue(value)}`,
	);
}
