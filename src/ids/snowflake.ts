import type { Clock } from "./clock";
import type { SnowflakeLayout } from "./layout";
import {
	DEFAULT_MAX_WAIT_MS,
	NO_COUNTS,
	type SnowflakeCounters,
	type SnowflakeGeneratorOptions,
	type SnowflakeStats,
} from "./snowflake-options";
import * as refuse from "./snowflake-refusals";

export * from "./snowflake-options";

/**
 * IDs issued within one tick: sequences `firstSequence … firstSequence + count - 1`.
 * A batch is a few runs, which is also the compact form that crosses RPC hops.
 */
export interface IdRun {
	tick: number;
	firstSequence: number;
	count: number;
}

/**
 * The Snowflake generator for one worker ID. Calls are serialized here: the
 * state read, any wait (regression, rollover, lease write) and the state update
 * form one critical section, because a host like a Durable Object lets other
 * requests in while this one awaits a timer.
 *
 * Most calls need no wait and take a fast path: with no other call in flight, and
 * every tick the call needs covered by the stored mark and within the borrowing
 * bound, the IDs are issued synchronously: the same critical section without
 * awaiting (nobody to wait for, nothing can run in between). Others are queued.
 */
export class SnowflakeGenerator {
	readonly layout: SnowflakeLayout;
	readonly workerId: number;
	private readonly clock: Clock;
	private readonly maxBackwardMs: number;
	private readonly maxBorrowMs: number;
	private readonly maxWaitMs: number;
	private readonly leaseTicks: number;
	private readonly persistMark: (tick: number) => void | Promise<void>;
	private readonly random: () => number;
	private readonly sequenceStartLimit: number;
	private readonly newTickRoom: number; // IDs a new tick surely holds (highest random start)
	private readonly maxCallCount: number; // the most IDs one call gets within its budget
	private readonly decimal: DecimalFormatter;

	private lastTick: number; // of the last ID issued (or the restored mark, as if full)
	private sequence: number;
	private mark: number; // the highest tick known to be persisted
	private restoring: boolean; // from a restore until the first ID is issued
	private readonly catchUpTick: number; // ticks up to it may lead by `restoreLeadMs`
	private readonly restoreLeadMs: number;
	private sleptMs = 0; // every ms of timer wait asked for: budgets are measured against it
	private sleepingMs = 0; // the wait in progress: counted whole against calls queued during it
	private tail: Promise<unknown> = Promise.resolve();
	private inFlight = 0; // queued calls not finished yet (running, waiting or queued)
	private readonly counters: SnowflakeCounters;

	constructor(options: SnowflakeGeneratorOptions) {
		const { layout, workerId } = options;
		if (!Number.isSafeInteger(workerId) || workerId < 0 || workerId > layout.maxWorkerId) {
			throw refuse.invalidWorkerId(layout, workerId);
		}
		this.layout = layout;
		this.workerId = workerId;
		this.clock = options.clock;
		this.maxBackwardMs = options.maxBackwardMs;
		this.maxBorrowMs = options.maxBorrowMs ?? 0;
		this.maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
		this.leaseTicks = Math.max(1, Math.ceil(options.leaseMs / layout.timeUnitMs));
		this.persistMark = options.persistMark;
		this.random = options.random ?? Math.random;
		// Leaf's fix for all-even IDs at low load: a small random start (< 2% of capacity).
		this.sequenceStartLimit = 2 ** Math.floor(layout.sequenceBits / 2);
		this.newTickRoom = layout.maxSequence - this.sequenceStartLimit + 2;
		// Ticks reachable from any clock phase within budget + borrowing, at their surest room.
		const ticksPerCall = 1 + Math.floor((this.maxWaitMs + this.maxBorrowMs) / layout.timeUnitMs);
		this.maxCallCount = ticksPerCall * this.newTickRoom;
		this.decimal = new DecimalFormatter(layout, workerId);

		const restored = options.restoredMark;
		this.mark = restored ?? -1;
		this.lastTick = restored ?? -1;
		this.sequence = layout.maxSequence;
		this.restoring = restored !== undefined;
		// A restored mark may lead the clock by the earlier lease: go on above it, borrowing.
		const borrowTicks = Math.floor(this.maxBorrowMs / layout.timeUnitMs);
		this.catchUpTick = restored === undefined ? -1 : restored + 1 + borrowTicks;
		this.restoreLeadMs =
			(options.restoredLeaseMs ?? options.leaseMs) + this.maxBorrowMs + layout.timeUnitMs;
		this.counters = { ...NO_COUNTS, ...options.restoredCounters };
	}

