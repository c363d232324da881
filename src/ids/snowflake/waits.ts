/**
 * The wait budget of a Snowflake generator's queued calls (generator.ts): how long a
 * call has waited since it was queued, so that no call waits longer than `maxWaitMs`
 * in all. Measured on the clock (timers fire late: the time asked for understates a
 * wait) at its highest reading (a step back is no wait), or as the timer time asked
 * for where that is more (a clock that stands still or steps back).
 */
import type { Clock } from "../clock";

/** When a call was queued: a clock reading, and the timer time asked for until then. */
export interface QueuedAt {
	at: number;
	slept: number;
}

/** The waits of one generator: its timer waits and its highest clock reading. */
export class WaitBudget {
	private readonly clock: Clock;
	private sleptMs = 0; // every ms of timer wait asked for: budgets count it where the clock shows less
	private sleepingMs = 0; // the wait in progress: counted whole against calls queued during it
	private highest = Number.NEGATIVE_INFINITY; // the highest clock reading: budgets are measured on it

	constructor(clock: Clock) {
		this.clock = clock;
	}

	/** A call queued at the (finite) reading `now`: its budget counts from here, the waits of the calls ahead of it too. */
	queuedAt(now: number): QueuedAt {
		const at = this.highestReading(now);
		return { at, slept: this.sleptMs - this.sleepingMs };
	}

	/** How long a call queued at `since` has waited, the clock reading `now` (finite). */
	waitedMs(since: QueuedAt, now: number): number {
		const elapsed = this.highestReading(now) - since.at;
		const asked = this.sleptMs - since.slept;
		return Math.max(elapsed, asked);
	}

	/** The clock's timer wait of `ms`, counted. */
	async sleep(ms: number): Promise<void> {
		this.sleptMs += ms;
		this.sleepingMs = ms;
		try {
			await this.clock.sleep(ms);
		} finally {
			this.sleepingMs = 0;
		}
	}

	/** The highest clock reading so far, `now` included. */
	private highestReading(now: number): number {
		// Stryker disable next-line EqualityOperator: an equal reading stores the same value
		if (now > this.highest) this.highest = now;
		return this.highest;
	}
}
