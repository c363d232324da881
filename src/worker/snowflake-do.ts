import { DurableObject } from "cloudflare:workers";
import type { Clock } from "../ids/clock";
import { IdError } from "../ids/errors";
import { type IdRun, SnowflakeGenerator, type SnowflakeStats } from "../ids/snowflake";
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

export type StatsResult =
	| { ok: true; stats: SnowflakeStats & { workerId: number } }
	| Extract<IssueResult, { ok: false }>;

/** Date.now() is frozen while a deployed Worker runs: waiting is a timer, never a spin. */
export const workersClock: Clock = {
	now: () => Date.now(),
	sleep: (ms) => scheduler.wait(ms),
};

const MARK_KEY = "mark";
const LAYOUT_KEY = "layout";

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
			return { ok: true, stats: { workerId, ...this.generatorFor(workerId).stats() } };
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
		this.generator = new SnowflakeGenerator({
			layout,
			workerId,
			clock: { now: () => this.clock.now(), sleep: (ms) => this.clock.sleep(ms) },
			maxBackwardMs: config.maxClockBackwardMs,
			leaseMs: config.leaseMs,
			restoredMark: kv.get<number>(MARK_KEY),
			// Synchronous write; the output gate holds every response until it is durable.
			persistMark: (tick) => kv.put(MARK_KEY, tick),
		});
		return this.generator;
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
