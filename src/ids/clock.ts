/**
 * Time as the generators see it. Injected so that regression, rollover and
 * exhaustion are tested on a fake clock, and so that the Workers host can wait
 * with `scheduler.wait` instead of spinning (Date.now() is frozen while a
 * deployed Worker runs; a busy loop on it never ends).
 */
import { IdError } from "./errors";

export interface Clock {
	/**
	 * Milliseconds since 1970-01-01T00:00:00Z. A reading that is not a finite number
	 * is a clock fault: refused like a clock that went back (`clockFault`), never stored.
	 */
	now(): number;
	/**
	 * Resolves after about `ms` milliseconds; the generator re-reads `now()` afterwards.
	 * When `cancel` aborts it resolves at once and its timer is cleared (a wait that
	 * lost a race keeps no process alive).
	 */
	sleep(ms: number, cancel?: AbortSignal): Promise<void>;
}

/**
 * Returned when a clock reads something that is not a finite number (NaN, ±Infinity):
 * a fault of the clock, refused as a clock that went back is (`clock_regression`,
 * retryable), so that no such reading is ever stored as a mark or a highest reading.
 */
export function clockFault(reading: number): IdError {
	return new IdError(
		"clock_regression",
		`the clock read ${reading}, not a finite number of milliseconds; refused as a clock that went back is; retry later`,
		1,
	);
}

/** `reading` if it is a finite number, else throws `clockFault`. */
export function finiteReading(reading: number): number {
	if (Number.isFinite(reading)) return reading;
	throw clockFault(reading);
}

/** Fills `bytes` with cryptographically strong random bytes (an ArrayBuffer-backed array, as the DOM's `getRandomValues` requires). */
export type RandomBytes = (bytes: Uint8Array<ArrayBuffer>) => void;

/** `crypto.getRandomValues`: Workers, Node 20+, Deno, Bun and browsers. */
export const cryptoRandomBytes: RandomBytes = (bytes) => {
	crypto.getRandomValues(bytes);
};

/**
 * The host clock: Date.now() and a timer. Works in Workers, Node and browsers.
 *
 * A timer fires a millisecond or more late, and a generator that waits for the next
 * tick at a rollover would lose most of that tick (4,096 IDs under the Twitter
 * layout). So where the clock moves while code runs and `setImmediate` exists (Node,
 * Bun), a wait's last millisecond is polled between event-loop turns, which
 * lets I/O run in between and ends within microseconds of the tick. Where time
 * stands still while code runs (Workers: it moves with I/O), only timers are used.
 *
 * A polled wait ends when the wall clock reaches its target or when `ms` have passed
 * on the monotonic clock (`performance.now()`), whichever is first: a wall clock set
 * back mid-wait does not lengthen it (the generator re-reads `now()` and sees the step).
 */
export const systemClock: Clock = {
	now: () => Date.now(),
	sleep: (ms, cancel) =>
		new Promise((resolve) => {
			if (cancel?.aborted) return resolve();
			const timers: Timers = { cancelled: false };
			const done = () => {
				cancel?.removeEventListener("abort", stop);
				resolve();
			};
			const stop = () => {
				timers.cancelled = true;
				if (timers.timer !== undefined) clearTimeout(timers.timer);
				resolve();
			};
			cancel?.addEventListener("abort", stop, { once: true });
			if (polling === undefined) timers.timer = setTimeout(done, ms);
			else {
				const end = { wall: Date.now() + ms, monotonic: performance.now() + ms };
				waitUntil(polling, end, done, timers);
			}
		}),
};

/** A wait's current timer, and whether it was cancelled (a polled wait then stops turning). */
interface Timers {
	timer?: ReturnType<typeof setTimeout>;
	cancelled: boolean;
}

type Immediate = (callback: () => void) => unknown;
const host = globalThis as { setImmediate?: Immediate; navigator?: { userAgent?: string } };
const polling: Immediate | undefined =
	typeof host.setImmediate === "function" && host.navigator?.userAgent !== "Cloudflare-Workers"
		? host.setImmediate
		: undefined;

/** When a wait ends: the wall clock at `wall`, or the monotonic clock at `monotonic`. */
interface WaitEnd {
	wall: number;
	monotonic: number;
}

/** What is left of a wait, in ms: the nearer of its two ends (the monotonic one if the wall reads no number). */
function leftOf(end: WaitEnd): number {
	const monotonic = end.monotonic - performance.now();
	const wall = end.wall - Date.now();
	return Number.isFinite(wall) ? Math.min(wall, monotonic) : monotonic;
}

/** A timer until the last millisecond of the wait, then event-loop turns; none once `timers` is cancelled. */
function waitUntil(immediate: Immediate, end: WaitEnd, done: () => void, timers: Timers): void {
	if (timers.cancelled) return;
	const left = leftOf(end);
	if (left <= 0) done();
	else if (left > 1)
		timers.timer = setTimeout(() => waitUntil(immediate, end, done, timers), left - 1);
	else {
		const before = performance.now();
		immediate(() => {
			if (timers.cancelled) return;
			// A clock that stood still over a turn would be polled forever: a timer ends it.
			if (performance.now() === before) timers.timer = setTimeout(done, left);
			else waitUntil(immediate, end, done, timers);
		});
	}
}

/** Unix milliseconds as an ISO 8601 string (UTC), as decoded IDs show their time. */
export function isoTime(ms: number): string {
	return new Date(ms).toISOString();
}
