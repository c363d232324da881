/**
 * The ordered counter of one sequence as pure transitions over the record its
 * Durable Object stores: each takes the state, the settings and a clock reading,
 * and answers the new state to persist (before the answer leaves) with what was
 * issued, or a refusal; never thrown, never I/O. Next numbers, reserved ranges
 * and pooled segments are all `issueRange`: consecutive numbers from `next`.
 *
 *   let state = newSequenceState(settings, Date.now());
 *   const ruling = issueRange(state, settings, 3, Date.now());
 *   if (ruling.ok) {
 *     state = ruling.state;                       // store it, then answer
 *     numbersOf(ruling.value);                    // ["1", "2", "3"]
 *   }
 *   advanceTo(state, settings, 1000n, Date.now()); // next becomes 1000 (never less than it was)
 */
import { MAX_SEQUENCE_NUMBER } from "./numbers";
import { comparePeriods, periodOf, readClock } from "./periods";
import { SequenceRefusal } from "./refusals";
import type { SequenceSettings } from "./settings";

/** What the object stores for its sequence besides the settings. */
export interface SequenceState {
	/** The next number of the current period; MAX_SEQUENCE_NUMBER + 1 once the last was issued. */
	next: bigint;
	/** The current period ("2026-11-27", "2026-11", "2026"), null without a reset; never goes back. */
	period: string | null;
	/** Numbers issued in all periods (taken, reserved or handed to isolates as segments). */
	issued: bigint;
	/** Calls that issued numbers. */
	requests: number;
	/** Unix ms of the create. */
	createdAt: number;
	/** Unix ms of the last call that issued numbers; null before the first. */
	lastIssuedAt: number | null;
}

/** The state as JSON and SQLite text columns carry it: bigints as decimal strings. */
export interface StoredSequenceState {
	next: string;
	period: string | null;
	issued: string;
	requests: number;
	createdAt: number;
	lastIssuedAt: number | null;
}

/** Consecutive numbers `first`..`last` of one period. */
export interface IssuedRange {
	first: bigint;
	last: bigint;
	count: number;
	/** The period they belong to (null without a reset); every answer names it. */
	period: string | null;
}

/** What `advanceTo` did: the next number now, and whether it moved. */
export interface Advanced {
	next: bigint;
	moved: boolean;
	period: string | null;
}

/** A transition's answer: the state to persist and its value, or a refusal (state unchanged). */
export type SequenceRuling<T> =
	| { ok: true; state: SequenceState; value: T }
	| { ok: false; refusal: SequenceRefusal };

/** A new sequence's state at its create: `start` in the period of `now`. */
export function newSequenceState(settings: SequenceSettings, now: number): SequenceState {
	return {
		next: settings.start,
		period: periodOf(now, settings.reset, settings.timeZone),
		issued: 0n,
		requests: 0,
		createdAt: readClock(now),
		lastIssuedAt: null,
	};
}

/**
 * The state in the period of `now`: a later period starts again at `start`; the
 * same or an earlier one (a clock that stepped back) keeps the stored period.
 */
export function enterPeriod(
	state: SequenceState,
	settings: SequenceSettings,
	now: number,
): SequenceState {
	const period = periodOf(readClock(now), settings.reset, settings.timeZone);
	if (comparePeriods(period, state.period) <= 0) return state;
	return { ...state, period, next: settings.start };
}

/**
 * `count` consecutive numbers from the next one, in the period of `now`; refused
 * with `sequence_exhausted` when the last would pass 2^63 − 1 (nothing issued),
 * `invalid_count` when `count` is not a positive safe integer, `clock_regression`
 * on a faulty clock. The service bounds `count` (MAX_BATCH, MAX_BLOCK_COUNT).
 */
export function issueRange(
	state: SequenceState,
	settings: SequenceSettings,
	count: number,
	now: number,
): SequenceRuling<IssuedRange> {
	if (!Number.isSafeInteger(count) || count < 1) {
		return refuse("invalid_count", `count must be a positive integer; got ${count}`);
	}
	const entered = ruled(() => enterPeriod(state, settings, now));
	if (!entered.ok) return entered;
	const current = entered.state;
	const last = current.next + BigInt(count) - 1n;
	if (last > MAX_SEQUENCE_NUMBER) return exhausted(current, settings, count);
	return {
		ok: true,
		state: {
			...current,
			next: last + 1n,
			issued: current.issued + BigInt(count),
			requests: current.requests + 1,
			lastIssuedAt: now,
		},
		value: { first: current.next, last, count, period: current.period },
	};
}

/**
 * The next number becomes at least `to` (a number `readSequenceNumber` read), in
 * the period of `now`. Forward only: `to` at or below the next number changes
 * nothing and answers the next number as it is.
 */
export function advanceTo(
	state: SequenceState,
	settings: SequenceSettings,
	to: bigint,
	now: number,
): SequenceRuling<Advanced> {
	const entered = ruled(() => enterPeriod(state, settings, now));
	if (!entered.ok) return entered;
	const current = entered.state;
	const { period } = current;
	if (to <= current.next) {
		return { ok: true, state: current, value: { next: current.next, moved: false, period } };
	}
	return { ok: true, state: { ...current, next: to }, value: { next: to, moved: true, period } };
}

/** A range's numbers as the API sends them: decimal strings, first to last. */
export function numbersOf(range: IssuedRange): string[] {
	const numbers = new Array<string>(range.count);
	for (let i = 0; i < range.count; i++) numbers[i] = `${range.first + BigInt(i)}`;
	return numbers;
}

/** The state as the object stores it. */
export function storedState(state: SequenceState): StoredSequenceState {
	return { ...state, next: `${state.next}`, issued: `${state.issued}` };
}

/** The state the object stored (`storedState`'s output, read back). */
export function readStoredState(stored: StoredSequenceState): SequenceState {
	return { ...stored, next: BigInt(stored.next), issued: BigInt(stored.issued) };
}

function refuse(code: "invalid_count", detail: string): { ok: false; refusal: SequenceRefusal } {
	return { ok: false, refusal: new SequenceRefusal(code, detail) };
}

/** Runs a step that may throw a refusal (a faulty clock) and answers it as a ruling. */
function ruled(step: () => SequenceState): SequenceRuling<undefined> {
	try {
		return { ok: true, state: step(), value: undefined };
	} catch (error) {
		if (error instanceof SequenceRefusal) return { ok: false, refusal: error };
		throw error;
	}
}

function exhausted(
	state: SequenceState,
	settings: SequenceSettings,
	count: number,
): { ok: false; refusal: SequenceRefusal } {
	const left = state.next > MAX_SEQUENCE_NUMBER ? 0n : MAX_SEQUENCE_NUMBER - state.next + 1n;
	const until =
		settings.reset === "never"
			? ""
			: `; the next period (${settings.reset}, ${settings.timeZone}) starts again at ${settings.start}`;
	return {
		ok: false,
		refusal: new SequenceRefusal(
			"sequence_exhausted",
			`${count} numbers from ${state.next} would pass ${MAX_SEQUENCE_NUMBER} (2^63 - 1), the largest a sequence issues: ${left} left${until}`,
		),
	};
}
