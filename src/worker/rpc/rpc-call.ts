/**
 * One IdService RPC call: runs the operation, turns any failure into a plain Error
 * whose message starts with its code (only the message crosses the RPC boundary),
 * and writes one JSON log line like an HTTP request's (REQUEST_LOG), with the RPC
 * method in place of the route and the status the same failure would have over HTTP:
 *
 *   {"rpc":"snowflake","requestId":"…","status":200,"kind":"snowflake","count":5,
 *    "workerId":3,"source":"pool","durationMs":0}
 *
 * Never a token or an ID. The request ID is made per call (RPC carries no headers)
 * and ends a failure's message too, `(request …)`, so a caller can name the line.
 * Its arguments are read through the operation's contract (`rpcArgs`; `leaseRefOf`
 * for the lease a holder passes back).
 */

import type { LeaseRef, ServiceErrorCode } from "../../wire";
import { type Config, configFrom } from "../config/config";
import { type Contract, type ContractInput, readInput, shown } from "../contracts/fields";
import { limitsOf } from "../contracts/limits";
import { asServiceError, serviceError, statusOf } from "../errors";
import type { RequestNote } from "../request-note";

/**
 * An RPC method's arguments read through its operation's contract: `options` (an
 * object of named values, or nothing) and `fixed`, the values of positional arguments
 * (`decode(id, …)`, `stats(workerId)`).
 */
export function rpcArgs<C extends Contract>(
	of: C,
	config: Config,
	options: unknown,
	fixed: Record<string, unknown> = {},
): ContractInput<C> {
	if (options === undefined) options = {};
	if (typeof options !== "object" || options === null || Array.isArray(options)) {
		throw serviceError(
			"invalid_request",
			`the options must be an object such as { count: 10 }; got ${shown(options)}`,
		);
	}
	return readInput(of, limitsOf(config), options as Record<string, unknown>, fixed);
}

/**
 * An error's message for RPC: `code: detail`, then `(request <id>)`, the call's log
 * line's request ID, and for retryable refusals a last `(retry after N s)`, the
 * `Retry-After` of the HTTP answer (`idErrorCode`, `idRequestId` and `idRetryAfter`
 * in the client read them back).
 */
function rpcMessage(codeAndDetail: string, requestId: string, retryAfterSeconds?: number): string {
	const retry =
		retryAfterSeconds === undefined ? "" : ` (retry after ${Math.max(1, retryAfterSeconds)} s)`;
	return `${codeAndDetail} (request ${requestId})${retry}`;
}

/**
 * Runs `operation` as the RPC method `method`, with the config resolved once for
 * the call; `note` adds to its log line what only the operation learns (the pool's source). Rejects with a plain Error whose
 * message starts with the code; an unexpected failure is `internal` and logged.
 */
export async function rpcCall<T>(
	env: Env,
	method: string,
	asking: RequestNote,
	operation: (config: Config, note: (more: RequestNote) => void) => T | Promise<T>,
): Promise<T> {
	const started = Date.now();
	const requestId = crypto.randomUUID();
	let line: RequestNote = { ...asking };
	let error: ServiceErrorCode | undefined;
	let status = 200;
	let config: Config | undefined;
	try {
		config = configFrom(env);
		const result = await operation(config, (more) => {
			line = { ...line, ...more };
		});
		const { workerId, ids } = (result ?? {}) as { workerId?: unknown; ids?: unknown };
		if (typeof workerId === "number") line.workerId = workerId;
		if (Array.isArray(ids)) line.count = ids.length;
		return result;
	} catch (thrown) {
		const failure = asServiceError(thrown);
		error = failure.code;
		status = statusOf(failure);
		if (failure === thrown) {
			throw new Error(rpcMessage(failure.message, requestId, failure.retryAfterSeconds));
		}
		console.error("internal error in IdService", requestId, thrown);
		throw new Error(
			rpcMessage("internal: an internal error occurred; it has been logged", requestId),
		);
	} finally {
		// REQUEST_LOG; on when the config could not be read, so its `invalid_config` is logged.
		if (config ? config.requestLog : true) {
			const durationMs = Date.now() - started;
			console.log(JSON.stringify({ rpc: method, requestId, status, ...line, durationMs, error }));
		}
	}
}

/**
 * A lease reference's two fields. A holder passes the grant it was given (a LeaseRef
 * with more fields: its span, its layout), so the rest is not refused as unknown.
 */
export function leaseRefOf(lease: unknown): { workerId: unknown; leaseId: unknown } {
	const ref = (typeof lease === "object" && lease !== null ? lease : {}) as Partial<LeaseRef>;
	return { workerId: ref.workerId, leaseId: ref.leaseId };
}
