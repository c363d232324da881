/**
 * A lease holder's clock: the service's time, carried forward by the local
 * monotonic clock. Each answer of the service anchors it (the answer's
 * `serverNowMs`, read as the time when the answer arrived), so the local wall
 * clock plays no part: a holder whose system clock is an hour off issues the same
 * ticks as one whose clock is right.
 *
 * It never steps back. An anchor behind the clock's own reading (an answer that
 * travelled long, an object whose clock runs behind another's) is ignored; one
 * ahead moves the clock on. The reading trails the service's by at most the
 * one-way delay of the quickest answer so far, plus the monotonic clock's drift.
 *
 *   const clock = new ServerClock(() => performance.now(), sleep);
 *   clock.anchor(grant.serverNowMs);   // when the answer arrives
 *   clock.now();                       // the service's ms, as this process sees it
 */
import type { Clock } from "./clock";

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

	/** An answer carrying the service's clock reading `serverNowMs` arrived just now. */
	anchor(serverNowMs: number): void {
		const offset = serverNowMs - this.monotonic();
		// Written so that the first anchor (NaN before it) always sets it.
		// Stryker disable next-line EqualityOperator: an equal offset stores the same value
		if (!(offset <= this.offsetMs)) this.offsetMs = offset;
	}
}
