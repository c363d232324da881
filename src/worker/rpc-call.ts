/**
 * One IdService RPC call: runs the operation, turns any failure into a plain Error
 * whose message starts with its code (only the message crosses the RPC boundary),
 * and writes one JSON log line like an HTTP request's (REQUEST_LOG), with the RPC
 * method in place of the route and the status the same failure would have over HTTP:
 *
 *   {"rpc":"snowflake","status":200,"kind":"snowflake","count":5,"workerId":3,
 *    "source":"pool","durationMs":0}
 *
 * Never a token or an ID.
 */
import { type ServiceErrorCode, STATUS_OF } from "../api";
import { IdError } from "../ids/errors";
import { configFrom } from "./config";
import type { RequestNote } from "./middleware/request-log";

/** What a call asks for, as its log line names it (numbers only when they are numbers). */
export function asked(kind: string, options: { workerId?: unknown; count?: unknown }): RequestNote {
	const note: RequestNote = { kind };
	if (Number.isSafeInteger(options?.workerId)) note.workerId = options.workerId as number;
	if (Number.isSafeInteger(options?.count)) note.count = options.count as number;
	return note;
}

/**
 * An error's message for RPC: `code: detail`, and for retryable refusals a last
 * `(retry after N s)`, the `Retry-After` of the HTTP answer (`idRetryAfter` in the
 * client reads it back).
 */
function rpcMessage(error: IdError<string>): string {
	const seconds = error.retryAfterSeconds;
	return seconds === undefined
		? error.message
		: `${error.message} (retry after ${Math.max(1, seconds)} s)`;
}

/** REQUEST_LOG; on when the config cannot be read (its `invalid_config` is worth a line). */
function logging(env: Env): boolean {
	try {
		return configFrom(env).requestLog;
	} catch {
		return true;
	}
}

/**
 * Runs `operation` as the RPC method `method`; `note` adds to its log line what
 * only the operation learns (the pool's source). Rejects with a plain Error whose
 * message starts with the code; an unexpected failure is `internal` and logged.
 */
export async function rpcCall<T>(
	env: Env,
	method: string,
	asking: RequestNote,
	operation: (note: (more: RequestNote) => void) => T | Promise<T>,
): Promise<T> {
	const started = Date.now();
	let line: RequestNote = { ...asking };
	let error: ServiceErrorCode | undefined;
	try {
		const result = await operation((more) => {
			line = { ...line, ...more };
		});
		const { workerId, ids } = result as { workerId?: unknown; ids?: unknown };
		if (typeof workerId === "number") line.workerId = workerId;
		if (Array.isArray(ids)) line.count = ids.length;
		return result;
	} catch (thrown) {
		if (thrown instanceof IdError) {
			error = thrown.code as ServiceErrorCode;
			throw new Error(rpcMessage(thrown));
		}
		error = "internal";
		console.error("internal error in IdService", thrown);
		throw new Error("internal: an internal error occurred; it has been logged");
	} finally {
		if (logging(env)) {
			const status = error ? STATUS_OF[error] : 200;
			const durationMs = Date.now() - started;
			console.log(JSON.stringify({ rpc: method, status, ...line, durationMs, error }));
		}
	}
}
