/**
 * Snowflake IDs for one worker ID: a serialized generator that never issues an
 * ID twice or out of order, whatever the clock does, and persists a high-water
 * mark (a lease) so that a later life of the same worker ID never reissues.
 * Runtime-neutral: the clock, the randomness and the mark's storage are injected.
 *
 *   const generator = new SnowflakeGenerator({
 *     layout: new SnowflakeLayout(TWITTER_LAYOUT),
 *     workerId: 7,
 *     clock: systemClock,
 *     maxBackwardMs: 1000,
 *     leaseMs: 1000,
 *     restoredMark: storage.get("mark"),
 *     persistMark: (tick) => storage.put("mark", tick),
 *   });
 *   const ids = await generator.next(3); // three decimal strings, strictly increasing
 */
import { type Clock, finiteReading } from "../clock";
import { DecimalFormatter } from "./decimal";
import type { SnowflakeLayout } from "./layout";
import { LeadLimits } from "./lead";
import {
	DEFAULT_MAX_WAIT_MS,
	type HandedOver,
	maxIdsPerCall,
	NO_COUNTS,
	type SnowflakeCounters,
	type SnowflakeGeneratorOptions,
	type SnowflakeStats,
} from "./options";
import * as refuse from "./refusals";
import { type IdRun, TickCursor } from "./runs";
import { type QueuedAt, WaitBudget } from "./waits";

