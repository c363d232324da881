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
import type { Clock } from "./clock";
import { type CountRule, checkCount, IdError } from "./errors";
import type { SnowflakeLayout } from "./layout";
import { DecimalFormatter } from "./snowflake-text";

export { formatRuns } from "./snowflake-text";

/** A generator issues at least one ID per call; the service bounds the batch. */
const ANY_POSITIVE_COUNT: CountRule = { min: 1, max: Number.MAX_SAFE_INTEGER };

/**
 * IDs issued within one tick: sequences `firstSequence … firstSequence + count - 1`.
 * A batch is a few runs, which is also the compact form that crosses RPC hops.
 */
export interface IdRun {
	tick: number;
	firstSequence: number;
	count: number;
}

/** What a `SnowflakeGenerator` needs; all required unless a default is named. */
export interface SnowflakeGeneratorOptions {
	/** How IDs are cut up (validated by `SnowflakeLayout`). */
	layout: SnowflakeLayout;
	/** An integer in [0, layout.maxWorkerId]; else `invalid_worker_id`. */
	workerId: number;
	/** Time and waiting: `systemClock`, a Workers clock (`scheduler.wait`), or a fake in tests. */
	clock: Clock;
	/** A clock that went back by at most this much is waited out; more is `clock_regression`. */
	maxBackwardMs: number;
	/** How far ahead of the issued ticks the persisted high-water mark runs. */
	leaseMs: number;
	/**
	 * Stores a new high-water mark (a tick). No ID with a tick above the last stored
	 * mark is issued before this resolves, so an earlier life's mark bounds all its IDs.
	 */
	persistMark: (tick: number) => void | Promise<void>;
	/** The mark an earlier life of this worker ID persisted: nothing at or below it is issued. Default: none (a first life). */
	restoredMark?: number | undefined;
	/** Uniform in [0, 1): picks the small random sequence start of each new tick. Default: `Math.random`. */
	random?: () => number;
}

export interface SnowflakeStats {
	/** IDs handed out. */
	issued: number;
	/** Calls of `next`/`nextRuns`, failed ones included. */
	requests: number;
	/** Times the clock was found behind the last issued tick (restart waits excluded). */
	clockRegressions: number;
	maxRegressionMs: number;
	/** Times a tick's sequence ran out and the generator waited for the next tick. */
	rolloverWaits: number;
	/** High-water marks persisted. */
	leaseWrites: number;
	/** Unix ms at which the last issued tick starts, or null before the first ID. */
	lastTimestamp: number | null;
}

/**
 * The Snowflake generator for one worker ID. Calls are serialized here: the
 * state read, any wait (regression, rollover, lease write) and the state update
 * form one critical section, because a host like a Durable Object lets other
 * requests in while this one awaits a timer.
 *
 * Most calls need no wait at all, and those take a fast path: when no other call
 * is in flight, the clock is at or past the last tick, the persisted mark already
 * covers it and the IDs fit in what is left of the tick, they are issued
 * synchronously, without the queue's promise hops. That is the same critical
 * section, only without awaiting: with nothing in flight there is nobody to wait
 * for, and nothing can run in between. Every other call goes through the queue.
 */
export class SnowflakeGenerator {
	readonly layout: SnowflakeLayout;
	readonly workerId: number;
	private readonly clock: Clock;
	private readonly maxBackwardMs: number;
	private readonly leaseTicks: number;
	private readonly persistMark: (tick: number) => void | Promise<void>;
	private readonly random: () => number;
	private readonly sequenceStartLimit: number;
	private readonly decimal: DecimalFormatter;

	/** The tick and sequence of the last ID issued (or the restored mark, as if its tick were full). */
	private lastTick: number;
	private sequence: number;
	/** The highest tick known to be persisted. */
	private mark: number;
	/** True from a restore until the clock has passed the restored mark. */
	private restoring: boolean;
	private tail: Promise<unknown> = Promise.resolve();
	/** Queued calls not finished yet (running, waiting, or queued behind one that is). */
	private inFlight = 0;
	private readonly counters: Omit<SnowflakeStats, "lastTimestamp"> = {
		issued: 0,
		requests: 0,
		clockRegressions: 0,
		maxRegressionMs: 0,
		rolloverWaits: 0,
		leaseWrites: 0,
	};

