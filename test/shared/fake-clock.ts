import type { Clock } from "../../src/ids/clock";

/**
 * A clock that moves only when told to, like Date.now() on a deployed Worker:
 * reads return the current time, and time advances only by what `sleep` waits
 * (or what a test sets). Every sleep is recorded.
 */
export class FrozenClock implements Clock {
	readonly sleeps: number[] = [];
	constructor(public time: number) {}
	now(): number {
		return this.time;
	}
	async sleep(ms: number): Promise<void> {
		this.sleeps.push(ms);
		this.time += ms;
	}
}

/**
 * A clock that answers a script of readings, one per `now()`, then repeats the
 * last. Sleeping records the duration and does not move the script.
 */
export class ScriptedClock implements Clock {
	readonly sleeps: number[] = [];
	private index = 0;
	constructor(private readonly readings: number[]) {}
	now(): number {
		const reading = this.readings[Math.min(this.index, this.readings.length - 1)];
		this.index++;
		if (reading === undefined) throw new Error("ScriptedClock needs at least one reading");
		return reading;
	}
	async sleep(ms: number): Promise<void> {
		this.sleeps.push(ms);
	}
	get reads(): number {
		return this.index;
	}
}

/**
 * A clock that moves only when the test says so (`advance`), whose sleeps end
 * when it has moved far enough: for code that races a wait against other work.
 * Setting `time` steps the wall clock without moving time for sleeps, as a timer
 * runs on monotonic time while the wall clock is set back. Every sleep is recorded.
 */
export class ManualClock implements Clock {
	readonly sleeps: number[] = [];
	private readonly sleepers: { until: number; wake: () => void }[] = [];
	/** Time moved by `advance` only: what sleeps wait for. */
	private monotonic = 0;
	constructor(public time: number) {}
	now(): number {
		return this.time;
	}
	/** Sleeps cancelled before they were due (their timer would have been cleared). */
	cancelledSleeps = 0;
	sleep(ms: number, cancel?: AbortSignal): Promise<void> {
		this.sleeps.push(ms);
		return new Promise((wake) => {
			const sleeper = { until: this.monotonic + ms, wake };
			this.sleepers.push(sleeper);
			cancel?.addEventListener("abort", () => {
				const at = this.sleepers.indexOf(sleeper);
				if (at < 0) return;
				this.sleepers.splice(at, 1);
				this.cancelledSleeps++;
				wake();
			});
		});
	}
	/** Sleeps not yet due nor cancelled: each would be a live timer. */
	get pendingSleeps(): number {
		return this.sleepers.length;
	}
	/** Moves the clock `ms` forward and ends the sleeps that are due. */
	advance(ms: number): void {
		this.time += ms;
		this.monotonic += ms;
		for (const sleeper of this.sleepers.filter((s) => s.until <= this.monotonic)) {
			this.sleepers.splice(this.sleepers.indexOf(sleeper), 1);
			sleeper.wake();
		}
	}
}