	/** `count` IDs as decimal strings, strictly increasing. */
	next(count = 1): Promise<string[]> {
		const started = this.start(count);
		if (started instanceof Promise) return started.then((runs) => this.decimal.format(runs));
		if (Array.isArray(started)) return Promise.resolve(this.decimal.format(started));
		return Promise.resolve(this.decimal.formatRun(started));
	}

	/** `count` IDs in compact form, strictly increasing across runs and calls. */
	nextRuns(count = 1): Promise<IdRun[]> {
		const started = this.start(count);
		if (started instanceof Promise) return started;
		return Promise.resolve(Array.isArray(started) ? started : [started]);
	}

	stats(): SnowflakeStats {
		return {
			...this.counters,
			lastTimestamp: this.lastTick >= 0 && !this.restoring ? this.layout.msOf(this.lastTick) : null,
		};
	}

	/** The IDs at once (fast path), else the queued call's promise. Never throws. */
	private start(count: number): IdRun | IdRun[] | Promise<IdRun[]> {
		if (this.inFlight > 0) return this.enqueue(count, undefined);
		let now: number;
		let issued: IdRun | IdRun[] | undefined;
		try {
			now = this.clock.now();
			issued = this.issueAtOnce(count, now);
		} catch (error) {
			this.counters.requests++;
			return Promise.reject(error);
		}
		// The queued path takes over with this reading: one clock read per call either way.
		return issued ?? this.enqueue(count, now);
	}

	/** How far ahead of the clock tick `tick` may start and still be issued. */
	private leadLimitMs(tick: number): number {
		return tick <= this.catchUpTick ? this.restoreLeadMs : this.maxBorrowMs;
	}

	/** The ticks `count` IDs start and (at the latest) end in, the clock reading `now`. */
	private span(count: number, now: number): { first: number; last: number } {
		const tick = this.layout.tickOf(now);
		const roomLeft = this.layout.maxSequence - this.sequence;
		// A new tick (the clock's, or the next after a full one), else the last one.
		const first = tick > this.lastTick ? tick : roomLeft > 0 ? this.lastTick : this.lastTick + 1;
		const room = first === this.lastTick ? roomLeft : this.newTickRoom;
		const last = count <= room ? first : first + Math.ceil((count - room) / this.newTickRoom);
		return { first, last };
	}

	/**
	 * The fast path, only when nothing is in flight: the IDs if they need no wait and no
	 * storage write, else undefined having changed nothing (the queued path takes over).
	 */
	private issueAtOnce(count: number, now: number): IdRun | IdRun[] | undefined {
		const { layout } = this;
		if (!Number.isSafeInteger(count) || count < 1 || count > this.maxCallCount) return undefined;
		// (Written as positive tests so that a NaN clock reading falls through too.)
		if (!(now >= layout.epoch)) return undefined;
		if (!(layout.msOf(this.lastTick) - now <= this.leadLimitMs(this.lastTick))) return undefined;
		const { first, last } = this.span(count, now);
		// Every tick needed in the layout, under the mark, within its lead limit (the last decides).
		const ready =
			last < layout.tickLimit &&
			last <= this.mark &&
			layout.msOf(last) - now <= this.leadLimitMs(last);
		if (!ready) return undefined;
		this.counters.requests++;
		this.counters.issued += count;
		if (first === last) {
			const run = this.takeRun(first, count);
			this.noteLead(first, now);
			return run;
		}
		const runs: IdRun[] = [];
		let remaining = count;
		for (let tick = first; remaining > 0; tick++) {
			const run = this.takeRun(tick, remaining);
			runs.push(run);
			remaining -= run.count;
		}
		this.noteLead(this.lastTick, now);
		return runs;
	}

	private noteLead(tick: number, now: number): void {
		const lead = this.layout.msOf(tick) - now;
		if (lead > this.counters.maxLeadMs) this.counters.maxLeadMs = lead;
	}

