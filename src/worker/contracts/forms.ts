/**
 * The inputs of the ID-form operations: range (the ID bounds of a time window) and
 * decode (what an ID says, under the service's layout or another system's), read by
 * every transport (./fields.ts).
 *
 *   readInput(rangeContract, limits, { kind: "ulid", from: "2026-11-01", to: "2026-11-02" });
 */
import { BOUNDS_KINDS, DECODE_FORMATS, PRESET_NAMES, TIME_RULE } from "../../ids/field-rules";
import { contract, field } from "./fields";
import { prefixField, snowflakeFormat } from "./ids";

const time = (what: string) => field.time("invalid_range", `${what}: ${TIME_RULE}`, TIME_RULE);

export const rangeContract = contract("range", {
	kind: field.oneOf(
		"invalid_range",
		BOUNDS_KINDS as ["snowflake", "ulid", "uuidv7", "typeid"],
		"The kind of ID",
	),
	from: time("The window's start (included)"),
	to: time("The window's end (excluded)"),
	// The bounds are arithmetic: any worker ID of the layout, owned here or not.
	workerId: field
		.between(
			"invalid_worker_id",
			"kind=snowflake: bounds of this worker ID's IDs only (any in the layout's range)",
			() => 0,
			(limits) => limits.maxWorkerId,
			" (any worker ID of the layout)",
		)
		.orAbsent(),
	format: snowflakeFormat,
	prefix: prefixField("kind=typeid, or kind=snowflake (implies base32): the IDs' prefix"),
});

/** A width or time of an explicit layout; the layout's own rules check the whole. */
const width = (what: string) =>
	field
		.integer(
			"invalid_layout",
			what,
			() => "a non-negative integer",
			(value) => value >= 0,
		)
		.orAbsent();

export const decodeContract = contract("decode", {
	id: field.text(
		"invalid_id",
		"A Snowflake (decimal, or base32 with a prefix), a ULID, a UUID (any common form) or a TypeID",
		"text: a Snowflake, a ULID, a UUID or a TypeID",
	),
	format: field
		.oneOf(
			"invalid_format",
			DECODE_FORMATS as ["typeid", "base32"],
			"typeid reads a bare TypeID (a bare 26-character text is otherwise a ULID); base32 a bare 13-character Snowflake. Prefixed forms need neither",
			'"typeid" (a bare TypeID, which otherwise reads as a ULID) or "base32" (a bare 13-character Snowflake)',
		)
		.orAbsent(),
	layout: field
		.oneOf(
			"invalid_layout",
			PRESET_NAMES as unknown as ["twitter", "discord", "sonyflake", "instagram"],
			"Read a Snowflake-like ID under another system's layout",
		)
		.orAbsent(),
	timeBits: width("Explicit layout: bits of the timestamp (with workerBits and sequenceBits)"),
	workerBits: width("Explicit layout: bits of the worker ID"),
	sequenceBits: width("Explicit layout: bits of the sequence"),
	epoch: width(
		"The epoch in Unix ms: of explicit widths (default: the service's), or a preset's own start time",
	),
	timeUnitMs: width("Explicit layout: ms per tick (default: the service's)"),
});
