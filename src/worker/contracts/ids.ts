/**
 * The inputs of the ID operations: snowflake, snowflake blocks, stats, ulid, uuidv7
 * and typeid, one declaration each, read by every transport (./fields.ts).
 *
 *   readInput(ulidContract, limits, { count: 3, format: "uuid" }); // { count: 3, format: "uuid" }
 */
import { describeValue } from "../../ids/errors";
import {
	MAX_PREFIX_LENGTH,
	PREFIX_PATTERN,
	PREFIX_RULE,
	SNOWFLAKE_FORMATS,
} from "../../ids/field-rules";
import { contract, field, type Limits } from "./fields";

/** How many IDs: 1 when absent. */
export const idCount = field
	.between(
		"invalid_count",
		"How many: an integer in [1, MAX_BATCH]; default 1",
		() => 1,
		(limits) => limits.maxCount,
	)
	.orAbsent();
const blockCount = field
	.between(
		"invalid_count",
		"How many IDs: an integer in [1, MAX_BLOCK_COUNT]; default 1",
		() => 1,
		(limits) => limits.maxBlockCount,
	)
	.orAbsent();

/** WORKER_IDS, worded as the range it is when the deployment owns them all. */
function ownedRule(limits: Limits): string {
	const { workerIds, maxWorkerId } = limits;
	return workerIds.size === maxWorkerId + 1
		? `an integer in [0, ${maxWorkerId}]`
		: `one of the worker IDs this deployment owns, WORKER_IDS = ${workerIds}`;
}

/** A worker ID this deployment owns. */
export const ownedWorkerId = field.integer(
	"invalid_worker_id",
	"A worker ID this deployment owns (WORKER_IDS)",
	ownedRule,
	(value, limits) => limits.workerIds.has(value),
);

/** A text prefix, shown cut short when long (it is echoed in the refusal). */
function shownPrefix(value: unknown): string {
	const shown = describeValue(value);
	return typeof value === "string" ? `${shown} (${value.length} characters)` : shown;
}

/** A TypeID prefix (TypeID's rule), described for its operation. */
export function prefixField(description: string) {
	return field
		.text("invalid_prefix", description, PREFIX_RULE, {
			test: (text) => text.length <= MAX_PREFIX_LENGTH && PREFIX_PATTERN.test(text),
			pattern: PREFIX_PATTERN,
			maxLength: MAX_PREFIX_LENGTH,
			show: shownPrefix,
		})
		.orAbsent();
}

/** How Snowflakes are written. */
export const snowflakeFormat = field
	.oneOf(
		"invalid_format",
		SNOWFLAKE_FORMATS as ["decimal", "base32"],
		"decimal (default), or base32: 13 lowercase characters that sort as the number; a prefix implies base32",
		'"decimal" or "base32" (13 lowercase characters, sorting as the number)',
	)
	.orAbsent();
const snowflakePrefix = prefixField(
	"A type prefix written before base32 IDs (order → order_0g4b3…); implies base32",
);

/** Snowflakes from the worker ID named, or (absent) from one this deployment picks. */
export const snowflakeContract = contract("snowflake", {
	workerId: ownedWorkerId.orAbsent(),
	count: idCount,
	format: snowflakeFormat,
	prefix: snowflakePrefix,
});

/** Blocks of Snowflakes `{first, count}`, up to MAX_BLOCK_COUNT IDs. */
export const blocksContract = contract("snowflakeBlocks", {
	workerId: ownedWorkerId.orAbsent(),
	count: blockCount,
	format: snowflakeFormat,
	prefix: snowflakePrefix,
});

/** A worker ID's object's counters. */
export const statsContract = contract("stats", { workerId: ownedWorkerId });

export const ulidContract = contract("ulid", {
	count: idCount,
	format: field
		.oneOf(
			"invalid_format",
			["ulid", "uuid"],
			"ulid (default), or the same 128 bits written as a UUID",
		)
		.orAbsent(),
});

export const uuidv7Contract = contract("uuidv7", { count: idCount });

export const typeidContract = contract("typeid", {
	count: idCount,
	prefix: prefixField("The TypeIDs' type prefix (TypeID's rule); absent or empty: bare TypeIDs"),
});
