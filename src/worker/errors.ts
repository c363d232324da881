import type { Context } from "hono";
import { IdError, type IdErrorCode } from "../ids/errors";

export const STATUS_OF: Record<IdErrorCode, 400 | 401 | 404 | 405 | 500 | 503> = {
	invalid_worker_id: 400,
	invalid_count: 400,
	invalid_id: 400,
	invalid_format: 400,
	unauthorized: 401,
	not_found: 404,
	method_not_allowed: 405,
	invalid_config: 500,
	layout_mismatch: 500,
	layout_exhausted: 500,
	internal: 500,
	clock_regression: 503,
	overloaded: 503,
};

export interface ErrorBody {
	error: { code: IdErrorCode; message: string };
}

/** Any thrown value as an IdError; unknown failures become `internal` with no details. */
export function asIdError(error: unknown): IdError {
	if (error instanceof IdError) return error;
	return new IdError("internal", "an internal error occurred; it has been logged");
}

/** The one error shape every route answers with. */
export function errorResponse(c: Context, thrown: unknown): Response {
	const error = asIdError(thrown);
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
