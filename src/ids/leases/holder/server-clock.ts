/**
 * A lease holder's clock: the service's time, carried forward by the local
 * monotonic clock. Each answer of the service anchors it (the answer's
 * `serverNowMs`, read as the time when the answer arrived), so the local wall
 * clock plays no part: a holder whose system clock is an hour off issues the same
 * ticks as one whose clock is right.
 *
 * An anchor behind the clock's own reading (an answer that travelled long, an
 * object whose clock runs behind another's) is ignored; one ahead moves the clock
 * on. The reading trails the service's by at most the one-way delay of the quickest
 * answer so far, plus the monotonic clock's drift. One exception steps it back: an
 * answer whose travel time is bounded (a renewal within its deadline) and that is
 * behind the reading by more than that bound allows (a span) cannot be delay: the
 * clock had followed an object whose clock stepped ahead and back, and follows the
 * service again (the holder never issues at or below its last tick, so IDs still go up).
 *
 *   const clock = new ServerClock(() => performance.now(), sleep);
 *   clock.anchor(grant.serverNowMs);           // when the answer arrives
 *   clock.anchor(grant.serverNowMs, spanMs);   // a renewal in time: back if a span behind
 *   clock.now();                               // the service's ms, as this process sees it
 */
import type { Clock } from "../../clock";

export class ServerClock implements Clock {
	/** The service's ms minus the monotonic ms; NaN until the first anchor. */
	private offsetMs = Number.NaN;

	constructor(
		/** Milliseconds from any fixed origin, never going back (`performance.now`). */
		private readonly monotonic: () => number,
		/** Resolves after about `ms` milliseconds (the generator's waits). */
		readonly sleep: (ms: number) => Promise<void>,
	) {}

	/** The service's Unix ms now; NaN before the first anchor. */
	now(): number {
		return this.monotonic() + this.offsetMs;
	}

	/**
	 * An answer carrying the service's clock reading `serverNowMs` arrived just now.
	 * Behind the reading by more than `backAfterMs` (default: never), it steps the
	 * clock back to it; true when it did.
	 */
	anchor(serverNowMs: number, backAfterMs = Number.POSITIVE_INFINITY): boolean {
		const offset = serverNowMs - this.monotonic();
		const behindMs = this.offsetMs - offset;
		if (behindMs > backAfterMs) {
			this.offsetMs = offset;
			return true;
		}
		// Written so that the first anchor (NaN before it) always sets it.
		// Stryker disable next-line EqualityOperator: an equal offset stores the same value
		if (!(offset <= this.offsetMs)) this.offsetMs = offset;
		return false;
	}
}
