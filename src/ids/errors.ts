/**
 * Every failure the ID core (and the service around it) can report. The code is
 * the contract: HTTP maps it to a status, RPC callers read it from the message.
 */
export type IdErrorCode =
	| "invalid_worker_id"
	| "invalid_count"
	| "invalid_id"
	| "invalid_format"
	| "invalid_config"
	| "unauthorized"
	| "not_found"
	| "method_not_allowed"
	| "layout_mismatch"
	| "layout_exhausted"
	| "clock_regression"
	| "overloaded"
	| "internal";

export class IdError extends Error {
	override readonly name = "IdError";
	readonly code: IdErrorCode;
	/** What was wrong and what is allowed, without the code prefix. */
	readonly detail: string;
	/** For retryable refusals (clock_regression, overloaded): seconds until a retry can succeed. */
	readonly retryAfterSeconds: number | undefined;

	constructor(code: IdErrorCode, detail: string, retryAfterSeconds?: number) {
		// The message starts with the code because only the message survives an
		// RPC boundary (own properties of a thrown error are dropped).
		super(`${code}: ${detail}`);
		this.code = code;
		this.detail = detail;
		this.retryAfterSeconds = retryAfterSeconds;
	}
}
