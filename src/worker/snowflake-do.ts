import { DurableObject } from "cloudflare:workers";
import type { Clock } from "../ids/clock";
import { IdError } from "../ids/errors";
import {
	type IdRun,
	type SnowflakeCounters,
	SnowflakeGenerator,
	type SnowflakeStats,
} from "../ids/snowflake";
import { configFrom } from "./config";
import { type ServiceErrorCode, serviceError } from "./errors";

/** What `issue` answers. Errors travel as values: own properties of a thrown error do not cross RPC. */
export type IssueResult =
	/**
	 * `layout`: the issuing object's layout fingerprint (absent from objects of
	 * earlier versions); a Worker on another layout must not format the runs.
	 */
	| { ok: true; runs: IdRun[]; layout?: string }
	| { ok: false; code: ServiceErrorCode; detail: string; retryAfterSeconds?: number | undefined };

/** An object's stats; `since` (ISO) is when counting began: they survive restarts. */
export type ObjectStats = SnowflakeStats & { workerId: number; since: string };

export type StatsResult = { ok: true; stats: ObjectStats } | Extract<IssueResult, { ok: false }>;

/** Date.now() is frozen while a deployed Worker runs: waiting is a timer, never a spin. */
export const workersClock: Clock = {
	now: () => Date.now(),
	sleep: (ms) => scheduler.wait(ms),
};

/** The high-water mark, a plain number: the one format every version reads. */
const MARK_KEY = "mark";
const LAYOUT_KEY = "layout";
/** Written in the same synchronous batch as the mark (one commit): `StoredStats`. */
const STATS_KEY = "stats";
/**
 * The longest lease an earlier version could have written a mark with (it accepted
 * LEASE_MS up to 60 s): a mark without `StoredStats` may lead the clock by that much.
 */
const LEGACY_MAX_LEASE_MS = 60_000;

interface StoredStats {
	/** The mark these were written with; another mark means a version without stats wrote it. */
	mark: number;
	/**
	 * The lease that mark was written with (the generator's `leaseMs`): a new life
	 * borrows that far from it. Ticks borrowed while catching up after a restart are
	 * not in it, so quick restarts do not add up.
	 */
	aheadMs: number;
	since: string;
	counters: SnowflakeCounters;
}

/**
 * One instance per Snowflake worker ID (named by it), the only place that worker
 * ID's `lastTimestamp` and `sequence` live. Cloudflare runs at most one live
 * instance per name, so no two generators ever share a worker ID.
 *
 * Storage holds the layout fingerprint and a high-water mark lease: a tick that
 * every issued ID is at or below. A restarted instance issues only above it.
 */
export class SnowflakeWorker extends DurableObject<Env> {
	/** The time source; tests replace it (runInDurableObject) to drive the clock. */
	clock: Clock = workersClock;
	private generator: SnowflakeGenerator | undefined;
	/** The fingerprint of the layout this instance issues under (set with the generator). */
	private fingerprint = "";
	private since = "";

	async issue(workerId: number, count: number): Promise<IssueResult> {
		try {
			const generator = this.generatorFor(workerId);
			const runs = await generator.nextRuns(count);
			return { ok: true, runs, layout: this.fingerprint };
		} catch (error) {
			return failure(error);
		}
	}

	async stats(workerId: number): Promise<StatsResult> {
		try {
			const stats = this.generatorFor(workerId).stats();
			return { ok: true, stats: { workerId, ...stats, since: this.since } };
		} catch (error) {
			return failure(error);
		}
	}

	private generatorFor(workerId: number): SnowflakeGenerator {
		if (this.generator) {
			if (this.generator.workerId !== workerId) {
				throw new IdError("internal", "a Snowflake object was asked for another worker ID");
			}
			return this.generator;
		}
		const config = configFrom(this.env);
		const { layout } = config;
		const kv = this.ctx.storage.kv;
		const fingerprint = layout.fingerprint();
		const stored = kv.get<string>(LAYOUT_KEY);
		if (stored !== undefined && stored !== fingerprint) {
			// IDs issued under another layout could collide with this one's: refuse.
			throw serviceError(
				"layout_mismatch",
				`worker ID ${workerId} issued IDs under another Snowflake layout; restore the SNOWFLAKE_* settings it used or move to a new epoch in a new namespace`,
			);
		}
		if (stored === undefined) kv.put(LAYOUT_KEY, fingerprint);
		this.fingerprint = fingerprint;
		const mark = kv.get<number>(MARK_KEY);
		const saved = kv.get<StoredStats>(STATS_KEY);
		// Stats written with another mark are stale (a version without them wrote since): start over.
		const current = saved !== undefined && saved.mark === mark ? saved : undefined;
		this.since = current?.since ?? new Date(this.clock.now()).toISOString();
		const generator = new SnowflakeGenerator({
			layout,
			workerId,
			clock: { now: () => this.clock.now(), sleep: (ms) => this.clock.sleep(ms) },
			maxBackwardMs: config.maxClockBackwardMs,
			maxBorrowMs: config.maxBorrowMs,
			maxWaitMs: config.maxWaitMs,
			leaseMs: config.leaseMs,
			restoredMark: mark,
			restoredLeaseMs: mark === undefined ? undefined : (current?.aheadMs ?? LEGACY_MAX_LEASE_MS),
			restoredCounters: current?.counters,
			// Synchronous writes, committed together; the output gate holds every response
			// until they are durable. The stats ride along: no write of their own.
			persistMark: (tick, leaseMs) => {
				const { lastTimestamp: _, ...counters } = generator.stats();
				// This write is the one about to be counted.
				counters.leaseWrites++;
				const record: StoredStats = {
					mark: tick,
					aheadMs: leaseMs,
					since: this.since,
					counters,
				};
				kv.put(MARK_KEY, tick);
				kv.put(STATS_KEY, record);
			},
		});
		this.generator = generator;
		return generator;
	}
}

function failure(error: unknown): Extract<IssueResult, { ok: false }> {
	if (error instanceof IdError) {
		return {
			ok: false,
			code: error.code,
			detail: error.detail,
			retryAfterSeconds: error.retryAfterSeconds,
		};
	}
	throw error;
}
