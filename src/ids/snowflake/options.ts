/** Options and stats of `SnowflakeGenerator` (src/ids/snowflake/generator.ts). */
import type { Clock } from "../clock";
import type { IdError } from "../errors";
import type { SnowflakeLayout } from "./layout";

/** The default wait budget of one call (`maxWaitMs`). */
export const DEFAULT_MAX_WAIT_MS = 2_000;

/**
 * IDs a new tick surely holds: a tick starts at a small random sequence (below
 * 2^(sequenceBits/2), Leaf's fix for all-even IDs at low load), so not all of it.
 */
export function newTickRoom(layout: SnowflakeLayout): number {
	return layout.maxSequence - 2 ** Math.floor(layout.sequenceBits / 2) + 2;
}

/**
 * The most IDs one call can be sure to get within its wait budget, from any clock
 * phase: the ticks reachable by waiting `maxWaitMs` and borrowing `maxBorrowMs`,
 * each at its surest room. A larger count is `invalid_count` (no retry helps).
 *
 *   maxIdsPerCall(twitterLayout, 2000, 5); // 2,001 ticks × 4,033 = 8,070,033
 */
export function maxIdsPerCall(layout: SnowflakeLayout, maxWaitMs: number, maxBorrowMs = 0): number {
	return (1 + Math.floor((maxWaitMs + maxBorrowMs) / layout.timeUnitMs)) * newTickRoom(layout);
}

export interface SnowflakeGeneratorOptions {
	layout: SnowflakeLayout;
	workerId: number;
	clock: Clock;
	/** A clock that went back by at most this much is waited out; more is refused. */
	maxBackwardMs: number;
	/** How far ahead of the issued ticks the persisted high-water mark runs. */
	leaseMs: number;
	/**
	 * Borrowed time: when a tick's sequences are used up, the next tick is taken at
	 * once if it starts at most this far ahead of the clock; only beyond that does the
	 * generator wait. A clock that steps back while the last tick stays within this
	 * lead is absorbed the same way. An ID's time runs ahead of the clock by at most
	 * this much. Default 0: wait for the clock at every rollover.
	 */
	maxBorrowMs?: number;
	/**
	 * The wait budget of one call: the time that passes on the clock from when it is
	 * queued (the calls ahead of it included), read after each wait, since timers fire
	 * late; or the timer time asked for, if more (a clock that stands still). A call
	 * that cannot finish within it is refused (before issuing anything where that can
	 * be known) and the queue moves on. Default `DEFAULT_MAX_WAIT_MS`.
	 */
	maxWaitMs?: number;
	/**
	 * Stores a new high-water mark (a tick). No ID with a tick above the last stored
	 * mark is issued before this resolves, so an earlier life's mark bounds all its IDs.
	 * `leaseMs` is the lease it is written with, to store beside it and pass back as
	 * `restoredLeaseMs`: never more than `leaseMs` (in whole ticks) or the restored lease.
	 *
	 * A bounded store resolves with the mark it holds instead (a worker-ID lease: the
	 * last tick of its span, which a renewal may raise): any tick from `needed`, the
	 * tick about to be issued, up. The generator issues up to that mark and asks again
	 * beyond it; a mark below `needed` refuses the call (`internal`), a rejection too.
	 * `budgetMs` is what is left of the call's wait budget: a store that waits (for a
	 * renewal) waits no longer.
	 */
	persistMark: (
		tick: number,
		leaseMs: number,
		needed: number,
		budgetMs: number,
		// biome-ignore lint/suspicious/noConfusingVoidType: a store that answers nothing (`async () => {}`) must fit
	) => void | number | Promise<void | number>;
	/** The mark an earlier life of this worker ID persisted: nothing at or below it is issued. */
	restoredMark?: number | undefined;
	/**
	 * How far ahead of its clock the earlier life could have put that mark (its lease).
	 * Issuing continues at once from the mark + 1 while that tick is at most this (plus
	 * `maxBorrowMs`) ahead of the clock. Default `leaseMs`.
	 */
	restoredLeaseMs?: number | undefined;
	/** Counters an earlier life persisted; counting continues from them. */
	restoredCounters?: Partial<SnowflakeCounters> | undefined;
	/** Uniform in [0, 1): picks the small random sequence start of each new tick. */
	random?: () => number;
	/**
	 * Asked once per call, in the critical section, with the call's first clock reading:
	 * an error refuses the call before it issues anything. A host that hands ticks to
	 * others (`handOver`) refuses its own calls with it while they hold them.
	 */
	admit?: ((now: number) => IdError<string> | undefined) | undefined;
}

/** What `handOver`'s work answers: its value, and the last tick it handed over (stored as the mark). */
export interface HandedOver<T> {
	value: T;
	/** The highest tick given to someone else, already persisted as the mark; none: nothing given. */
	through?: number | undefined;
}

export interface SnowflakeStats {
	/** IDs handed out. */
	issued: number;
	/** Calls of `next`/`nextRuns`, failed ones included. */
	requests: number;
	/**
	 * Times the clock was found further behind the last issued tick than borrowing
	 * covers, so a call waited or was refused (restart waits excluded). Smaller steps
	 * back are absorbed and show only in `maxLeadMs`.
	 */
	clockRegressions: number;
	maxRegressionMs: number;
	/** Times a call waited on a timer for a later tick (once per tick waited for, not per poll). */
	rolloverWaits: number;
	/** High-water marks persisted. */
	leaseWrites: number;
	/** The largest lead of an issued ID's tick over the clock, in ms (borrowed time). */
	maxLeadMs: number;
	/** Unix ms at which the last issued tick starts, or null before the first ID. */
	lastTimestamp: number | null;
}

/** The stats that are counted (and can be persisted and restored). */
export type SnowflakeCounters = Omit<SnowflakeStats, "lastTimestamp">;

export const NO_COUNTS: Readonly<SnowflakeCounters> = {
	issued: 0,
	requests: 0,
	clockRegressions: 0,
	maxRegressionMs: 0,
	rolloverWaits: 0,
	leaseWrites: 0,
	maxLeadMs: 0,
};
