/**
 * A simulated world for lease holders (src/ids/leases/holder/lease-holder.ts): one timeline of
 * true time that moves only when a test advances it, timers that fire on it in
 * order (each followed by every promise reaction it causes), and a holder's
 * injected clock, sleeps and background timers on top of it.
 */
import { LeaseHolder, type LeaseHolderOptions } from "../../src/ids/leases/holder/lease-holder";

/** Lets every pending promise reaction run (a macrotask turn drains them all). */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Timer {
	at: number;
	order: number;
	owner: string;
	fire: () => void;
}

export class SimTime {
	/** True time, ms. */
	now = 0;
	private timers: Timer[] = [];
	private order = 0;
	/** Owners whose timers wait (a paused process): fired when resumed, in order. */
	readonly paused = new Set<string>();

	/** Calls `fire` once `ms` have passed (at the earliest); returns a cancel. */
	after(owner: string, ms: number, fire: () => void): () => void {
		const timer = { at: this.now + Math.max(0, ms), order: this.order++, owner, fire };
		this.timers.push(timer);
		return () => {
			this.timers = this.timers.filter((t) => t !== timer);
		};
	}

	/** Moves true time to `target`, firing due timers in order, each followed by its reactions. */
	async advanceTo(target: number): Promise<void> {
		for (;;) {
			await settle();
			const due = this.timers
				.filter((t) => t.at <= target && !this.paused.has(t.owner))
				.sort((a, b) => a.at - b.at || a.order - b.order)[0];
			if (!due) break;
			this.timers = this.timers.filter((t) => t !== due);
			this.now = Math.max(this.now, due.at);
			due.fire();
		}
		this.now = Math.max(this.now, target);
		await settle();
	}

	advance(ms: number): Promise<void> {
		return this.advanceTo(this.now + ms);
	}

	/** Timers still set (of owners not paused). */
	pending(owner?: string): number {
		return this.timers.filter((t) => owner === undefined || t.owner === owner).length;
	}
}

/** A holder's local clocks on a SimTime: monotonic time may stand still (a suspended machine). */
export class SimProcess {
	/** Added to true time: where this process's monotonic clock starts. */
	private monotonicOffset: number;
	pid = 100;
	/** How late its sleeps' timers fire (a busy event loop); background timers stay exact. */
	sleepLateMs = 0;

	constructor(
		readonly time: SimTime,
		readonly name: string,
		monotonicStart = 5_000,
	) {
		this.monotonicOffset = monotonicStart - time.now;
	}

	monotonic = (): number => this.time.now + this.monotonicOffset;

	/** The monotonic clock stands still while `ms` of true time pass (a suspended machine). */
	suspend(ms: number): void {
		this.monotonicOffset -= ms;
	}

	/** The injections a LeaseHolder takes, on this process's clocks and timers. */
	hostOptions(): Pick<
		LeaseHolderOptions,
		"monotonic" | "sleep" | "background" | "processId" | "random"
	> {
		return {
			monotonic: this.monotonic,
			sleep: (ms, signal) =>
				new Promise<void>((resolve) => {
					const cancel = this.time.after(this.name, ms + this.sleepLateMs, resolve);
					signal?.addEventListener(
						"abort",
						() => {
							cancel();
							resolve();
						},
						{ once: true },
					);
				}),
			background: (callback, ms) => this.time.after(this.name, ms, callback),
			processId: () => this.pid,
			random: () => 0,
		};
	}

	holder(options: Omit<LeaseHolderOptions, keyof ReturnType<SimProcess["hostOptions"]>>) {
		return new LeaseHolder({ ...this.hostOptions(), ...options });
	}
}
