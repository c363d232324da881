/**
 * The name rule of sequences: 1–64 characters of `A-Z a-z 0-9 . _ -`, starting
 * with a letter or digit, so a name is safe in a path, a log line and a Durable
 * Object name as it is.
 *
 *   checkSequenceName("orders.eu-2026"); // "orders.eu-2026"
 *   checkSequenceName(".hidden");        // throws invalid_sequence_name
 */
import { describeValue } from "../errors";
import { SequenceRefusal } from "./refusals";

export const MAX_SEQUENCE_NAME_LENGTH = 64;

/** What a sequence name looks like. */
export const SEQUENCE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** `name` when it keeps the rule, else `invalid_sequence_name` saying what is allowed. */
export function checkSequenceName(name: unknown): string {
	if (typeof name === "string" && SEQUENCE_NAME_PATTERN.test(name)) return name;
	throw new SequenceRefusal(
		"invalid_sequence_name",
		`a sequence name is 1-${MAX_SEQUENCE_NAME_LENGTH} characters of A-Z a-z 0-9 . _ -, starting with a letter or digit; got ${describeValue(name)}`,
	);
}
