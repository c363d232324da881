/**
 * The rules a request's values must meet, one module behind both transports: the
 * count (MAX_BATCH, or MAX_BLOCK_COUNT for blocks, and what one object call can
 * issue), the worker ID (WORKER_IDS) and the ULID format. HTTP validation
 * (./validation.ts, ./json-body.ts) and the operations (./operations.ts) both ask
 * here, so a refusal reads the same wherever it is made.
 */
import type { UlidFormat } from "../api";
import { type CountRule, checkCount, describeValue, IdError, invalidCount } from "../ids/errors";
import { maxIdsPerCall } from "../ids/snowflake-options";
import type { Config } from "./config";
import { type ServiceError, serviceError } from "./errors";

/**
 * Who asked, for the wording of a refusal: HTTP callers write numbers as text in a
 * URL ("written in decimal digits"); RPC callers pass JavaScript values ("a number").
 */
export type Via = "http" | "rpc";

/** The most IDs one object call can issue within MAX_WAIT_MS (a slow layout allows few). */
function perCallLimit(config: Config): number {
	return maxIdsPerCall(config.layout, config.maxWaitMs, config.maxBorrowMs);
}

/**
 * What a count counts: IDs (`/snowflake`, `/ulid`, … up to MAX_BATCH) or the IDs
 * of a blocks request (up to MAX_BLOCK_COUNT).
 */
export type CountKind = "ids" | "blocks";

/** The kind an HTTP path counts: the blocks routes end in `/blocks`. */
export function countKindOf(path: string): CountKind {
	return path.endsWith("/blocks") ? "blocks" : "ids";
}

/** The longest a blocks request may keep its object issuing (ticks it needs × tick length). */
const MAX_BLOCK_WAIT_MS = 1_000;

/**
 * The most a request may ask for. IDs: MAX_BATCH. Blocks: MAX_BLOCK_COUNT, no
 * more than fit in 1 s of ticks. Either: no more than one object call can issue
 * within MAX_WAIT_MS.
 */
function maxCount(config: Config, kind: CountKind): number {
	if (kind === "ids") return Math.min(config.maxBatch, perCallLimit(config));
	const { layout } = config;
	const ticks = Math.max(1, Math.floor(MAX_BLOCK_WAIT_MS / layout.timeUnitMs));
	return Math.min(config.maxBlockCount, ticks * (layout.maxSequence + 1), perCallLimit(config));
}

/** The counts a request may ask for, [1, max], worded for its transport. */
export function countRule(config: Config, kind: CountKind = "ids", via: Via = "http"): CountRule {
	const max = maxCount(config, kind);
	if (via === "rpc") return { min: 1, max };
	const spelling = "written once in decimal digits";
	return { min: 1, max, spelling: kind === "blocks" ? `for blocks, ${spelling}` : spelling };
}

/** A request's count: 1 when absent, else checked against `countRule`. */
export function requestCount(
	config: Config,
	count: unknown,
	via: Via = "http",
	kind: CountKind = "ids",
): number {
	if (count === undefined) return 1;
	const rule = countRule(config, kind, via);
	if (via === "rpc" && typeof count !== "number") {
		if (kind === "blocks") throw invalidCount(rule, count);
		throw new IdError(
			"invalid_count",
			`count must be a number, an integer in [1, ${rule.max}]; got ${describeValue(count)} (${typeof count})`,
		);
	}
	return checkCount(count, rule);
}

/** Whether a count parsed from a URL is one `countRule` allows (else `invalidRequestCount`). */
export function countAllowed(config: Config, kind: CountKind, count: number): boolean {
	const { min, max } = countRule(config, kind);
	return count >= min && count <= max;
}

/** `invalid_count` for a count written in a URL, quoting what was sent. */
export function invalidRequestCount(
	config: Config,
	got: unknown,
	kind: CountKind = "ids",
): IdError {
	return invalidCount(countRule(config, kind), got);
}

/** `invalid_count` for a count in a JSON body, which must be a JSON number. */
export function invalidBodyCount(config: Config, got: unknown, kind: CountKind): ServiceError {
	const { max } = countRule(config, kind, "rpc");
	return serviceError(
		"invalid_count",
		`count in a JSON body must be a number, an integer in [1, ${max}]; got ${describeValue(got)}`,
	);
}

/** A worker ID this deployment owns (WORKER_IDS, within the layout's range). */
export function checkWorkerId(config: Config, workerId: unknown, via: Via = "http"): number {
	if (
		typeof workerId === "number" &&
		Number.isInteger(workerId) &&
		config.workerIds.has(workerId)
	) {
		return workerId;
	}
	throw invalidWorkerId(config, workerId, via);
}

export function invalidWorkerId(config: Config, got: unknown, via: Via = "http"): IdError {
	const max = config.layout.maxWorkerId;
	const owned = config.workerIds;
	const allowed =
		owned.size === max + 1
			? `an integer in [0, ${max}]`
			: `one of the worker IDs this deployment owns, WORKER_IDS = ${owned},`;
	const detail =
		via === "rpc"
			? typeof got === "number"
				? `workerId must be ${allowed.replace(/,$/, "")}; got ${describeValue(got)}`
				: `workerId must be a number, ${allowed.replace(/,$/, "")}; got ${describeValue(got)} (${typeof got})`
			: `workerId must be ${allowed} written in decimal digits; got ${describeValue(got)}`;
	return new IdError("invalid_worker_id", detail);
}

export function checkFormat(format: unknown): UlidFormat {
	if (format === undefined || format === "ulid" || format === "uuid") return format ?? "ulid";
	throw invalidFormat(format);
}

/** `invalid_format` for a ULID route's `format` (other routes name their own forms). */
export function invalidFormat(got: unknown): ServiceError {
	return serviceError(
		"invalid_format",
		`format must be "ulid" or "uuid", given once; got ${describeValue(got)}`,
	);
}

/** The longest history window, in minutes: the day every object keeps. */
export const MAX_HISTORY_MINUTES = 1440;

/** `minutes` of the history routes is not an integer in [1, MAX_HISTORY_MINUTES]. */
export function invalidHistoryMinutes(got: unknown): ServiceError {
	return serviceError(
		"invalid_request",
		`minutes must be an integer in [1, ${MAX_HISTORY_MINUTES}] (the last day, minute by minute), written once in decimal digits; got ${describeValue(got)}`,
	);
}
