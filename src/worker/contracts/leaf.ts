/**
 * The inputs of the Leaf-compatible routes, for callers written against Meituan Leaf's
 * leaf-server: the segment key (a sequence's name; Leaf's biz_tag), the Snowflake
 * route's key (any text, ignored as Leaf ignores it) and the ID to decode. Read by the
 * HTTP routes (../http/routes/leaf.ts) like every other contract (./fields.ts).
 *
 *   readInput(leafSegmentContract, limits, {}, { key: "orders" });  // { key: "orders" }
 *   readInput(leafSegmentContract, limits, {}, { key: "订单" });
 *   // throws invalid_sequence_name: key must be a sequence name: 1-64 characters of …
 *   readInput(leafDecodeContract, limits, { snowflakeId: "-1" });   // throws invalid_id
 */
import { MAX_SEQUENCE_NAME_LENGTH, SEQUENCE_NAME_PATTERN } from "../../ids/sequences/names";
import { contract, field } from "./fields";
import { sequenceNameField } from "./sequences";

const KEY_RULE = `a sequence name: 1-${MAX_SEQUENCE_NAME_LENGTH} characters of A-Z a-z 0-9 . _ -, starting with a letter or digit (a Leaf biz_tag outside this rule maps to a name as docs/MIGRATING.md, "Leaf keys that are not sequence names", shows)`;

/** The sequence a segment call takes the next number of: a sequence name, as every sequence route's. */
const segmentKey = field.text(
	"invalid_sequence_name",
	"The sequence's name (Leaf's biz_tag); it must have been created (PUT /sequences/{name})",
	KEY_RULE,
	{
		test: (text) => SEQUENCE_NAME_PATTERN.test(text),
		pattern: SEQUENCE_NAME_PATTERN,
		maxLength: MAX_SEQUENCE_NAME_LENGTH,
		show: sequenceNameField.show,
	},
);

export const leafSegmentContract = contract("leafSegment", { key: segmentKey });

export const leafSnowflakeContract = contract("leafSnowflake", {
	key: field.text(
		"invalid_request",
		"Any text; ignored, as leaf-server ignores it (the Snowflake comes from the auto pool)",
		"any text",
		{ show: sequenceNameField.show },
	),
});

/** Decimal digits of a 63-bit Snowflake; leading zeros are read as Leaf's Long.parseLong reads them. */
const SNOWFLAKE_DIGITS = /^[0-9]{1,19}$/;
const SNOWFLAKE_LIMIT = 2n ** 63n;

export const leafDecodeContract = contract("leafDecode", {
	snowflakeId: field.text(
		"invalid_id",
		"A Snowflake ID of this deployment's layout, in decimal",
		"1-19 decimal digits below 2^63 (9223372036854775808)",
		{
			test: (text) => SNOWFLAKE_DIGITS.test(text) && BigInt(text) < SNOWFLAKE_LIMIT,
			pattern: SNOWFLAKE_DIGITS,
			maxLength: 19,
			show: sequenceNameField.show,
		},
	),
});
