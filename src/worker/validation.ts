import type { Context, MiddlewareHandler, ValidationTargets } from "hono";
import { validator } from "hono/validator";
import { describeValue, IdError } from "../ids/errors";
import {
	BOUNDS_KINDS,
	DECODE_FORMATS,
	invalidDecodeFormat,
	invalidPrefix,
	invalidPreset,
	invalidSnowflakeFormat,
	MAX_PREFIX_LENGTH,
	PREFIX_PATTERN,
	PRESET_NAMES,
	SNOWFLAKE_FORMATS,
	TIME_RULE,
} from "../ids/field-rules";
import type { AppEnv } from "./app-env";
import type { ServiceError } from "./errors";
import { field, type Input, type InputOf, input, type OutputOf, type Shape } from "./input";
import { invalidLeaseWorkerId } from "./lease-input";
import { declareQuery } from "./middleware/known-query";
import {
	countAllowed,
	countKindOf,
	invalidFormat,
	invalidHistoryMinutes,
	invalidRequestCount,
	invalidWorkerId,
} from "./rules";

/**
 * Integers in query strings and paths: plain decimal digits, leading zeros
 * allowed. A sign, fraction, exponent, space or empty value fails, and so does a
 * repeated parameter (Hono hands it over as an array). Ranges depend on the
 * config and are checked by the operations in ./operations, which RPC shares.
 * The descriptions are the OpenAPI document's (./openapi/); they do not validate.
 */
const decimalInteger = field.digits();
const count = decimalInteger
	.optional()
	.describe("How many: an integer in [1, MAX_BATCH] (blocks: MAX_BLOCK_COUNT); default 1");
const format = field
	.oneOf(["ulid", "uuid"])
	.optional()
	.describe("ulid (default), or the same 128 bits written as a UUID");
const prefix = field
	.text()
	.max(MAX_PREFIX_LENGTH)
	.regex(PREFIX_PATTERN)
	.optional()
	.describe("A type prefix (TypeID's rule: at most 63 of a-z and _, a letter first and last)");
const snowflakeFormat = field
	.oneOf(SNOWFLAKE_FORMATS as ["decimal", "base32"])
	.optional()
	.describe(
		"decimal (default), or base32: 13 lowercase characters that sort as the number; a prefix implies base32",
	);
const snowflakePrefix = prefix.describe(
	"A type prefix written before base32 IDs (order → order_0g4b3…); implies base32",
);
const width = (what: string) => decimalInteger.optional().describe(what);
const time = (what: string) => field.text().describe(`${what}: ${TIME_RULE}`);

export const countQuery = input.object({ count });
export const ulidQuery = input.object({ count, format });
export const snowflakeQuery = input.object({
	count,
	format: snowflakeFormat,
	prefix: snowflakePrefix,
});
export const typeidQuery = input.object({
	count,
	prefix: prefix.describe(
		"The TypeIDs' type prefix (TypeID's rule); absent or empty: bare TypeIDs",
	),
});
export const rangeQuery = input.object({
	kind: field
		.oneOf(BOUNDS_KINDS as ["snowflake", "ulid", "uuidv7", "typeid"])
		.describe("The kind of ID"),
	from: time("The window's start (included)"),
	to: time("The window's end (excluded)"),
	workerId: decimalInteger
		.optional()
		.describe("kind=snowflake: bounds of this worker ID's IDs only (any in the layout's range)"),
	format: snowflakeFormat,
	prefix: prefix.describe("kind=typeid, or kind=snowflake (implies base32): the IDs' prefix"),
});
export const historyQuery = input.object({
	minutes: decimalInteger
		.optional()
		.describe("The window: the last 1-1440 minutes (the current one included); default 60"),
});
export const workerIdParam = input.object({
	workerId: decimalInteger.describe("A worker ID this deployment owns (WORKER_IDS)"),
});
const leaseWorkerId = decimalInteger.describe("A worker ID of LEASE_WORKER_IDS");
export const leaseWorkerIdParam = input.object({ workerId: leaseWorkerId });
export const leaseParams = input.object({
	workerId: leaseWorkerId,
	leaseId: field
		.text()
		.describe(
			"The leaseId the acquire answered (32 characters of A-Z a-z 0-9 _ -); keep it secret",
		),
});
export const idParam = input.object({
	id: field
		.text()
		.describe(
			"A Snowflake (decimal, or base32 with a prefix), a ULID, a UUID (any common form) or a TypeID",
		),
});
export const decodeQuery = input.object({
	format: field
		.oneOf(DECODE_FORMATS as ["typeid", "base32"])
		.optional()
		.describe(
			"typeid reads a bare TypeID (a bare 26-character text is otherwise a ULID); base32 a bare 13-character Snowflake. Prefixed forms need neither",
		),
	layout: field
		.oneOf(PRESET_NAMES)
		.optional()
		.describe("Read a Snowflake-like ID under another system's layout"),
	timeBits: width("Explicit layout: bits of the timestamp (with workerBits and sequenceBits)"),
	workerBits: width("Explicit layout: bits of the worker ID"),
	sequenceBits: width("Explicit layout: bits of the sequence"),
	epoch: width(
		"The epoch in Unix ms: of explicit widths (default: the service's), or a preset's own start time",
	),
	timeUnitMs: width("Explicit layout: ms per tick (default: the service's)"),
});

