/**
 * The wire format of named sequences: what the `/sequences` routes and the
 * sequence methods of IdService answer and take, and those methods as plain types.
 * src/wire/index.ts re-exports it all.
 *
 *   const { numbers } = await ids.nextInSequence("orders", { count: 2 }); // SequenceNumbers
 */
import type { MinuteCounts } from "../ids/minute-tally";
import type { SequenceSettingsView } from "../ids/sequences/settings";

/**
 * What `next` answers: `count` consecutive numbers of a named sequence, as decimal
 * strings, from `first`; `period` ("2026-11-27", "2026-11", "2026") only for a
 * sequence with a reset: the numbers are unique within it.
 */
export interface SequenceNumbers {
	type: "sequence";
	name: string;
	first: string;
	count: number;
	numbers: string[];
	period?: string;
}

/** What `reserve` answers: the numbers `first`..`last` (`count` of them), no one else's, ever. */
export interface SequenceRange {
	type: "sequence-range";
	name: string;
	first: string;
	last: string;
	count: number;
	period?: string;
}

/**
 * What a sequence's status (and its create, and `advance`) answers: its settings, the
 * number it issues next (null once 2^63 - 1 was issued, until a new period), the
 * numbers issued and the calls that issued them in all periods, when it was created
 * and last issued (ISO 8601), the current period (null without a reset), for
 * pooled mode `step`: the size of the last segment an isolate took, and in a
 * retire's answer `retiredAt`: when it was retired (ISO 8601).
 */
export interface SequenceStatus {
	type: "sequence-status";
	name: string;
	settings: SequenceSettingsView;
	next: string | null;
	issued: string;
	requests: number;
	created: string;
	lastIssuedAt: string | null;
	period: string | null;
	step?: number;
	retiredAt?: string;
}

/** What `GET /sequences` answers: created names in name order; `cursor` (null on the last page) asks for the next page. */
export interface SequenceList {
	type: "sequence-list";
	names: string[];
	cursor: string | null;
}

/** A sequence's settings as a caller sends them to create it; each absent one takes its default. */
export interface CreateSequenceOptions {
	/** The first number, and the first of each period: an integer in [0, 2^63 − 1] (above 2^53 as a decimal string). Default 1. */
	start?: number | string | undefined;
	/** Default "ordered". */
	mode?: "ordered" | "pooled" | undefined;
	/** Default "never". */
	reset?: "never" | "daily" | "monthly" | "yearly" | undefined;
	/** An IANA time zone name; default "UTC". */
	timeZone?: string | undefined;
}

/** Options of `nextInSequence`: how many consecutive numbers, in [1, MAX_BATCH]; default 1. */
export interface NextInSequenceOptions {
	count?: number | undefined;
}

/** Options of `reserveInSequence`: how many numbers the range holds, in [1, MAX_BLOCK_COUNT]. */
export interface ReserveInSequenceOptions {
	count: number;
}

/** Options of `advanceSequence`: the next number becomes at least `to` (above 2^53 as a decimal string). */
export interface AdvanceSequenceOptions {
	to: number | string;
}

/** Options of `retireSequence`: the sequence's name again (a retire cannot be undone). */
export interface RetireSequenceOptions {
	confirm: string;
}

/** Options of `listSequences`: names per page in [1, 1000] (default 100), after a previous page's `cursor`, only those starting with `prefix`. */
export interface ListSequencesOptions {
	limit?: number | undefined;
	cursor?: string | undefined;
	prefix?: string | undefined;
}

/**
 * What `GET /sequences/:name/history` answers: per active minute, oldest first (idle
 * minutes are absent), the current one included. `issued` counts the numbers its
 * object handed out (a pooled sequence's: the segments given to isolates), `requests`
 * the calls that issued, `refusals` the refused calls by code; `waits` and
 * `clockRegressions` are always 0 (a sequence never waits on a clock).
 */
export interface SequenceHistory {
	name: string;
	/** The window asked for, in minutes back from now. */
	minutes: number;
	history: MinuteCounts[];
	serverNowMs: number;
}

/** Options of `sequenceHistory`: the window, 1-1440 minutes (default 60). */
export interface SequenceHistoryOptions {
	minutes?: number | undefined;
}

/**
 * The named-sequence methods of `IdService` (the same as the `/sequences` routes).
 * A failure rejects with an Error whose message starts with its code (`unknown_sequence: …`).
 */
export interface SequenceRpc {
	createSequence(name: string, settings?: CreateSequenceOptions): Promise<SequenceStatus>;
	nextInSequence(name: string, options?: NextInSequenceOptions): Promise<SequenceNumbers>;
	reserveInSequence(name: string, options: ReserveInSequenceOptions): Promise<SequenceRange>;
	advanceSequence(name: string, options: AdvanceSequenceOptions): Promise<SequenceStatus>;
	sequenceStatus(name: string): Promise<SequenceStatus>;
	/**
	 * Retires the sequence for good (`DELETE /sequences/:name`): its last status, with
	 * `retiredAt`; the same again when retired already. Then every call on the name is
	 * `sequence_retired`, and it can never be created again.
	 */
	retireSequence(name: string, options: RetireSequenceOptions): Promise<SequenceStatus>;
	listSequences(options?: ListSequencesOptions): Promise<SequenceList>;
	/** Per-minute counts of the sequence for the last 1-1440 minutes (`GET /sequences/:name/history`). */
	sequenceHistory(name: string, options?: SequenceHistoryOptions): Promise<SequenceHistory>;
}
