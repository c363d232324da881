/**
 * A worker ID's counts by clock minute, for its history: IDs issued, requests,
 * waits, clock regressions and refusals by code in each minute it was active. The
 * generator counts since its start (`SnowflakeCounters`); a minute's counts are the
 * difference between its counters when the minute closes and when it opened.
 * Runtime-neutral: the host passes clock readings and the generator's counters.
 *
 *   const tally = new MinuteTally(generator.stats());
 *   tally.enter(now, generator.stats());        // before a call: closes an earlier minute
 *   tally.refused("overloaded", now);           // a call refused
 *   const done = tally.takeClosed(now, generator.stats()); // the minutes over, to store
 */
import type { SnowflakeCounters } from "./snowflake/options";

/** One minute of one worker ID (or of the fleet). */
export interface MinuteCounts {
	/** The minute's first instant, Unix ms (a multiple of 60,000). */
	minute: number;
	issued: number;
	requests: number;
	/** Calls that waited for a later tick (rollover waits). */
	waits: number;
	/** Clock steps back beyond what borrowing covers (a call waited or was refused). */
	clockRegressions: number;
	/** Refused calls by error code. */
	refusals: Record<string, number>;
}

export const MINUTE_MS = 60_000;

/** The minute `now` falls in (its first instant), or undefined for a reading that is no time. */
export function minuteOf(now: number): number | undefined {
	return Number.isFinite(now) ? Math.floor(now / MINUTE_MS) * MINUTE_MS : undefined;
}

/** The first minute of a window of the last `minutes` minutes up to `nowMs` (the current one included). */
export function windowStart(nowMs: number, minutes: number): number {
	return (minuteOf(nowMs) ?? nowMs) - (minutes - 1) * MINUTE_MS;
}

type Counted = Pick<
	SnowflakeCounters,
	"issued" | "requests" | "rolloverWaits" | "clockRegressions"
>;

/** The minute being counted and the counters it began at: what a host stores so a later life can close it. */
export interface OpenMinute {
	minute: number;
	base: Counted;
	/** Its refusals so far (absent in what an earlier version stored). */
	refusals?: Record<string, number>;
}

export class MinuteTally {
	/** The minute being counted; undefined while idle. */
	private open: number | undefined;
	/** The counters when the open minute began (or when the last one closed). */
	private base: Counted;
	private refusals: Record<string, number> = {};
	/** Minutes closed and not yet taken. */
	private closed: MinuteCounts[] = [];

	/** `open`: a minute an earlier life opened and stored (its counts since are the restored counters'). */
	constructor(counters: Counted, open?: OpenMinute) {
		this.base = pick(open?.base ?? counters);
		this.open = open?.minute;
		if (open?.refusals) this.refusals = { ...open.refusals };
	}

	/** The open minute and its base, to store; undefined while idle. */
	get openState(): OpenMinute | undefined {
		if (this.open === undefined) return undefined;
		return { minute: this.open, base: { ...this.base }, refusals: { ...this.refusals } };
	}

	/** The minute being counted, if any. */
	get openMinute(): number | undefined {
		return this.open;
	}

	/**
	 * Before a call counted at `now`: closes the open minute when `now` is in a later
	 * one (a clock step back stays in the open minute), and opens `now`'s. Answers
	 * whether a minute was opened. A reading that is no time changes nothing.
	 */
	enter(now: number, counters: Counted): boolean {
		const minute = minuteOf(now);
		if (minute === undefined) return false;
		if (this.open !== undefined && minute > this.open) this.close(counters);
		if (this.open !== undefined) return false;
		this.open = minute;
		return true;
	}

	/**
	 * A call refused at `now`, counted in the open minute; opens `now`'s when none is
	 * (a refusal before the generator ran: its counters did not move).
	 */
	refused(code: string, now: number): void {
		this.open ??= minuteOf(now);
		this.refusals[code] = (this.refusals[code] ?? 0) + 1;
	}

	/** The minutes over at `now` (the open one too once `now` is past it), handed over once. */
	takeClosed(now: number, counters: Counted): MinuteCounts[] {
		const minute = minuteOf(now);
		if (this.open !== undefined && minute !== undefined && minute > this.open) this.close(counters);
		return this.closed.splice(0);
	}

	/** The minutes not yet taken, the open one as it stands: what a history read adds to storage's. */
	unsaved(counters: Counted): MinuteCounts[] {
		const open = this.open === undefined ? [] : [this.countsOf(this.open, counters)];
		return [...this.closed, ...open];
	}

	private close(counters: Counted): void {
		if (this.open === undefined) return;
		this.closed.push(this.countsOf(this.open, counters));
		this.base = pick(counters);
		this.refusals = {};
		this.open = undefined;
	}

	private countsOf(minute: number, counters: Counted): MinuteCounts {
		const { base } = this;
		// Counters restored from before the base was stored may be lower: never a negative count.
		const since = (now: number, then: number) => Math.max(0, now - then);
		return {
			minute,
			issued: since(counters.issued, base.issued),
			requests: since(counters.requests, base.requests),
			waits: since(counters.rolloverWaits, base.rolloverWaits),
			clockRegressions: since(counters.clockRegressions, base.clockRegressions),
			refusals: { ...this.refusals },
		};
	}
}

function pick(counters: Counted): Counted {
	const { issued, requests, rolloverWaits, clockRegressions } = counters;
	return { issued, requests, rolloverWaits, clockRegressions };
}
