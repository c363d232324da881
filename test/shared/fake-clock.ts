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