	/** Queues a call behind those in flight; `reading` (a clock reading) only when there are none. */
	private enqueue(count: number, reading: number | undefined): Promise<IdRun[]> {
		this.inFlight++;
		// The budget counts the waits of the calls ahead of this one too.
		const sleptBefore = this.sleptMs - this.sleepingMs;
		// With nothing in flight the call starts right away (synchronously up to its first await).
		const result =
			reading === undefined
				? this.tail.then(() => this.issue(count, undefined, sleptBefore))
				: this.issue(count, reading, sleptBefore);
		this.tail = result.catch(() => undefined);
		return result;
	}

	/** The queued path: the whole critical section, waits included. */
	private async issue(
		count: number,
		reading: number | undefined,
		sleptBefore: number,
	): Promise<IdRun[]> {
		try {
			this.counters.requests++;
			if (!Number.isSafeInteger(count) || count < 1) throw refuse.invalidCount(count);
			if (count > this.maxCallCount) {
				throw refuse.countBeyondWaitBudget(this.maxCallCount, this.maxWaitMs, count);
			}
			const { layout } = this;
			const runs: IdRun[] = [];
			let remaining = count;
			let firstReading = reading;
			let checked = false;
			let waitedFor = -1;
			while (remaining > 0) {
				const now = firstReading ?? this.clock.now();
				firstReading = undefined;
				const tick = layout.tickOf(now);
				if (tick < 0) throw refuse.beforeEpoch(layout, now);
				const budgetMs = this.maxWaitMs - (this.sleptMs - sleptBefore);
				// Regression first, before the sequence is touched (Twitter's code reset it first and
				// could repeat IDs). Restored, the last tick is the full mark: the mark + 1 must be in reach.
				const behindTick = this.restoring ? this.lastTick + 1 : this.lastTick;
				const behindMs = layout.msOf(behindTick) - now;
				const lastLimitMs = this.leadLimitMs(behindTick);
				if (behindMs > lastLimitMs) {
					await this.waitForClock(behindMs, behindMs - lastLimitMs, budgetMs);
					continue;
				}
				if (!checked) {
					// Before anything is issued: refuse a call that surely cannot finish.
					this.refuseIfTooLong(remaining, now, budgetMs);
					checked = true;
				}
				const target = this.span(1, now).first;
				if (target >= layout.tickLimit) throw refuse.layoutExhausted(layout);
				const aheadMs = layout.msOf(target) - now - this.leadLimitMs(target);
				if (aheadMs > 0) {
					if (aheadMs > budgetMs) throw refuse.overloaded(this.workerId, aheadMs, this.maxWaitMs);
					if (target !== waitedFor && !this.restoring) this.counters.rolloverWaits++;
					waitedFor = target;
					await this.sleep(aheadMs);
					continue;
				}
				if (target > this.mark) {
					// A lease ahead of the clock (covering the target: borrowed after a restore, it
					// may be further ahead), so marks cannot run away over quick restarts.
					const mark = Math.max(target, tick + this.leaseTicks);
					await this.persistMark(mark);
					this.mark = mark;
					this.counters.leaseWrites++;
				}
				const run = this.takeRun(target, remaining);
				this.noteLead(target, now);
				runs.push(run);
				remaining -= run.count;
			}
			this.counters.issued += count;
			return runs;
		} finally {
			this.inFlight--;
		}
	}

	/** Refuses, before issuing anything, a call whose last tick is out of reach. */
	private refuseIfTooLong(count: number, now: number, budgetMs: number): void {
		const { last } = this.span(count, now);
		const waitMs = this.layout.msOf(last) - now - this.leadLimitMs(last);
		if (waitMs > budgetMs) throw refuse.overloaded(this.workerId, waitMs, this.maxWaitMs);
	}

	private async sleep(ms: number): Promise<void> {
		this.sleptMs += ms;
		this.sleepingMs = ms;
		try {
			await this.clock.sleep(ms);
		} finally {
			this.sleepingMs = 0;
		}
	}

