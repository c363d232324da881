/**
 * What a request field naming an ID form may hold, and the refusal that says so: the
 * Snowflake text formats, decode formats, foreign layout presets, range kinds, the
 * time rule and the TypeID prefix rule. Apart from the code behind each form so that
 * a request can be checked without loading it (the service checks every request's
 * fields before it loads the code that answers).
 */
import { describeValue, IdError } from "./errors";

/** How Snowflake IDs are written: decimal digits (the default) or 13 base32 characters. */
export type SnowflakeFormat = "decimal" | "base32";
export const SNOWFLAKE_FORMATS: readonly SnowflakeFormat[] = ["decimal", "base32"];

export function invalidSnowflakeFormat(got: unknown): IdError {
	const shown = typeof got === "string" ? JSON.stringify(got) : String(got);
	return new IdError(
		"invalid_format",
		`format must be "decimal" or "base32" (13 lowercase characters, sorting as the number); got ${shown}`,
	);
}

/** `/decode`'s `format`: a bare TypeID or a bare base32 Snowflake. */
export type DecodeFormat = "typeid" | "base32";
export const DECODE_FORMATS: readonly DecodeFormat[] = ["typeid", "base32"];

/** Other systems' Snowflake-like layouts that `/decode` knows by name. */
export const PRESET_NAMES = ["twitter", "discord", "sonyflake", "instagram"] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

/** The ID kinds `/range` bounds. */
export type BoundsKind = "snowflake" | "ulid" | "uuidv7" | "typeid";
export const BOUNDS_KINDS: readonly BoundsKind[] = ["snowflake", "ulid", "uuidv7", "typeid"];

/** What a window's end may be, for error messages. */
export const TIME_RULE =
	"Unix milliseconds (decimal digits) or ISO 8601 with a zone, e.g. 2026-11-01T00:00:00Z, 2026-11-01T00:00:00.123456+02:00 (a fraction beyond the millisecond rounds up) or 2026-11-01";

export const MAX_PREFIX_LENGTH = 63;
export const PREFIX_PATTERN = /^([a-z]([a-z_]*[a-z])?)?$/;

/** What a prefix may be, for error messages. */
export const PREFIX_RULE =
	"at most 63 characters of a-z and _, starting and ending with a letter (TypeID's ^([a-z]([a-z_]*[a-z])?)?$), or empty";

/** `invalid_prefix` for `got`, saying the rule. */
export function invalidPrefix(got: unknown): IdError {
	const length = typeof got === "string" ? ` (${got.length} characters)` : "";
	return new IdError(
		"invalid_prefix",
		`prefix must be ${PREFIX_RULE}; got ${describeValue(got)}${length}`,
	);
}
