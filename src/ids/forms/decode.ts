/**
 * What an ID says, whatever its kind: the decoder behind `GET /decode/:id` and
 * RPC `decode`. The kind is told by shape alone, so a caller need not say it.
 *
 *   const layout = new SnowflakeLayout(TWITTER_LAYOUT);
 *   decodeId("1541815603606036480", layout);        // { type: "snowflake", timestamp, workerId, sequence, datacenterId, machineId, … }
 *   decodeId("01ARYZ6S41TSV4RRFFQ69G5FAV", layout); // { type: "ulid", … }
 *   decodeId("not an id", layout);                  // throws invalid_id, naming the three accepted shapes
 */
import { isoTime } from "../clock";
import { IdError } from "../errors";
import { DECODE_FORMATS, type DecodeFormat } from "../field-rules";
import {
	parseSnowflakeBase32,
	SNOWFLAKE_BASE32_LENGTH,
	SNOWFLAKE_DECIMAL,
	snowflakeIdOf,
	snowflakeToBase32,
} from "../snowflake/base32";
import { type SnowflakeLayout, splitTwitterWorkerId } from "../snowflake/layout";
import { type DecodedTypeId, decodeTypeId, splitPrefix } from "./typeid";
import { type DecodedUlid, decodeUlid, uuidToUlid } from "./ulid";
import { hyphenatedUuid, isUuidV7, parseUuid, uuidV7Timestamp } from "./uuid";

export { DECODE_FORMATS, type DecodeFormat };

/** A Snowflake ID taken apart under a layout. */
export interface DecodedSnowflake {
	type: "snowflake";
	id: string;
	timestamp: number;
	time: string;
	workerId: number;
	sequence: number;
	/** Under a 10-bit worker field (Twitter's layout): its high 5 bits. */
	datacenterId?: number;
	/** Under a 10-bit worker field (Twitter's layout): its low 5 bits. */
	machineId?: number;
	/** Read from base32 text: the prefix it carried ("" for none). */
	prefix?: string;
	/** Read from base32 text: the 13 characters. */
	base32?: string;
}
/** A version-7 UUID: its time, and the same 128 bits as a ULID. */
export interface DecodedUuidV7 {
	type: "uuidv7";
	id: string;
	version: 7;
	timestamp: number;
	time: string;
	ulid: string;
}
/** A UUID of any other version: its version, and the same 128 bits as a ULID. */
export interface DecodedUuid {
	type: "uuid";
	id: string;
	version: number;
	ulid: string;
}
export type { DecodedTypeId, DecodedUlid };
/** What `/decode/:id` and RPC `decode` answer, by the kind of ID. */
export type DecodedId =
	| DecodedSnowflake
	| DecodedUlid
	| DecodedUuidV7
	| DecodedUuid
	| DecodedTypeId;

/**
 * A form to read an ID in that its shape alone does not tell: `typeid` reads a bare
 * 26-character TypeID (which would otherwise be a ULID), `base32` a bare 13-character
 * Snowflake. Prefixed forms are told by their suffix's length without it.
 */

/**
 * Decodes `text` by its shape: 1–19 digits is a Snowflake (read with `layout`), 26
 * characters a ULID, 36 with hyphens at 8-4-4-4-12 a UUID (also accepted as 32 hex
 * digits, in braces or as `urn:uuid:`, and echoed as 8-4-4-4-12); a text with a
 * prefix (`user_…`) is a TypeID (26 characters after the last `_`) or a base32
 * Snowflake (13). `format` reads a bare TypeID or base32 Snowflake, which look like
 * a ULID or like nothing else. Throws `invalid_id` for anything else, or for a
 * value out of its kind's range.
 */
export function decodeId(text: string, layout: SnowflakeLayout, format?: DecodeFormat): DecodedId {
	if (format === "typeid") return decodeTypeId(text);
	if (format === "base32") return decodeSnowflakeBase32(text, layout);
	if (SNOWFLAKE_DECIMAL.test(text)) return decodeSnowflake(text, layout);
	if (text.includes("_")) {
		// TypeID's prefix cannot end with `_`, so the last one separates.
		const { suffix } = splitPrefix(text, "prefixed ID");
		if (suffix.length === SNOWFLAKE_BASE32_LENGTH) return decodeSnowflakeBase32(text, layout);
		if (suffix.length !== 26) {
			throw new IdError(
				"invalid_id",
				`a prefixed ID is a TypeID (prefix_ and 26 base32 characters) or a Snowflake in base32 (prefix_ and 13); got ${suffix.length} characters after the last _`,
			);
		}
		return decodeTypeId(text);
	}
	text = hyphenatedUuid(text);
	if (text.length === 26) return decodeUlid(text);
	if (text.length === 36) {
		const uuid = parseUuid(text);
		const ulid = uuidToUlid(uuid.id);
		if (isUuidV7(uuid.bytes)) {
			const timestamp = uuidV7Timestamp(uuid.bytes);
			return { type: "uuidv7", id: uuid.id, version: 7, timestamp, time: isoTime(timestamp), ulid };
		}
		return { type: "uuid", id: uuid.id, version: uuid.version, ulid };
	}
	const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
	throw new IdError(
		"invalid_id",
		`id must be a Snowflake (1-19 decimal digits, below 2^63; or prefix_ and 13 base32 characters), a ULID (26 Crockford base32 characters), a TypeID (prefix_ and 26 base32 characters) or a UUID (36 characters, hex in groups 8-4-4-4-12; also 32 hex digits, {…} or urn:uuid:…); got ${JSON.stringify(shown)} (${text.length} characters)`,
	);
}

/** A Snowflake in base32 (`[prefix_]` + 13 characters) taken apart under `layout`. */
export function decodeSnowflakeBase32(text: string, layout: SnowflakeLayout): DecodedSnowflake {
	const { id, prefix } = parseSnowflakeBase32(text);
	return { ...decodeSnowflake(id.toString(), layout), prefix, base32: snowflakeToBase32(id) };
}

/** A Snowflake ID (1–19 decimal digits, below 2^63) taken apart under `layout`; else `invalid_id`. */
export function decodeSnowflake(text: string, layout: SnowflakeLayout): DecodedSnowflake {
	const value = snowflakeIdOf(text);
	const { tick, workerId, sequence } = layout.decompose(value);
	const timestamp = layout.msOf(tick);
	const decoded: DecodedSnowflake = {
		type: "snowflake",
		id: value.toString(),
		timestamp,
		time: isoTime(timestamp),
		workerId,
		sequence,
	};
	return layout.hasDatacenterSplit ? { ...decoded, ...splitTwitterWorkerId(workerId) } : decoded;
}