	/** Up to `wanted` IDs from `tick` (≥ the last tick, covered by the mark): both paths' update. */
	private takeRun(tick: number, wanted: number): IdRun {
		const first =
			tick > this.lastTick
				? Math.floor(this.random() * this.sequenceStartLimit)
				: this.sequence + 1;
		const count = Math.min(wanted, this.layout.maxSequence - first + 1);
		this.lastTick = tick;
		this.sequence = first + count - 1;
		this.restoring = false;
		return { tick, firstSequence: first, count };
	}

	/** The clock is `waitMs` further behind the last tick than borrowing covers: wait or refuse. */
	private async waitForClock(behindMs: number, waitMs: number, budgetMs: number): Promise<void> {
		if (!this.restoring) {
			this.counters.clockRegressions++;
			this.counters.maxRegressionMs = Math.max(this.counters.maxRegressionMs, behindMs);
		}
		const allowedMs = Math.min(this.maxBackwardMs, budgetMs);
		if (waitMs > allowedMs) throw refuse.clockRegression(behindMs, waitMs, allowedMs);
		await this.sleep(waitMs);
	}
}

/** Decimal strings for runs of IDs of one worker ID (see `DecimalFormatter`). */
export function formatRuns(layout: SnowflakeLayout, workerId: number, runs: IdRun[]): string[] {
	return new DecimalFormatter(layout, workerId).format(runs);
}

/** "000" … "999": the last three digits of an ID, by value. */
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, "0"));

/**
 * Decimal text for the IDs of one worker ID. A 63-bit ID does not fit in a double,
 * so each ID is written as its head (the ID divided by 1,000, as decimal text) and
 * its last three digits from a table: one string concatenation per ID, with no
 * BigInt and no number-to-string conversion. The head changes only every 1,000
 * consecutive IDs; it, and the split of the tick's base (tick and worker bits,
 * sequence 0), are computed with BigInt and remembered, so single IDs from one
 * tick (the generator's `next(1)`) reuse them too.
 */
class DecimalFormatter {
	private readonly layout: SnowflakeLayout;
	private readonly workerId: number;
	/** The tick whose base is split below, or -1. */
	private tick = -1;
	/** The tick's base as `baseThousands × 1000 + baseRest`. */
	private baseThousands = 0n;
	private baseRest = 0;
	/** The head for IDs `headOffset` thousands above `baseThousands × 1000`, or -1. */
	private headOffset = -1;
	private head = "";

	constructor(layout: SnowflakeLayout, workerId: number) {
		this.layout = layout;
		this.workerId = workerId;
	}

	format(runs: IdRun[]): string[] {
		let total = 0;
		for (const run of runs) total += run.count;
		const ids = new Array<string>(total);
		let at = 0;
		for (const run of runs) at = this.write(run, ids, at);
		return ids;
	}

	/** One run's IDs (what the generator's fast path issues). */
	formatRun(run: IdRun): string[] {
		const ids = new Array<string>(run.count);
		this.write(run, ids, 0);
		return ids;
	}

	/** Writes the run's IDs into `ids` from index `at`; returns the index after them. */
	private write(run: IdRun, ids: string[], at: number): number {
		if (run.tick !== this.tick) {
			const base = this.layout.compose({ tick: run.tick, workerId: this.workerId, sequence: 0 });
			this.tick = run.tick;
			this.baseThousands = base / 1000n;
			this.baseRest = Number(base % 1000n);
			this.headOffset = -1;
		}
		// The first ID is (baseThousands + thousands) × 1000 + rest, with rest < 1000.
		const start = this.baseRest + run.firstSequence;
		let thousands = Math.floor(start / 1000);
		let rest = start - thousands * 1000;
		let head = this.headAt(thousands);
		const end = at + run.count;
		for (let i = at; i < end; i++) {
			// An empty head means an ID below 1,000 (only at the very start of the epoch): no padding.
			ids[i] = head === "" ? String(rest) : head + THREE_DIGITS[rest];
			if (++rest === 1000) {
				rest = 0;
				head = this.headAt(++thousands);
			}
		}
		return end;
	}

	/** The decimal head of IDs `thousands` thousands above the base's; "" for zero. */
	private headAt(thousands: number): string {
		if (thousands !== this.headOffset) {
			const value = this.baseThousands + BigInt(thousands);
			this.head = value === 0n ? "" : String(value);
			this.headOffset = thousands;
		}
		return this.head;
	}
}
