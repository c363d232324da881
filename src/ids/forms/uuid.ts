/**
 * UUID text (RFC 9562, any version): the one reader of its forms, and the writer
 * of its canonical one, lowercase 8-4-4-4-12. UUIDv7s are made in uuidv7.ts; ULIDs
 * and TypeIDs convert through the 16 bytes read here.
 *
 *   parseUuid("017F22E2-79B0-7CC3-98C4-DC0C0C07398F");  // { id: "017f22e2-…", version: 7, bytes }
 *   hyphenatedUuid("{017f22e279b07cc398c4dc0c0c07398f}"); // "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"
 *   uuidV7Timestamp(parseUuid("017f22e2-79b0-7cc3-98c4-dc0c0c07398f").bytes); // 1645557742000
 */

import { IdError } from "../errors";
import { describeCharAt } from "./crockford";

const HYPHEN = 0x2d;

/** A UUID's canonical text, version nibble and 16 bytes. */
export interface ParsedUuid {
	/** Lowercase 8-4-4-4-12. */
	id: string;
	version: number;
	bytes: Uint8Array;
}

const UUID_FORMAT =
	"UUID must be 36 characters, 32 hex digits (0-9, a-f, any case) with hyphens at 8-4-4-4-12, e.g. 017f22e2-79b0-7cc3-98c4-dc0c0c07398f";

/** Parses a UUID of any version in its 36-character hyphenated form (no braces, no urn:uuid:). */
export function parseUuid(text: string): ParsedUuid {
	if (text.length !== 36) {
		throw new IdError("invalid_id", `${UUID_FORMAT}; got ${text.length} characters`);
	}
	const bytes = new Uint8Array(16);
	let written = 0;
	for (let i = 0; i < 36; ) {
		if (i === 8 || i === 13 || i === 18 || i === 23) {
			if (text.charCodeAt(i) !== HYPHEN) {
				throw new IdError(
					"invalid_id",
					`${UUID_FORMAT}; expected '-' at position ${i + 1}, found ${describeCharAt(text, i)}`,
				);
			}
			i++;
			continue;
		}
		const high = hexValue(text, i);
		const low = hexValue(text, i + 1);
		bytes[written++] = (high << 4) | low;
		i += 2;
	}
	return { id: text.toLowerCase(), version: hexValue(text, 14), bytes };
}

/**
 * A UUID written in another common form — `urn:uuid:…` (RFC 9562 §4), `{…}`
 * (Microsoft's registry form) or 32 hex digits without hyphens — as 8-4-4-4-12;
 * any other text unchanged.
 */
export function hyphenatedUuid(text: string): string {
	let inner = text;
	if (/^urn:uuid:/i.test(inner)) inner = inner.slice(9);
	else if (inner.startsWith("{") && inner.endsWith("}")) inner = inner.slice(1, -1);
	if (/^[0-9a-f]{32}$/i.test(inner)) {
		inner = `${inner.slice(0, 8)}-${inner.slice(8, 12)}-${inner.slice(12, 16)}-${inner.slice(16, 20)}-${inner.slice(20)}`;
	}
	return inner.length === 36 ? inner : text;
}

/** Character code → value of a hex digit (either case), -1 otherwise. */
export const HEX_VALUES = buildHexValues();

function buildHexValues(): Int8Array {
	const table = new Int8Array(128).fill(-1);
	for (const [i, digit] of [..."0123456789abcdef"].entries()) {
		table[digit.charCodeAt(0)] = i;
		table[digit.toUpperCase().charCodeAt(0)] = i;
	}
	return table;
}

function hexValue(text: string, index: number): number {
	const value = HEX_VALUES[text.charCodeAt(index)] ?? -1;
	if (value < 0) {
		throw new IdError(
			"invalid_id",
			`${UUID_FORMAT}; found ${describeCharAt(text, index)} at position ${index + 1}`,
		);
	}
	return value;
}

/**
 * Whether 16 UUID bytes are a UUIDv7: version 7 and, by RFC 9562 §4.1, variant bits
 * 10; anything else with a 7 in that nibble belongs to another variant and only
 * looks like one.
 */
export function isUuidV7(bytes: Uint8Array): boolean {
	return (bytes[6] ?? 0) >> 4 === 7 && ((bytes[8] ?? 0) & 0xc0) === 0x80;
}

/** The 48-bit unix millisecond timestamp at the front of a UUIDv7's 16 bytes. */
export function uuidV7Timestamp(bytes: Uint8Array): number {
	if (bytes.length !== 16) throw new RangeError(`a UUID has 16 bytes, got ${bytes.length}`);
	let ms = 0;
	for (const byte of bytes.subarray(0, 6)) ms = ms * 256 + byte;
	return ms;
}

/** 16 bytes as a lowercase 8-4-4-4-12 UUID. */
export function formatUuid(bytes: Uint8Array): string {
	const digits = bytesToHex(bytes);
	return `${digits.slice(0, 8)}-${digits.slice(8, 12)}-${digits.slice(12, 16)}-${digits.slice(16, 20)}-${digits.slice(20)}`;
}

/** Bytes as lowercase hex, two digits each. */
export function bytesToHex(bytes: Uint8Array): string {
	let digits = "";
	for (const byte of bytes) digits += hex(byte, 2);
	return digits;
}

/** `value` (an unsigned integer below 16^width) as exactly `width` lowercase hex digits. */
export function hex(value: number, width: number): string {
	return value.toString(16).padStart(width, "0");
}
