import type { Clock } from "./clock";
import { IdError } from "./errors";
import type { SnowflakeLayout } from "./layout";

/**
 * IDs issued within one tick: sequences `firstSequence … firstSequence + count - 1`.
 * A batch is a few runs, which is also the compact form that crosses RPC hops.
 */
export interface IdRun {
	tick: number;
	firstSequence: number;
	count: number;
}

export interface SnowflakeGeneratorOptions {
	layout: SnowflakeLayout;
	workerId: number;
	clock: Clock;
	/** A clock that went back by at most this much is waited out; more is refused. */
	maxBackwardMs: number;
	/** How far ahead of the issued ticks the persisted high-water mark runs. */
	leaseMs: number;
	/**
	 * Stores a new high-water mark (a tick). No ID with a tick above the last stored
	 * mark is issued before this resolves, so an earlier life's mark bounds all its IDs.
	 */
	persistMark: (tick: number) => void | Promise<void>;
	/** The mark an earlier life of this worker ID persisted: nothing at or below it is issued. */
	restoredMark?: number | undefined;
	/** Uniform in [0, 1): picks the small random sequence start of each new tick. */
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

	/** The tick and sequence of the last ID issued (or the restored mark, as if its tick were full). */
	private lastTick: number;
	private sequence: number;
	/** The highest tick known to be persisted. */
	private mark: number;
	/** True from a restore until the clock has passed the restored mark. */
	private restoring: boolean;
	private tail: Promise<unknown> = Promise.resolve();
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

		const restored = options.restoredMark;
		this.mark = restored ?? -1;
		this.lastTick = restored ?? -1;
		this.sequence = layout.maxSequence;
		this.restoring = restored !== undefined;
	}

	/** `count` IDs as decimal strings, strictly increasing. */
	async next(count = 1): Promise<string[]> {
		return formatRuns(this.layout, this.workerId, await this.nextRuns(count));
	}

	/** `count` IDs in compact form, strictly increasing across runs and calls. */
	nextRuns(count = 1): Promise<IdRun[]> {
		const result = this.tail.then(() => this.issue(count));
		this.tail = result.catch(() => undefined);
		return result;
	}

	stats(): SnowflakeStats {
		return {
			...this.counters,
			lastTimestamp: this.lastTick >= 0 && !this.restoring ? this.layout.msOf(this.lastTick) : null,
		};
	}

	private async issue(count: number): Promise<IdRun[]> {
		this.counters.requests++;
		if (!Number.isSafeInteger(count) || count < 1) {
			throw new IdError("invalid_count", `count must be a positive integer, got ${count}`);
		}
		const { layout } = this;
		const runs: IdRun[] = [];
		let remaining = count;
		while (remaining > 0) {
			const now = this.clock.now();
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

			const first =
				tick > this.lastTick
					? Math.floor(this.random() * this.sequenceStartLimit)
					: this.sequence + 1;
			const n = Math.min(remaining, layout.maxSequence - first + 1);
			runs.push({ tick, firstSequence: first, count: n });
			this.lastTick = tick;
			this.sequence = first + n - 1;
			this.restoring = false;
			remaining -= n;
		}
		this.counters.issued += count;
		return runs;
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

const DECIMAL_SPLIT = 1_000_000_000n;

/**
 * Decimal strings for runs of IDs. One BigInt split per run, then plain number
 * arithmetic per ID: the run's base (tick and worker bits) is cut into a high
 * and a low part below 10^9, and each sequence is added to the low part.
 */
export function formatRuns(layout: SnowflakeLayout, workerId: number, runs: IdRun[]): string[] {
	let total = 0;
	for (const run of runs) total += run.count;
	const ids = new Array<string>(total);
	let i = 0;
	for (const run of runs) {
		const base = layout.compose({ tick: run.tick, workerId, sequence: 0 });
		const high = Number(base / DECIMAL_SPLIT);
		const low = Number(base % DECIMAL_SPLIT);
		const end = run.firstSequence + run.count;
		if (high === 0) {
			for (let s = run.firstSequence; s < end; s++) ids[i++] = String(low + s);
			continue;
		}
		const prefix = String(high);
		for (let s = run.firstSequence; s < end; s++) {
			const v = low + s;
			ids[i++] =
				v < 1e9
					? prefix + String(v + 1e9).slice(1)
					: String(high + Math.floor(v / 1e9)) + String((v % 1e9) + 1e9).slice(1);
		}
	}
	return ids;
}
