/**
 * The service's errors: the core's codes (src/ids/errors.ts) plus the ones only
 * the service can raise (auth, routing, its config and storage), each with its
 * HTTP status. Adding a code is one line in `STATUS_OF`.
 *
 *   throw serviceError("not_found", "no route /nope; see /health, /layout, …");
 *   // → 404 {"error":{"code":"not_found","message":"no route /nope; …"}}
 */
import type { Context } from "hono";
import type { ClientErrorStatusCode, ServerErrorStatusCode } from "hono/utils/http-status";
import { IdError, type IdErrorCode } from "../ids/errors";

type ErrorStatus = ClientErrorStatusCode | ServerErrorStatusCode;

/** Every code the service answers with, and its status. The core's codes must all be here. */
export const STATUS_OF = {
	invalid_worker_id: 400,
	invalid_count: 400,
	invalid_id: 400,
	/** Returned when `format` is not "ulid" or "uuid", or RPC options are not an object. */
	invalid_format: 400,
	/** Returned when API_TOKEN is set and the request has no valid bearer token. */
	unauthorized: 401,
	/** Returned for a path no route serves (or a URL over 4,096 characters). */
	not_found: 404,
	/** Returned for a known path with a method it does not take; `Allow` lists those it does. */
	method_not_allowed: 405,
	/** Returned when a caller exceeds the RATE_LIMITER binding's budget; `Retry-After` says when to retry. */
	rate_limited: 429,
	invalid_config: 500,
	/** Returned when a worker ID's object issued IDs under another Snowflake layout. */
	layout_mismatch: 500,
	layout_exhausted: 500,
	internal: 500,
	clock_regression: 503,
	overloaded: 503,
} as const satisfies Record<IdErrorCode, ErrorStatus> & Record<string, ErrorStatus>;

/** A code the service can answer with: the core's and its own. */
export type ServiceErrorCode = keyof typeof STATUS_OF;
/** An `IdError` that may carry any service code. */
export type ServiceError = IdError<ServiceErrorCode>;

/** An error with one of the service's codes (the core's `IdError` takes only the core's). */
export function serviceError(
	code: ServiceErrorCode,
	detail: string,
	retryAfterSeconds?: number,
): ServiceError {
	return new IdError<ServiceErrorCode>(code, detail, retryAfterSeconds);
}

export interface ErrorBody {
	error: { code: ServiceErrorCode; message: string };
}

/** Any thrown value as a service error; unknown failures become `internal` with no details. */
export function asServiceError(error: unknown): ServiceError {
	if (error instanceof IdError) return error as ServiceError;
	return serviceError("internal", "an internal error occurred; it has been logged");
}

/** The one error shape every route answers with. */
export function errorResponse(c: Context, thrown: unknown): Response {
	const error = asServiceError(thrown);
	if (error.code === "internal") {
		console.error("internal error", c.get("requestId"), thrown);
	}
	const headers: Record<string, string> = { "Cache-Control": "no-store" };
	if (error.retryAfterSeconds !== undefined) {
		headers["Retry-After"] = String(Math.max(1, error.retryAfterSeconds));
	}
	const body: ErrorBody = { error: { code: error.code, message: error.detail } };
	return c.json(body, STATUS_OF[error.code], headers);
}
