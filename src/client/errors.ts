/**
 * The clients' errors: `IdsError`, which every `idsClient` call rejects with
 * (the service's codes, and the client's own for failures with no answer), and
 * the readers `idErrorCode`, `idRetryAfter` and `idRequestId`, which also read
 * the plain Error an IdService RPC method rejects with.
 */
import type { ServiceErrorCode } from "../wire";

/**
 * Codes of failures the client sees without an answer from the service:
 * - `network_error`: every attempt's fetch rejected (DNS, refused connection,
 *   TLS); the last rejection is the error's `cause`.
 * - `timeout`: no answer within `timeoutMs` (retries and their waits included).
 * - `aborted`: the caller's `AbortSignal` aborted; its reason is the `cause`.
 *   A leased generator's calls after `close()` or its signal reject with it too.
 * - `lease_expired`: a leased generator reached the end of its span and no
 *   renewal came within its `maxWaitMs` (createLeasedGenerator).
 */
export type ClientErrorCode = "network_error" | "timeout" | "aborted" | "lease_expired";

/** Every code an `IdsError` can carry. */
export type IdsErrorCode = ServiceErrorCode | ClientErrorCode;

/**
 * Thrown by every `idsClient` method (and `createIdPool` on a timeout): when the
 * service answers with an error; when an answer is not the service's JSON (an
 * HTML error page of a proxy: the code then follows the status, e.g. 429
 * `rate_limited`, 502-504 `unavailable`); when the client refuses a call before
 * sending it (`invalid_worker_id`, `invalid_id`) or is misconfigured
 * (`invalid_config`); and when no answer came (`network_error`, `timeout`,
 * `aborted`).
 */
export class IdsError extends Error {
	override readonly name = "IdsError";
	/**
	 * The `X-Request-Id` of the answer this error comes from: the ID the service's
	 * log line of that request carries (give it to whoever runs the service).
	 * `undefined` when no answer came, or the answer had none (a proxy's page).
	 */
	readonly requestId: string | undefined;
	constructor(
		/** The service's error code (e.g. `invalid_count`, `overloaded`) or the client's own (`ClientErrorCode`). */
		readonly code: IdsErrorCode,
		message: string,
		/**
		 * The HTTP status of the answer, or the status the service gives the same
		 * refusal (400 for a call refused before sending it); `undefined` when no
		 * answer came (`network_error`, `timeout`, `aborted`, `invalid_config`).
		 */
		readonly status: number | undefined,
		/** Seconds to wait before retrying, for 503 and 429 answers (`Retry-After`). */
		readonly retryAfter: number | undefined,
		options?: { cause?: unknown; requestId?: string | undefined },
	) {
		super(
			`${code}: ${message}`,
			options?.cause === undefined ? undefined : { cause: options.cause },
		);
		this.requestId = options?.requestId;
	}
}

/**
 * The error code of a failed call, from either client: an `IdsError` (HTTP) or
 * the plain Error an IdService RPC method rejects with (its message starts with
 * the code, because only the message crosses the RPC boundary). `undefined` for
 * anything else.
 *
 * @example
 * ```ts
 * try {
 *   await env.IDS.snowflake({ count: 0 });
 * } catch (error) {
 *   if (idErrorCode(error) === "invalid_count") return new Response("bad count", { status: 400 });
 *   throw error;
 * }
 * ```
 */
export function idErrorCode(error: unknown): IdsErrorCode | undefined {
	if (error instanceof IdsError) return error.code;
	if (error instanceof Error) {
		const match = /^([a-z_]+): /.exec(error.message);
		return match?.[1] as IdsErrorCode | undefined;
	}
	return undefined;
}

/**
 * Seconds to wait before retrying a failed call, from either client: an
 * `IdsError`'s `retryAfter` (the `Retry-After` header), or the `(retry after N s)`
 * that ends the message of a retryable RPC rejection (`overloaded`,
 * `unavailable`, `clock_regression`, `rate_limited`). `undefined` when the call
 * should not simply be retried.
 *
 * @example
 * ```ts
 * try {
 *   await env.IDS.snowflake({ workerId: 7 });
 * } catch (error) {
 *   const seconds = idRetryAfter(error); // 1 for a restarting object
 *   if (seconds !== undefined) await scheduler.wait(seconds * 1000);
 * }
 * ```
 */
export function idRetryAfter(error: unknown): number | undefined {
	if (error instanceof IdsError) return error.retryAfter;
	if (error instanceof Error) {
		const match = /\(retry after ([0-9]+) s\)$/.exec(error.message);
		return match ? Number(match[1]) : undefined;
	}
	return undefined;
}

/**
 * The service's request ID of a failed call, from either client: an `IdsError`'s
 * `requestId` (the answer's `X-Request-Id`), or the `(request …)` an IdService RPC
 * rejection's message carries. The service's log line of that call has the same
 * `requestId`. `undefined` when there is none (no answer came).
 *
 * @example
 * ```ts
 * try {
 *   await env.IDS.snowflake({ workerId: 7 });
 * } catch (error) {
 *   console.error("edge-ids refused", idErrorCode(error), "request", idRequestId(error));
 * }
 * ```
 */
export function idRequestId(error: unknown): string | undefined {
	if (error instanceof IdsError) return error.requestId;
	if (error instanceof Error) {
		return /\(request ([A-Za-z0-9-]+)\)(?: \(retry after [0-9]+ s\))?$/.exec(error.message)?.[1];
	}
	return undefined;
}
