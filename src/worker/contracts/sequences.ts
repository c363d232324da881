/**
 * The inputs of the named-sequence operations: create, next, reserve, advance,
 * status, retire and the list of names, read by every transport (./fields.ts) and by the
 * client before it puts a name into a URL. The name is the path's
 * (`/sequences/:name`) or RPC's first argument; the rest are the query's, the
 * body's or RPC's options.
 *
 *   readInput(nextContract, limits, { count: 2 }, { name: "orders" }); // { name: "orders", count: 2 }
 *   readInput(createContract, limits, { mode: "fast" }, { name: "orders" });
 *   // throws invalid_sequence_options: mode must be "ordered" or "pooled"; got "fast"
 */
// The rule files themselves, not the folder's index: the startup chunk needs no counter or buffer.

import { describeValue, IdError } from "../../ids/errors";
import { MAX_SEQUENCE_NAME_LENGTH, SEQUENCE_NAME_PATTERN } from "../../ids/sequences/names";
import { MAX_SEQUENCE_NUMBER } from "../../ids/sequences/numbers";
import type { SequenceMode, SequenceReset } from "../../ids/sequences/settings";
import type { ServiceErrorCode } from "../../wire";
import { contract, field, NO_LIMITS, refusal } from "./fields";

const NAME_RULE = `1-${MAX_SEQUENCE_NAME_LENGTH} characters of A-Z a-z 0-9 . _ -, starting with a letter or digit`;

export const sequenceNameField = field.text(
	"invalid_sequence_name",
	`The sequence's name: ${NAME_RULE}`,
	NAME_RULE,
	{
		test: (text) => SEQUENCE_NAME_PATTERN.test(text),
		pattern: SEQUENCE_NAME_PATTERN,
		maxLength: MAX_SEQUENCE_NAME_LENGTH,
	},
);

const options = "invalid_sequence_options" as const;

/**
 * The settings' words, the rules' own (../../ids/sequences/settings.ts), written out
 * here so that a new isolate's startup loads no settings rules: the IANA lookup of a
 * well-formed zone runs when the create does (`checkTimeZone`, the same code and words).
 */
const MODES = ["ordered", "pooled"] as const satisfies readonly SequenceMode[];
const RESETS = ["never", "daily", "monthly", "yearly"] as const satisfies readonly SequenceReset[];
/** IANA names: letters, digits, `_ + - /`, starting with a letter (not an offset like "+05:30"). */
const TIME_ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]*$/;

const timeZone = field
	.text(
		options,
		'The IANA time zone its periods are dated in, such as "Europe/London"; default "UTC"',
		'an IANA time zone name such as "UTC", "Europe/London" or "Asia/Kathmandu"',
		{
			test: (text) => text.length <= 64 && TIME_ZONE_NAME.test(text),
			pattern: TIME_ZONE_NAME,
			maxLength: 64,
		},
	)
	.orAbsent();

export const createContract = contract("createSequence", {
	name: sequenceNameField,
	start: field
		.decimal(
			options,
			"The first number, and the first of each period; default 1",
			MAX_SEQUENCE_NUMBER,
		)
		.orAbsent(),
	mode: field
		.oneOf(
			options,
			MODES,
			"ordered (default): in order across all callers; pooled: from isolates' segments, for higher rates",
		)
		.orAbsent(),
	reset: field
		.oneOf(
			options,
			RESETS,
			"When numbering starts again at start, by the date in timeZone; default never",
		)
		.orAbsent(),
	timeZone,
});

export const nextContract = contract("nextInSequence", {
	name: sequenceNameField,
	count: field
		.between(
			"invalid_count",
			"How many consecutive numbers: an integer in [1, MAX_BATCH]; default 1",
			() => 1,
			(limits) => limits.maxSequenceCount,
		)
		.orAbsent(),
});

export const reserveContract = contract("reserveInSequence", {
	name: sequenceNameField,
	count: field.between(
		"invalid_count",
		"How many numbers the range holds: an integer in [1, MAX_BLOCK_COUNT]",
		() => 1,
		(limits) => limits.maxSequenceRange,
	),
});

export const advanceContract = contract("advanceSequence", {
	name: sequenceNameField,
	to: field.decimal(
		options,
		"The next number becomes at least this, never less",
		MAX_SEQUENCE_NUMBER,
	),
});

export const sequenceStatusContract = contract("sequenceStatus", { name: sequenceNameField });

/**
 * A retire names the sequence twice, in the path (or RPC's first argument) and in
 * `confirm`, so that a retire is never sent by a slip: it cannot be undone.
 */
export const retireContract = contract(
	"retireSequence",
	{
		name: sequenceNameField,
		confirm: field.text(
			"invalid_request",
			"The sequence's name again (a retire cannot be undone)",
			"the sequence's name, repeated",
			{ maxLength: MAX_SEQUENCE_NAME_LENGTH },
		),
	},
	undefined,
	({ name, confirm }) => {
		if (confirm !== name) {
			throw new IdError<ServiceErrorCode>(
				"invalid_request",
				`confirm must be the sequence's name, ${JSON.stringify(name)}; got ${describeValue(confirm)}`,
			);
		}
	},
);

/** The most names one page of the list holds. */
export const MAX_LIST_LIMIT = 1000;

export const listContract = contract("listSequences", {
	limit: field
		.between(
			"invalid_request",
			`How many names: an integer in [1, ${MAX_LIST_LIMIT}]; default 100`,
			() => 1,
			() => MAX_LIST_LIMIT,
		)
		.orAbsent(),
	cursor: field
		.text(
			"invalid_request",
			"The previous page's cursor: names after it are listed",
			"the cursor a previous page answered (a sequence name)",
			{
				test: (text) => SEQUENCE_NAME_PATTERN.test(text),
				pattern: SEQUENCE_NAME_PATTERN,
				maxLength: MAX_SEQUENCE_NAME_LENGTH,
			},
		)
		.orAbsent(),
	prefix: field
		.text(
			"invalid_request",
			"Only names that start with this text are listed",
			`the start of a sequence name (${NAME_RULE})`,
			{
				test: (text) => SEQUENCE_NAME_PATTERN.test(text),
				pattern: SEQUENCE_NAME_PATTERN,
				maxLength: MAX_SEQUENCE_NAME_LENGTH,
			},
		)
		.orAbsent(),
});

/** `name` when it is a sequence name, else its refusal (the client checks before a name reaches a URL). */
export function checkNameInput(name: unknown): string {
	if (sequenceNameField.accepts(name, NO_LIMITS)) return name;
	throw refusal("name", sequenceNameField, NO_LIMITS, name);
}
