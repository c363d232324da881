/**
 * The refusals of named sequences: one error type whose `code` is a service code
 * (src/wire/index.ts maps it to a status), raised or returned by the pure rules of this
 * folder, so HTTP, RPC and the client meet the same code and message.
 *
 *   const ruling = issueRange(state, settings, 5, Date.now());
 *   if (!ruling.ok && ruling.refusal.code === "sequence_exhausted") answer409(ruling.refusal.message);
 */
import { IdError } from "../errors";

export type SequenceRefusalCode =
	/** The name is not 1–64 characters of `A-Z a-z 0-9 . _ -` starting with a letter or digit. */
	| "invalid_sequence_name"
	/** A setting (`start`, `mode`, `reset`, `timeZone`) or an advance's `to` is not one allowed. */
	| "invalid_sequence_options"
	/** The sequence exists with other settings than those asked for. */
	| "sequence_exists"
	/** The numbers asked for would pass 2^63 − 1. */
	| "sequence_exhausted"
	/** A count is not a positive integer. */
	| "invalid_count"
	/** The clock read something that is not a usable time (retryable). */
	| "clock_regression"
	/** A range did not arrive within the bounded wait (retryable). */
	| "overloaded"
	/** A range buffer was used after `close()` (the caller's own mistake; never sent over the wire). */
	| "buffer_closed"
	/** A fetched range is impossible (first above last, or outside [0, 2^63 − 1]). */
	| "internal";

/** A refusal of the sequence rules. */
export class SequenceRefusal extends IdError<SequenceRefusalCode> {}
