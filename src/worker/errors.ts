/**
 * The service's errors: the core's codes (src/ids/errors.ts) plus the ones only
 * the service can raise (auth, routing, its config and storage), each with its
 * HTTP status. Adding a code is one line in `STATUS_OF` (src/wire/index.ts).
 *
 *   throw serviceError("not_found", "no route /nope; see /health, /layout, …");
 *   // → 404 {"error":{"code":"not_found","message":"no route /nope; …"}}
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ClientErrorStatusCode, ServerErrorStatusCode } from "hono/utils/http-status";
import { IdError } from "../ids/errors";
import { type ErrorBody, type ServiceErrorCode, STATUS_OF } from "../wire";

type ErrorStatus = ClientErrorStatusCode | ServerErrorStatusCode;

// The table and the codes are the wire format (src/wire/index.ts, shared with the clients);
// here they must also be statuses Hono knows.
STATUS_OF satisfies Record<ServiceErrorCode, ErrorStatus>;

export type { ServiceErrorCode };
export { STATUS_OF };

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

/**
 * `error` answered under `status` rather than its code's (`STATUS_OF`): one code may
 * mean two things by route (a create of a retired sequence's name is a conflict, 409;
 * every other call on it finds it gone, 410).
 */
export function withStatus(error: ServiceError, status: ErrorStatus): ServiceError {
	return Object.assign(error, { status });
}

/** The status `error` is answered with: its own (`withStatus`), else its code's. */
export function statusOf(error: ServiceError): ErrorStatus {
	return (error as { status?: ErrorStatus }).status ?? STATUS_OF[error.code];
}

/**
 * Any thrown value as a service error; unknown failures, and an `IdError` whose code
 * has no status (a bug: test/worker/error-codes.test.ts lists every code), become
 * `internal` with no details.
 */
export function asServiceError(error: unknown): ServiceError {
	if (error instanceof IdError) {
		if (Object.hasOwn(STATUS_OF, error.code)) return error as ServiceError;
		return serviceError("internal", "an internal error occurred; it has been logged");
	}
	// Hono's JSON validator refuses a body it cannot parse before any hook runs.
	if (error instanceof HTTPException && error.status === 400) {
		return serviceError(
			"invalid_body",
			'the request body is not valid JSON; send a JSON object such as {"count": 5}, or no body',
		);
	}
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
	return c.json(body, statusOf(error), headers);
}