export { formatRuns } from "./decimal";
export * from "./options";
export type { IdRun } from "./runs";

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
	private readonly maxWaitMs: number;
	private readonly leaseTicks: number;
	private readonly persistMark: SnowflakeGeneratorOptions["persistMark"];
	private readonly admit: SnowflakeGeneratorOptions["admit"];
	private readonly maxCallCount: number; // the most IDs one call gets within its budget
	private readonly decimal: DecimalFormatter;

	private readonly cursor: TickCursor; // the last tick issued in (or the restored mark, as if full)
	private mark: number; // the highest tick known to be persisted
	private restoring: boolean; // from a restore until the first ID is issued
	private readonly leads: LeadLimits; // how far ahead of the clock a tick may be issued
	private readonly waits: WaitBudget;
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
		const maxBorrowMs = options.maxBorrowMs ?? 0;
		this.maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
		this.leaseTicks = Math.max(1, Math.ceil(options.leaseMs / layout.timeUnitMs));
		this.persistMark = options.persistMark;
		this.admit = options.admit;
		this.maxCallCount = maxIdsPerCall(layout, this.maxWaitMs, maxBorrowMs);
		this.decimal = new DecimalFormatter(layout, workerId);

		const restored = refuse.wholeMark(options.restoredMark);
		this.mark = restored ?? -1;
		this.cursor = new TickCursor(layout, restored ?? -1, options.random ?? Math.random);
		// Stryker disable next-line ConditionalExpression: a fresh generator's last tick is -1, nothing to compare with; its first run clears the flag
		this.restoring = restored !== undefined;
		// A restored mark may lead the clock by the earlier lease: go on above it, borrowing.
		this.leads = new LeadLimits(layout, {
			restored,
			maxBorrowMs,
			leaseTicks: this.leaseTicks,
			restoredLeaseMs: refuse.finiteLease(options.restoredLeaseMs) ?? options.leaseMs,
		});
		this.waits = new WaitBudget(this.clock);
		this.counters = { ...NO_COUNTS, ...options.restoredCounters };
	}

	/**
	 * `count` IDs (default 1, any positive integer) as decimal strings, strictly
	 * increasing and above every ID this worker ID issued before. Rejects with
	 * `clock_regression` (clock back by more than `maxBackwardMs`), `layout_exhausted`
	 * (past the layout's last instant) or `invalid_count`.
	 */
	next(count = 1): Promise<string[]> {
		if (count === 1 && this.inFlight === 0) return this.nextOne();
		return this.formatted(this.start(count));
	}

	/** `count` IDs in compact form, strictly increasing across runs and calls. */
	nextRuns(count = 1): Promise<IdRun[]> {
		const started = this.start(count);
		if (started instanceof Promise) return started;
		return Promise.resolve(Array.isArray(started) ? started : [started]);
	}

	/** Counters since this generator was made (see `SnowflakeStats`). */
	stats(): SnowflakeStats {
		return {
			...this.counters,
			lastTimestamp: this.lastTick >= 0 && !this.restoring ? this.layout.msOf(this.lastTick) : null,
		};
	}

	/**
	 * Runs `work` in the critical section (after the calls queued before it). It gets the
	 * mark, at or above every ID issued, and answers the last tick it gave away, persisted
	 * as the new mark: later IDs are above it, as after a restore. (Worker-ID leases.)
	 */
	handOver<T>(work: (mark: number) => HandedOver<T> | Promise<HandedOver<T>>): Promise<T> {
		this.inFlight++;
		const result = this.tail.then(async () => {
			try {
				const { value, through } = await work(this.mark);
				if (through !== undefined && through > this.lastTick) {
					this.mark = Math.max(this.mark, through);
					this.cursor.skipTo(through);
					this.restoring = true; // the last tick is not this generator's: as if restored
				}
				return value;
			} finally {
				this.inFlight--;
			}
		});
		this.tail = result.catch(() => undefined);
		return result;
	}

	/**
	 * One ID, nothing in flight (a Node service's call per request): while the clock is in
	 * the last tick and it has room, the next sequence as text from the tick's cached base.
	 * Else the general way with the same reading, which issues exactly the same.
	 */
	private nextOne(): Promise<string[]> {
		let now: number;
		try {
			now = this.readClock();
		} catch (error) {
			this.counters.requests++;
			return Promise.reject(error);
		}
		const id = this.inLastTick(now);
		if (id !== undefined) return Promise.resolve([id]);
		return this.formatted(this.start(1, now));
	}

	/**
	 * `next(1)`'s fast path without a promise, for a host that wraps `next` (a lease
	 * holder): one ID at once while nothing is in flight and the clock is still in the
	 * last ID's tick with room left; else undefined, having changed nothing.
	 */
	nextNow(): string | undefined {
		if (this.inFlight > 0) return undefined;
		let now: number;
		try {
			now = this.clock.now();
		} catch /* Stryker disable next-line BlockStatement: left undefined, now makes tickOf NaN, which no last tick equals: undefined too */ {
			return undefined; // `next` reads it again and rejects
		}
		return this.inLastTick(now);
	}

	/** The next ID of the last tick if the clock `now` is still in it and it has room. */
	private inLastTick(now: number): string | undefined {
		// Room left means an ID was issued in the last tick: it is in the layout, under the mark.
		const sequence = this.cursor.nextInLast(this.layout.tickOf(now));
		if (sequence === undefined) return undefined;
		this.counters.requests++;
		this.counters.issued++;
		return this.decimal.formatOne(this.lastTick, sequence);
	}

	private formatted(started: IdRun | IdRun[] | Promise<IdRun[]>): Promise<string[]> {
		if (started instanceof Promise) return started.then((runs) => this.decimal.format(runs));
		if (Array.isArray(started)) return Promise.resolve(this.decimal.format(started));
		return Promise.resolve(this.decimal.formatRun(started));
	}

	/** The IDs at once (fast path), else the queued call's promise; `reading` if read. Never throws. */
	private start(count: number, reading?: number): IdRun | IdRun[] | Promise<IdRun[]> {
		try {
			if (this.inFlight > 0) return this.enqueue(count, undefined);
			const now = reading ?? this.readClock();
			const refused = this.admit?.(now);
			if (refused) throw refused;
			// The queued path takes over with this reading: one clock read per call either way.
			return this.issueAtOnce(count, now) ?? this.enqueue(count, now);
		} catch (error) {
			this.counters.requests++;
			return Promise.reject(error);
		}
	}

	/** The ticks `count` IDs start and (at the latest) end in, the clock reading `now`. */
	private span(count: number, now: number): { first: number; last: number } {
		return this.cursor.span(count, this.layout.tickOf(now));
	}

	/** Tick of the last ID issued (or the restored mark). */
	private get lastTick(): number {
		return this.cursor.lastTick;
	}

	/** Nothing in flight: the IDs if they need no wait nor write, else undefined having changed nothing. */
	private issueAtOnce(count: number, now: number): IdRun | IdRun[] | undefined {
		const { layout } = this;
		if (!Number.isSafeInteger(count) || count < 1 || count > this.maxCallCount) return undefined;
		// Stryker disable next-line ConditionalExpression: without this check the lead check below declines the same readings
		if (!(now >= layout.epoch)) return undefined;
		// Stryker disable next-line ConditionalExpression: implied by the lead check of the last tick needed, below
		if (!(layout.msOf(this.lastTick) - now <= this.leads.limitMs(this.lastTick))) return undefined;
		const { first, last } = this.span(count, now);
		// Every tick needed in the layout, under the mark, within its lead limit (the last decides).
		const ready =
			last < layout.tickLimit &&
			last <= this.mark &&
			layout.msOf(last) - now <= this.leads.limitMs(last);
		if (!ready) return undefined;
		this.counters.requests++;
		this.counters.issued += count;
		// Stryker disable next-line ConditionalExpression,BlockStatement: the loop below issues the same one run, as an array (both paths take either)
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
		// Stryker disable next-line EqualityOperator: an equal lead stores the same value
		if (lead > this.counters.maxLeadMs) this.counters.maxLeadMs = lead;
	}

	/** Queues a call behind those in flight; `reading` (a clock reading) only when there are none. Throws a clock fault. */
	private enqueue(count: number, reading: number | undefined): Promise<IdRun[]> {
		// Read before the call counts as in flight: a clock fault refuses it having changed nothing.
		// The budget counts from now: the waits of the calls ahead of this one too.
		const since = this.waits.queuedAt(reading ?? this.readClock());
		this.inFlight++;
		// With nothing in flight the call starts right away (synchronously up to its first await).
		const result =
			reading === undefined
				? this.tail.then(() => this.issue(count, undefined, since))
				: this.issue(count, reading, since);
		this.tail = result.catch(() => undefined);
		return result;
	}

	/** The queued path: the whole critical section, waits included. */
	private async issue(
		count: number,
		reading: number | undefined,
		since: QueuedAt,
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
			let admitted = reading !== undefined; // a reading comes from `start`, which asked
			while (remaining > 0) {
				const now = firstReading ?? this.readClock();
				firstReading = undefined;
				if (!admitted) {
					const refused = this.admit?.(now);
					if (refused) throw refused;
					admitted = true;
				}
				const tick = layout.tickOf(now);
				if (tick < 0) throw refuse.beforeEpoch(layout, now);
				const budgetMs = this.maxWaitMs - this.waits.waitedMs(since, now);
				// Regression first, before the sequence is touched (Twitter's code reset it first and
				// could repeat IDs). Restored, the last tick is the full mark: the mark + 1 must be in reach.
				const behindTick = this.restoring ? this.lastTick + 1 : this.lastTick;
				const behindMs = layout.msOf(behindTick) - now;
				const lastLimitMs = this.leads.limitMs(behindTick);
				if (behindMs > lastLimitMs) {
					await this.waitForClock(behindMs, behindMs - lastLimitMs, budgetMs);
					continue;
				}
				// Stryker disable next-line ConditionalExpression: checking again later refuses no other call (what is left needs no more wait than first counted; each wait is checked too)
				if (!checked) {
					// Before anything is issued: refuse a call that surely cannot finish.
					this.refuseIfTooLong(remaining, now, budgetMs);
					// Stryker disable next-line BooleanLiteral: as above
					checked = true;
				}
				const target = this.span(1, now).first;
				if (target >= layout.tickLimit) throw refuse.layoutExhausted(layout);
				const aheadMs = layout.msOf(target) - now - this.leads.limitMs(target);
				if (aheadMs > 0) {
					if (aheadMs > budgetMs) throw refuse.overloaded(this.workerId, aheadMs, this.maxWaitMs);
					if (target !== waitedFor && !this.restoring) this.counters.rolloverWaits++;
					waitedFor = target;
					await this.waits.sleep(aheadMs);
					continue;
				}
				if (target > this.mark) {
					// A lease ahead of the clock (covering the target: borrowed after a restore, it
					// may be further ahead), so marks cannot run away over quick restarts.
					const mark = Math.max(target, tick + this.leaseTicks);
					const leaseMs = this.leads.leaseOf(mark, now);
					const stored = await this.persistMark(mark, leaseMs, target, budgetMs);
					// A bounded store (a leased span) may hold another mark: the generator's ceiling.
					if (stored !== undefined && !(Number.isSafeInteger(stored) && stored >= target)) {
						throw refuse.markBelowNeeded(stored, target);
					}
					this.mark = stored ?? mark;
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

	/** A clock reading; one that is not a finite number is refused (`clockFault`), never used. */
	private readClock = () => finiteReading(this.clock.now());

	/** Refuses, before issuing anything, a call whose last tick is out of reach. */
	private refuseIfTooLong(count: number, now: number, budgetMs: number): void {
		const { last } = this.span(count, now);
		const waitMs = this.layout.msOf(last) - now - this.leads.limitMs(last);
		if (waitMs > budgetMs) throw refuse.overloaded(this.workerId, waitMs, this.maxWaitMs);
	}

	/** Up to `wanted` IDs from `tick` (≥ the last tick, covered by the mark): both paths' update. */
	private takeRun(tick: number, wanted: number): IdRun {
		this.restoring = false;
		return this.cursor.take(tick, wanted);
	}

	/** The clock is `waitMs` further behind the last tick than borrowing covers: wait or refuse. */
	private async waitForClock(behindMs: number, waitMs: number, budgetMs: number): Promise<void> {
		if (!this.restoring) {
			this.counters.clockRegressions++;
			this.counters.maxRegressionMs = Math.max(this.counters.maxRegressionMs, behindMs);
		}
		const allowedMs = Math.min(this.maxBackwardMs, budgetMs);
		if (waitMs > allowedMs) throw refuse.clockRegression(behindMs, waitMs, allowedMs);
		await this.waits.sleep(waitMs);
	}
}
