/**
 * Calls to the sequence objects (./sequence-object.ts): a name's stub, under the retry
 * and error policy Snowflake objects have (./object-answers.ts), with a refusal
 * thrown as the service error it names. The sequence operations
 * (../operations/sequences.ts) are its only callers.
 *
 *   const issued = await callSequence<IssuedResult>(env, "orders", (stub) => stub.next("orders", 2));
 *   // { ok: true, first: "41", … }, or thrown: unknown_sequence, sequence_exhausted, 503 unavailable …
 */
import { serviceError } from "../errors";
import { callWithRetry, type ObjectFailure } from "./object-answers";
import type { SequenceStub } from "./object-protocol";

/**
 * The sequence's object's answer, or its refusal thrown. A call the platform marks
 * retryable is tried once more: that may leave a gap, never a number twice (a lost
 * call's numbers were stored before it could answer).
 */
export async function callSequence<T extends { ok: true } | ObjectFailure>(
	env: Env,
	name: string,
	call: (stub: SequenceStub) => Promise<T>,
): Promise<Extract<T, { ok: true }>> {
	return callSequenceObject(
		env,
		name,
		call,
		`sequence "${name}"`,
		", or create a pooled sequence for rates one object cannot serve",
	);
}

/** `call` on the object of the sequence namespace named `objectName` (a sequence's, or the catalog's). */
export async function callSequenceObject<T extends { ok: true } | ObjectFailure>(
	env: Env,
	objectName: string,
	call: (stub: SequenceStub) => Promise<T>,
	subject: string,
	advice: string,
): Promise<Extract<T, { ok: true }>> {
	const result = await callWithRetry(
		() => env.SEQUENCES.get(env.SEQUENCES.idFromName(objectName)),
		call,
		subject,
		advice,
	);
	if (result.ok) return result as Extract<T, { ok: true }>;
	const { code, detail, retryAfterSeconds } = result as ObjectFailure;
	throw serviceError(code, detail, retryAfterSeconds);
}
