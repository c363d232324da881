/**
 * The ranges of numbers a range buffer (./range-buffer.ts) fetches, holds and hands
 * out: a fetched range, how it is held (checked possible, aged from its fetch), a
 * take's numbers, and the age rule (a clock that stepped back makes nothing young).
 *
 *   const held = heldRange({ first: 1n, last: 10n, period: null }, Date.now());
 *   isYoung(Date.now() - held.fetchedFrom, 1000); // used for at most POOL_MAX_AGE_MS
 */
import { MAX_SEQUENCE_NUMBER } from "./numbers";
import { SequenceRefusal } from "./refusals";

/** Numbers `first`..`last` that nobody else will hand out, of one period (if the sequence resets). */
export interface NumberRange {
	first: bigint;
	last: bigint;
	period?: string | null;
}

/** Fetches a range of about `size` numbers; `signal` aborts when the buffer gives up on it. */
export type FetchRange = (size: number, signal: AbortSignal) => Promise<NumberRange>;

/** `count` consecutive numbers from one range. */
export interface TakenNumbers {
	first: bigint;
	last: bigint;
	count: number;
	period: string | null;
}

/** A range as a buffer holds it: `next` is the first number not handed out. */
export interface HeldRange {
	next: bigint;
	last: bigint;
	period: string | null;
	/** The clock when its fetch began: its age counts from there. */
	fetchedFrom: number;
}

/** A fetched range as held, once it is known to be possible (else `internal`). */
export function heldRange(range: NumberRange, fetchedFrom: number): HeldRange {
	const { first, last } = range;
	if (!(first >= 0n && first <= last && last <= MAX_SEQUENCE_NUMBER)) {
		throw new SequenceRefusal(
			"internal",
			`a fetched range must have 0 <= first <= last <= ${MAX_SEQUENCE_NUMBER}; got ${first}..${last}`,
		);
	}
	return { next: first, last, period: range.period ?? null, fetchedFrom };
}

/**
 * Whether something `ageMs` old is younger than `limitMs`. A negative age means
 * the clock stepped back since it began: how old it really is cannot be told, so
 * it counts as too old (a range is dropped, a fetch given up), never as young.
 */
export function isYoung(ageMs: number, limitMs: number): boolean {
	return ageMs >= 0 && ageMs < limitMs;
}
