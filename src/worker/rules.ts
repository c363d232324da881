/**
 * The rules a request's values must meet, one module behind both transports: the
 * count (MAX_BATCH, or MAX_BLOCK_COUNT for blocks, and what one object call can
 * issue), the worker ID (WORKER_IDS) and the ULID format. HTTP validation
 * (./validation.ts, ./json-body.ts) and the operations (./operations.ts) both ask
 * here, so a refusal reads the same wherever it is made.
 */
import type { UlidFormat } from "../api";
import { type CountRule, checkCount, describeValue, IdError, invalidCount } from "../ids/errors";
import { maxIdsPerCall } from "../ids/snowflake";
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

/** The counts a request may ask for: [1, MAX_BATCH], and no more than one call can issue. */
export function countRule(config: Config, via: Via = "http"): CountRule {
	const max = Math.min(config.maxBatch, perCallLimit(config));
	return via === "rpc"
		? { min: 1, max }
		: { min: 1, max, spelling: "written once in decimal digits" };
}

/** A request's count: 1 when absent, else checked against `countRule`. */
export function requestCount(config: Config, count: unknown, via: Via = "http"): number {
	if (count === undefined) return 1;
	if (via === "rpc" && typeof count !== "number") {
		const { max } = countRule(config, via);
		throw new IdError(
			"invalid_count",
			`count must be a number, an integer in [1, ${max}]; got ${describeValue(count)} (${typeof count})`,
		);
	}
	return checkCount(count, countRule(config, via));
}

export function invalidRequestCount(config: Config, got: unknown): IdError {
	return invalidCount(countRule(config), got);
}

/** The longest a blocks request may keep its object issuing (ticks it needs × tick length). */
const MAX_BLOCK_WAIT_MS = 1_000;

/**
 * The counts a blocks request may ask for: MAX_BLOCK_COUNT, no more than fit in
 * 1 s of ticks, and no more than one object call can issue within MAX_WAIT_MS.
 */
export function blockCountRule(config: Config, via: Via = "http"): CountRule {
	const { layout } = config;
	const ticks = Math.max(1, Math.floor(MAX_BLOCK_WAIT_MS / layout.timeUnitMs));
	const max = Math.min(
		config.maxBlockCount,
		ticks * (layout.maxSequence + 1),
		perCallLimit(config),
	);
	return via === "rpc"
		? { min: 1, max }
		: { min: 1, max, spelling: "for blocks, written once in decimal digits" };
}

/** A blocks request's count: 1 when absent, else checked against `blockCountRule`. */
export function requestBlockCount(config: Config, count: unknown, via: Via = "http"): number {
	if (count === undefined) return 1;
	const rule = blockCountRule(config, via);
	if (via === "rpc" && typeof count !== "number") throw invalidCount(rule, count);
	return checkCount(count, rule);
}

export function invalidBlockCount(config: Config, got: unknown): IdError {
	return invalidCount(blockCountRule(config), got);
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
