/**
 * TypeID (spec v0.3.0, https://github.com/jetify-com/typeid/tree/main/spec): a type
 * prefix, `_`, and a UUID as 26 lowercase base32 characters.
 *
 *   user_01h455vb4pex5vsknk084sn02q
 *   └──┘ └────────────────────────┘
 *   prefix   UUID (2 zero bits + 128)
 *
 * The alphabet is Crockford's, but strict: lowercase only, and none of Crockford's
 * aliases (I, L, O) or hyphens — unlike a ULID, which reads those. So the same 128
 * bits have one TypeID text, and TypeIDs sort as their UUIDs.
 *
 *   const users = new TypeIdFactory("user");           // UUIDv7s from its own UuidV7Factory
 *   users.next(Date.now());                            // "user_01j…", monotonic
 *   formatTypeId("user", "01890a5d-ac96-774b-bcce-b302099a8057"); // "user_01h455vb4pex5vsknk084sn02q"
 *   parseTypeId("user_01h455vb4pex5vsknk084sn02q");    // { prefix: "user", uuid: "01890a5d-…" }
 */

import { isoTime } from "../clock";
import { describeValue, IdError } from "../errors";
import { invalidPrefix, MAX_PREFIX_LENGTH, PREFIX_PATTERN, PREFIX_RULE } from "../field-rules";
import { CROCKFORD_ALPHABET, decodeBits, describeCharAt, encodeBits } from "./crockford";
import { formatUuid, HEX_VALUES, isUuidV7, parseUuid, uuidV7Timestamp } from "./uuid";
import { UuidV7Factory } from "./uuidv7";

export { invalidPrefix, MAX_PREFIX_LENGTH, PREFIX_PATTERN, PREFIX_RULE };

/** TypeID's alphabet: Crockford's 32 digits in lowercase, in ascending character order. */
export const TYPEID_ALPHABET = CROCKFORD_ALPHABET.toLowerCase();
export const TYPEID_SUFFIX_LENGTH = 26;

/** Character code → value for the strict lowercase alphabet, -1 otherwise. */
const STRICT_VALUES = buildStrictValues();

function buildStrictValues(): Int8Array {
	const table = new Int8Array(128).fill(-1);
	for (let value = 0; value < 32; value++) table[TYPEID_ALPHABET.charCodeAt(value)] = value;
	return table;
}

/** The value of a strict lowercase base32 digit (TypeID's alphabet), or -1. */
export function strictDigitValue(charCode: number): number {
	return STRICT_VALUES[charCode] ?? -1;
}

/** Whether `prefix` is a valid TypeID prefix (the empty one included). */
export function isValidPrefix(prefix: string): boolean {
	return prefix.length <= MAX_PREFIX_LENGTH && PREFIX_PATTERN.test(prefix);
}

/**
 * A prefix a caller asked for, checked: `undefined` stays `undefined`, a valid string
 * is returned, anything else is `invalid_prefix` saying the rule.
 */
export function checkPrefix(prefix: unknown): string | undefined {
	if (prefix === undefined) return undefined;
	if (typeof prefix === "string" && isValidPrefix(prefix)) return prefix;
	throw invalidPrefix(prefix);
}

/** `prefix_text`, or `text` alone for the empty prefix (the spec omits the separator then). */
export function withPrefix(prefix: string | undefined, text: string): string {
	return prefix ? `${prefix}_${text}` : text;
}

/** A prefixed text split at its last `_` (the prefix cannot end with one), the prefix checked. */
export interface PrefixedText {
	prefix: string;
	suffix: string;
}

/**
 * Splits `text` into its prefix and suffix. Without `_` the prefix is empty; with one,
 * the prefix must follow TypeID's rule and must not be empty (`_abc` is refused, as the
 * spec says). Throws `invalid_id` naming `kind`.
 */
export function splitPrefix(text: string, kind: string): PrefixedText {
	const separator = text.lastIndexOf("_");
	if (separator < 0) return { prefix: "", suffix: text };
	const prefix = text.slice(0, separator);
	if (prefix === "" || !isValidPrefix(prefix)) {
		throw new IdError(
			"invalid_id",
			`a ${kind}'s prefix (before the last _) must be ${PREFIX_RULE.replace(", or empty", "")}, and without a prefix there is no _; got ${describeValue(prefix)}`,
		);
	}
	return { prefix, suffix: text.slice(separator + 1) };
}

/**
 * Checks that `suffix` is `length` strict lowercase base32 characters whose first
 * carries at most 3 bits (≤ 7); throws `invalid_id` naming `what`.
 */
export function checkStrictBase32(suffix: string, length: number, what: string): void {
	const rule = `${length} characters of ${TYPEID_ALPHABET} (lowercase; no i, l, o, u), the first 0-7`;
	if (suffix.length !== length) {
		throw new IdError("invalid_id", `${what} must be ${rule}; got ${suffix.length} characters`);
	}
	for (let i = 0; i < length; i++) {
		if (strictDigitValue(suffix.charCodeAt(i)) < 0) {
			throw new IdError(
				"invalid_id",
				`${what} must be ${rule}; found ${describeCharAt(suffix, i)} at position ${i + 1}`,
			);
		}
	}
	if (strictDigitValue(suffix.charCodeAt(0)) > 7) {
		throw new IdError(
			"invalid_id",
			`${what} must be ${rule} (above that it would need more bits); found ${describeCharAt(suffix, 0)} first`,
		);
	}
}

const ALPHABET_CODES = Array.from(TYPEID_ALPHABET, (c) => c.charCodeAt(0));