/** The raw value the client sent, for the error message. */
function sent(c: Context<AppEnv>, target: keyof ValidationTargets, field: string): unknown {
	if (target === "param") return c.req.param(field);
	const values = c.req.queries(field) ?? [];
	return values.length === 1 ? values[0] : values;
}

function errorFor(
	c: Context<AppEnv>,
	target: keyof ValidationTargets,
	field: string,
): ServiceError {
	const { config } = c.var;
	const got = sent(c, target, field);
	const path = c.req.path;
	if (field === "prefix") return invalidPrefix(got);
	if (field === "minutes") return invalidHistoryMinutes(got);
	if (field === "kind" || field === "from" || field === "to") return invalidRangeField(field, got);
	if (field === "workerId" && path.startsWith("/leases/")) return invalidLeaseWorkerId(config, got);
	if (field === "workerId" && path === "/range") {
		return new IdError(
			"invalid_worker_id",
			`workerId must be an integer in [0, ${config.layout.maxWorkerId}] (any worker ID of the layout), written once in decimal digits; got ${describeValue(got)}`,
		);
	}
	if (field === "workerId") return invalidWorkerId(config, got);
	if (field === "format" && path.startsWith("/decode")) return invalidDecodeFormat(got);
	if (field === "format" && (path.startsWith("/snowflake") || path === "/range")) {
		return invalidSnowflakeFormat(got);
	}
	if (field === "format") return invalidFormat(got);
	if (field === "layout") return invalidPreset(got);
	if (field in decodeQuery.shape) {
		return new IdError(
			"invalid_layout",
			`${field} must be an integer written once in decimal digits; got ${describeValue(got)}`,
		);
	}
	return invalidRequestCount(config, got, countKindOf(path));
}

/**
 * The count or worker ID out of this deployment's range, if any. The operations
 * check ranges again (RPC shares them); checking here too makes the refusal quote
 * what was sent (`count=99999999999999999999`, `0050000`), not the number it
 * became (1e20, 50000).
 */
function outOfRange(
	c: Context<AppEnv>,
	data: Record<string, unknown>,
): "count" | "workerId" | undefined {
	const { config } = c.var;
	const { count, workerId } = data;
	if (typeof count === "number") {
		if (!countAllowed(config, countKindOf(c.req.path), count)) return "count";
	}
	if (typeof workerId !== "number") return undefined;
	// /range takes any worker ID of the layout (as RPC does): its bounds are arithmetic.
	const allowed =
		c.req.path === "/range"
			? workerId <= config.layout.maxWorkerId
			: config.workerIds.has(workerId);
	return allowed ? undefined : "workerId";
}

function invalidRangeField(field: string, got: unknown): IdError {
	const missing = Array.isArray(got) && got.length === 0;
	const rule = field === "kind" ? `one of ${BOUNDS_KINDS.join(", ")}` : TIME_RULE;
	return new IdError(
		"invalid_range",
		`${field} must be ${rule}, given once${missing ? "; it is missing" : `; got ${describeValue(got)}`}`,
	);
}

/**
 * Reads the request's `target` (its query or path parameters) with `fields`,
 * answering failures with the service's own error codes and messages. A query
 * validator also tells ./middleware/known-query.ts which names its route takes.
 */
export function validate<S extends Shape, Target extends "query" | "param">(
	target: Target,
	fields: Input<S>,
) {
	const read = validator(target, (value, c: Context<AppEnv>) => {
		const result = fields.read(value);
		if (!result.ok) throw errorFor(c, target, result.field ?? "count");
		const field = outOfRange(c, result.value);
		if (field) throw errorFor(c, target, field);
		return result.value;
	}) as MiddlewareHandler<
		AppEnv,
		string,
		{ in: { [K in Target]: InputOf<S> }; out: { [K in Target]: OutputOf<S> } }
	>;
	if (target === "query") {
		const names = Object.keys(fields.shape);
		declareQuery(read, () => names);
	}
	return read;
}
