/**
 * The refusals of `SnowflakeGenerator` (src/ids/snowflake/generator.ts), each documented
 * by when it is returned. Retryable ones carry the seconds until a retry can succeed.
 */
import { IdError } from "../errors";
import type { SnowflakeLayout } from "./layout";

/** Returned when a worker ID is outside the layout. */
export function invalidWorkerId(layout: SnowflakeLayout, got: number): IdError {
	return new IdError(
		"invalid_worker_id",
		`workerId must be an integer in [0, ${layout.maxWorkerId}], got ${got}`,
	);
}

/**
 * The restored mark if it is a whole tick (or absent). Returned (at construction)
 * when it is not: `internal`, since storage handed back what no generator writes,
 * and a generator restored from it would spin (NaN) or could repeat IDs.
 */
export function wholeMark(mark: number | undefined): number | undefined {
	if (mark === undefined || (Number.isSafeInteger(mark) && mark >= 0)) return mark;
	throw new IdError(
		"internal",
		`the restored mark must be a whole tick (an integer >= 0) as an earlier life of this worker ID persisted it; got ${mark}`,
	);
}

/** The restored lease if it is a finite number of ms >= 0 (or absent); else `internal`, as for the mark. */
export function finiteLease(leaseMs: number | undefined): number | undefined {
	if (leaseMs === undefined || (Number.isFinite(leaseMs) && leaseMs >= 0)) return leaseMs;
	throw new IdError(
		"internal",
		`the restored lease must be a finite number of ms >= 0 as an earlier life of this worker ID persisted it; got ${leaseMs}`,
	);
}

/** Returned when a count is not a positive integer. */
export function invalidCount(got: number): IdError {
	return new IdError("invalid_count", `count must be a positive integer, got ${got}`);
}

/** Returned when the clock reads before the layout's epoch (a misconfigured epoch). */
export function beforeEpoch(layout: SnowflakeLayout, now: number): IdError {
	return new IdError(
		"invalid_config",
		`the clock (${new Date(now).toISOString()}) is before the Snowflake epoch (${new Date(layout.epoch).toISOString()})`,
	);
}

/** Returned when the tick to issue in is past the layout's range. */
export function layoutExhausted(layout: SnowflakeLayout): IdError {
	return new IdError(
		"layout_exhausted",
		`the Snowflake layout ran out of time at ${new Date(layout.exhaustsAt).toISOString()}; configure a later epoch or more time bits`,
	);
}

/**
 * Returned when a count needs more ticks than one call may wait for from any
 * state: a retry of the same count can never succeed, so it is a 4xx, not a 503.
 */
export function countBeyondWaitBudget(maxCount: number, maxWaitMs: number, got: number): IdError {
	return new IdError(
		"invalid_count",
		`count must be at most ${maxCount} for this layout: more IDs need more ticks than one call may wait for (${maxWaitMs} ms); got ${got}`,
	);
}

/**
 * Returned when the clock is further behind the last issued tick than borrowing
 * covers and waiting that out would take longer than allowed.
 */
export function clockRegression(behindMs: number, waitMs: number, allowedMs: number): IdError {
	return new IdError(
		"clock_regression",
		`the clock is ${behindMs} ms behind the last issued ID; waiting ${waitMs} ms is more than the ${allowedMs} ms this service waits out; retry later`,
		Math.ceil(waitMs / 1000),
	);
}

/**
 * Returned when the IDs asked for need the clock to move on by more than the
 * call's wait budget has left (borrowed time used up, a stuck clock, or a long
 * queue ahead).
 */
export function overloaded(workerId: number, waitMs: number, maxWaitMs: number): IdError {
	return new IdError(
		"overloaded",
		`worker ID ${workerId} cannot issue these IDs in time: they need its clock to move ${waitMs} ms more, past the ${maxWaitMs} ms one call may wait (queueing included); retry shortly, ask for fewer IDs or spread load over more worker IDs`,
		Math.ceil(waitMs / 1000),
	);
}

/** Returned when a bounded mark store answers a mark below the tick it was asked to cover. */
export function markBelowNeeded(stored: unknown, needed: number): IdError {
	return new IdError(
		"internal",
		`the mark store answered ${String(stored)}, not a tick at or above ${needed}, the tick about to be issued`,
	);
}