	constructor(options: SnowflakeGeneratorOptions) {
		const { layout, workerId } = options;
		if (!Number.isSafeInteger(workerId) || workerId < 0 || workerId > layout.maxWorkerId) {
			throw new IdError(
				"invalid_worker_id",
				`workerId must be an integer in [0, ${layout.maxWorkerId}], got ${workerId}`,
			);
		}
		this.layout = layout;
		this.workerId = workerId;
		this.clock = options.clock;
		this.maxBackwardMs = options.maxBackwardMs;
		this.leaseTicks = Math.max(1, Math.ceil(options.leaseMs / layout.timeUnitMs));
		this.persistMark = options.persistMark;
		this.random = options.random ?? Math.random;
		// Leaf's fix for all-even IDs at low load: start each tick at a small random
		// sequence. 2^(bits/2) values (64 of 4,096 for Twitter) cost under 2% of capacity.
		this.sequenceStartLimit = 2 ** Math.floor(layout.sequenceBits / 2);
		this.decimal = new DecimalFormatter(layout, workerId);

		const restored = options.restoredMark;
		this.mark = restored ?? -1;
		this.lastTick = restored ?? -1;
		this.sequence = layout.maxSequence;
		this.restoring = restored !== undefined;
	}

	/**
	 * `count` IDs (default 1, any positive integer) as decimal strings, strictly
	 * increasing and above every ID this worker ID issued before. Rejects with
	 * `clock_regression` (clock back by more than `maxBackwardMs`), `layout_exhausted`
	 * (past the layout's last instant) or `invalid_count`.
	 */
	next(count = 1): Promise<string[]> {
		const started = this.start(count);
		if (started instanceof Promise) return started.then((runs) => this.decimal.format(runs));
		return Promise.resolve(this.decimal.formatRun(started));
	}

	/** `count` IDs in compact form, strictly increasing across runs and calls. */
	nextRuns(count = 1): Promise<IdRun[]> {
		const started = this.start(count);
		return started instanceof Promise ? started : Promise.resolve([started]);
	}

	/** Counters since this generator was made (see `SnowflakeStats`). */
	stats(): SnowflakeStats {
		return {
			...this.counters,
			lastTimestamp: this.lastTick >= 0 && !this.restoring ? this.layout.msOf(this.lastTick) : null,
		};
	}

	/**
	 * Begins a call: the IDs themselves when the fast path can issue them, else the
	 * queued call's promise. Never throws; a failure is a rejected promise.
	 */
	private start(count: number): IdRun | Promise<IdRun[]> {
		if (this.inFlight > 0) return this.enqueue(count, undefined);
		let now: number;
		let run: IdRun | undefined;
		try {
			now = this.clock.now();
			run = this.issueAtOnce(count, now);
		} catch (error) {
			this.counters.requests++;
			return Promise.reject(error);
		}
		// Not at once: the queued path takes over with this clock reading, so a call
		// reads the clock the same number of times whichever path it ends on.
		return run ?? this.enqueue(count, now);
	}

	/**
	 * The fast path, only when nothing is in flight: issues `count` IDs in the tick of
	 * `now` if that needs no wait and no storage write, else returns undefined having
	 * changed nothing (the queued path then handles the call, errors included).
	 */
	private issueAtOnce(count: number, now: number): IdRun | undefined {
		const { layout } = this;
		const tick = layout.tickOf(now);
		if (!Number.isSafeInteger(count) || count < 1) return undefined;
		// Only a tick inside the layout, not behind the last one and covered by the stored
		// mark; otherwise an error, a regression wait or a lease write comes first.
		// (Written as a positive test so that a NaN clock reading falls through too.)
		const ready =
			tick >= 0 && tick < layout.tickLimit && tick >= this.lastTick && tick <= this.mark;
		if (!ready) return undefined;
		// Room left in the tick; a new tick starts at a random sequence, so count on the
		// highest start. (After a restore the restored tick is full, so a restoring
		// generator never gets here: the queued path does the waiting.)
		const room =
			tick === this.lastTick
				? layout.maxSequence - this.sequence
				: layout.maxSequence - this.sequenceStartLimit + 2;
		if (count > room) return undefined;
		const run = this.takeRun(tick, count);
		this.counters.requests++;
		this.counters.issued += count;
		return run;
	}

