/**
 * How a Durable Object's refusals cross to its caller: as values, because the own
 * properties of a thrown error (its code, its Retry-After) do not survive RPC. The
 * Snowflake and sequence objects answer `{ ok: true, … }` or an `ObjectFailure`,
 * and their callers call them through `callWithRetry` (one retry and error policy).
 *
 *   try {
 *     return { ok: true, runs: generator.nextRuns(count) };
 *   } catch (error) {
 *     return objectFailure(error); // an IdError as a value; anything else is rethrown (a bug)
 *   }
 */
import { IdError } from "../../ids/errors";
import { type ServiceErrorCode, STATUS_OF, serviceError } from "../errors";

/** A refusal. Errors travel as values: own properties of a thrown error do not cross RPC. */
export type ObjectFailure = {
	ok: false;
	code: ServiceErrorCode;
	detail: string;
	retryAfterSeconds?: number | undefined;
	/** `no_free_worker_id` of a free worker ID whose next span would start this far ahead. */
	startsInMs?: number | undefined;
};

/** An `IdError` as the value an object answers; any other error is rethrown (a bug, logged by the caller). */
export function objectFailure(error: unknown): ObjectFailure {
	if (error instanceof IdError) {
		const { startsInMs } = error as { startsInMs?: number };
		return {
			ok: false,
			code: error.code as ServiceErrorCode,
			detail: error.detail,
			retryAfterSeconds: error.retryAfterSeconds,
			...(startsInMs === undefined ? {} : { startsInMs }),
		};
	}
	throw error;
}

/** Thrown by an object of an earlier version asked for a method it does not have. */
const NOT_IMPLEMENTED = /RPC receiver does not implement/;

/**
 * Calls an object (a fresh stub from `stub` each attempt) and answers what it
 * answered, its refusals included (as values). A call that threw: see `failedCall`.
 * A refusal with a code this version does not know is `503 unavailable` (an object
 * of a later version). `subject` names the object ("worker ID 5") in messages,
 * `advice` ends the overloaded one.
 */
export async function callWithRetry<Stub, T extends { ok: true } | ObjectFailure>(
	stub: () => Stub,
	call: (stub: Stub) => Promise<T>,
	subject: string,
	advice: string,
): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		const made = stub(); // outside the try: a failure here is ours
		let result: T;
		try {
			result = await call(made);
		} catch (error) {
			const failed = failedCall(error, attempt, subject, advice);
			if (failed === "retry") continue;
			throw failed;
		}
		if (!result.ok && !(result.code in STATUS_OF)) {
			throw serviceError(
				"unavailable",
				`${subject}'s object runs another version of the service (it answered ${result.code}); retry shortly`,
				1,
			);
		}
		return result;
	}
}

/**
 * What an object call that threw means, for its caller: "retry" (once: `attempt` 1,
 * on a fresh stub) when the platform marks it `.retryable`, else the error to throw.
 * Marked `.overloaded`: `503 overloaded` at once (retrying adds load). An object of an
 * earlier version (mid-deployment) without the method: `503 unavailable`. Thrown by
 * the object's own code: itself (a bug, answered `internal` and logged). The
 * platform's (reset, restarting, broken, unreachable): `503 unavailable`, transient.
 * `subject` names the object ("worker ID 5"), `advice` ends the overloaded message.
 */
function failedCall(
	error: unknown,
	attempt: number,
	subject: string,
	advice: string,
): "retry" | unknown {
	const flags = error as { overloaded?: boolean; retryable?: boolean; remote?: boolean };
	if (flags.overloaded) {
		return serviceError("overloaded", `${subject} is overloaded; retry shortly${advice}`, 1);
	}
	if (flags.retryable && attempt < 2) return "retry";
	if (flags.remote && error instanceof TypeError && NOT_IMPLEMENTED.test(error.message)) {
		return serviceError(
			"unavailable",
			`${subject}'s object runs an earlier version of the service, which cannot do this yet; retry shortly`,
			5,
		);
	}
	if (flags.remote) return error;
	return serviceError(
		"unavailable",
		`${subject}'s object could not answer (it is restarting or unreachable); retry shortly`,
		1,
	);
}