/**
 * TypeID's suffix of a UUID's hex text (hyphens skipped), for UUIDs this module's
 * factory made: 2 zero bits, then the 128 bits 5 at a time. Several times faster
 * than parsing the UUID to bytes first, which a 10,000-ID answer notices.
 */
function suffixOfUuidText(uuid: string): string {
	// Stryker disable next-line ArrayDeclaration: a presized array saves growing it; the codes are the same
	const codes = new Array<number>(TYPEID_SUFFIX_LENGTH);
	let written = 0;
	let pending = 0;
	let pendingBits = 2; // the 2 zero bits in front
	// Stryker disable next-line EqualityOperator: one step past the end reads NaN, which is no hex digit and is skipped
	for (let i = 0; i < uuid.length; i++) {
		// Stryker disable next-line UnaryOperator: the factory's own UUIDs hold only ASCII hex and hyphens, all in the table
		const nibble = HEX_VALUES[uuid.charCodeAt(i)] ?? -1;
		if (nibble < 0) continue; // a hyphen
		pending = ((pending << 4) | nibble) & 0xff; // at most 4 + 4 live bits
		pendingBits += 4;
		if (pendingBits >= 5) {
			pendingBits -= 5;
			codes[written++] = ALPHABET_CODES[(pending >>> pendingBits) & 31] as number;
		}
	}
	return String.fromCharCode(...codes);
}

/** A UUID's 16 bytes as TypeID's 26-character suffix. */
export function typeIdSuffix(bytes: Uint8Array): string {
	return encodeBits(bytes, 2).toLowerCase();
}

/**
 * The TypeID of a UUID (any version, 36-character 8-4-4-4-12 form, any case) under
 * `prefix` ("" for none). Throws `invalid_prefix` or `invalid_id`.
 *
 *   formatTypeId("prefix", "01890a5d-ac96-774b-bcce-b302099a8057"); // "prefix_01h455vb4pex5vsknk084sn02q"
 */
export function formatTypeId(prefix: string, uuid: string): string {
	// Stryker disable next-line StringLiteral: checkPrefix answers undefined only for undefined, which a string is not
	const checked = checkPrefix(prefix) ?? "";
	return withPrefix(checked, typeIdSuffix(parseUuid(uuid).bytes));
}

/** A TypeID taken apart: its prefix ("" for none) and its UUID (lowercase 8-4-4-4-12). */
export interface ParsedTypeId {
	prefix: string;
	uuid: string;
	bytes: Uint8Array;
}

/**
 * Parses a TypeID strictly by spec v0.3.0; throws `invalid_id` for every form the
 * spec's invalid list names (uppercase, aliases, hyphens, a 129th bit, a bad prefix…).
 */
export function parseTypeId(text: string): ParsedTypeId {
	const { prefix, suffix } = splitPrefix(text, "TypeID");
	checkStrictBase32(suffix, TYPEID_SUFFIX_LENGTH, "a TypeID's suffix");
	const bytes = decodeBits(suffix, 2);
	return { prefix, uuid: formatUuid(bytes), bytes };
}

/** What `/decode` answers for a TypeID: the time only for a UUIDv7 (the RFC 9562 variant). */
export interface DecodedTypeId {
	type: "typeid";
	/** The TypeID as given (TypeIDs have one spelling). */
	id: string;
	prefix: string;
	uuid: string;
	/** The UUID's version nibble (TypeIDs made here are version 7; the spec allows others). */
	version: number;
	timestamp?: number;
	time?: string;
}

/** Decodes a TypeID (see `parseTypeId`): prefix, UUID, version, and time for a UUIDv7. */
export function decodeTypeId(text: string): DecodedTypeId {
	const { prefix, uuid, bytes } = parseTypeId(text);
	const version = (bytes[6] ?? 0) >> 4;
	const decoded: DecodedTypeId = { type: "typeid", id: text, prefix, uuid, version };
	if (isUuidV7(bytes)) {
		const timestamp = uuidV7Timestamp(bytes);
		return { ...decoded, timestamp, time: isoTime(timestamp) };
	}
	return decoded;
}

/**
 * Monotonic TypeIDs under one prefix: UUIDv7s from a `UuidV7Factory` (its own, or
 * one shared with other prefixes and plain UUIDv7s, which keeps them all in one
 * increasing sequence), in TypeID form. Same shape as `UlidFactory` and `UuidV7Factory`.
 *
 *   const orders = new TypeIdFactory("order");
 *   orders.nextBatch(Date.now(), 3); // three "order_01j…", strictly increasing
 */
export class TypeIdFactory {
	readonly prefix: string;
	private readonly uuids: UuidV7Factory;

	/** Throws `invalid_prefix` unless `prefix` follows TypeID's rule ("" for bare TypeIDs). */
	constructor(prefix: string, uuids: UuidV7Factory = new UuidV7Factory()) {
		// Stryker disable next-line StringLiteral: checkPrefix answers undefined only for undefined, which a string is not
		this.prefix = checkPrefix(prefix) ?? "";
		this.uuids = uuids;
	}

	/** The next TypeID at `nowMs` (the same rules and errors as `UuidV7Factory.next`). */
	next(nowMs: number): string {
		return this.format(this.uuids.next(nowMs));
	}

	/** `count` TypeIDs (0 or more) at `nowMs`, strictly increasing. */
	nextBatch(nowMs: number, count: number): string[] {
		return this.uuids.nextBatch(nowMs, count).map((uuid) => this.format(uuid));
	}

	private format(uuid: string): string {
		return withPrefix(this.prefix, suffixOfUuidText(uuid));
	}
}