	/** Queues a call behind those in flight; `reading` (a clock reading) only when there are none. */
	private enqueue(count: number, reading: number | undefined): Promise<IdRun[]> {
		this.inFlight++;
		// With nothing in flight the call starts right away (an async function runs
		// synchronously up to its first await), so the reading is still current.
		const result =
			reading === undefined
				? this.tail.then(() => this.issue(count, undefined))
				: this.issue(count, reading);
		this.tail = result.catch(() => undefined);
		return result;
	}

	/** The queued path: the whole critical section, waits included. */
	private async issue(count: number, reading: number | undefined): Promise<IdRun[]> {
		try {
			this.counters.requests++;
			checkCount(count, ANY_POSITIVE_COUNT);
			const { layout } = this;
			const runs: IdRun[] = [];
			let remaining = count;
			let firstReading = reading;
			while (remaining > 0) {
				const now = firstReading ?? this.clock.now();
				firstReading = undefined;
				const tick = layout.tickOf(now);

				if (tick < 0) {
					throw new IdError(
						"invalid_config",
						`the clock (${new Date(now).toISOString()}) is before the Snowflake epoch (${new Date(layout.epoch).toISOString()})`,
					);
				}
				// Regression first, before the sequence is touched: the original Twitter
				// code reset the sequence first and could repeat IDs.
				if (tick < this.lastTick) {
					await this.waitForClock(now);
					continue;
				}
				if (tick === this.lastTick && this.sequence >= layout.maxSequence) {
					if (!this.restoring) this.counters.rolloverWaits++;
					await this.clock.sleep(Math.max(1, layout.msOf(tick + 1) - now));
					continue;
				}
				if (tick >= layout.tickLimit) {
					throw new IdError(
						"layout_exhausted",
						`the Snowflake layout ran out of time at ${new Date(layout.exhaustsAt).toISOString()}; configure a later epoch or more time bits`,
					);
				}
				if (tick > this.mark) {
					const mark = tick + this.leaseTicks;
					await this.persistMark(mark);
					this.mark = mark;
					this.counters.leaseWrites++;
				}
				const run = this.takeRun(tick, remaining);
				runs.push(run);
				remaining -= run.count;
			}
			this.counters.issued += count;
			return runs;
		} finally {
			this.inFlight--;
		}
	}

	/**
	 * Issues up to `wanted` IDs from `tick`, which is at or after the last tick and
	 * covered by the mark: the state update both paths share.
	 */
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

	/** The clock is behind the last tick: wait it out if within bounds, else refuse. */
	private async waitForClock(now: number): Promise<void> {
		const behindMs = this.layout.msOf(this.lastTick) - now;
		// After a restart the mark runs up to a lease ahead of the last real ID.
		const allowedMs = this.restoring
			? this.maxBackwardMs + this.leaseTicks * this.layout.timeUnitMs
			: this.maxBackwardMs;
		if (!this.restoring) {
			this.counters.clockRegressions++;
			this.counters.maxRegressionMs = Math.max(this.counters.maxRegressionMs, behindMs);
		}
		if (behindMs > allowedMs) {
			throw new IdError(
				"clock_regression",
				`the clock is ${behindMs} ms behind the last issued ID, more than the ${allowedMs} ms this service waits out; retry later`,
				Math.ceil(behindMs / 1000),
			);
		}
		await this.clock.sleep(behindMs);
	}
}
