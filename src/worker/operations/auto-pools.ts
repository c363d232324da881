/**
 * The auto route's per-isolate ID pools: module state, made on first use (no
 * timers or randomness at module top level), one pool per set of auto worker
 * IDs it draws from, so several sets (say, one per region) each get their own.
 * One isolate, one pool per set, whatever the way in: public HTTP, a binding's
 * `fetch` (its own copy of env, so its own parsed config and set objects) and RPC
 * find the same pool, by the set's worker IDs and the settings it was made with,
 * never by the config object. A pool holds IDs only; the refill makes its Durable
 * Object stub inside the call, in the request that runs it.
 *
 *   const pool = autoPool(config, autoSetFor(config, cf).workerIds, issue);
 *   const taken = await pool.take(5, background);
 */
import { IdPool, type IssuedRuns } from "../../ids/pools/id-pool";
import type { WorkerIdSet } from "../../ids/pools/worker-id-set";
import type { Config } from "../config/config";

/** Issues `count` IDs from one worker ID's object (the one object call every path uses). */
export type IssueFromObject = (workerId: number, count: number) => Promise<IssuedRuns>;

/**
 * This isolate's pools, by what makes one: the layout, the pool settings and the
 * set's worker IDs. One isolate has one config's values, so in production the key is
 * the set alone; tests with other vars get pools of their own.
 */
const pools = new Map<string, IdPool>();

function poolKey(config: Config, set: WorkerIdSet): string {
	const { epoch, timeBits, workerBits, sequenceBits, timeUnitMs } = config.layout;
	const layout = [epoch, timeBits, workerBits, sequenceBits, timeUnitMs].join("/");
	return `${layout} ${config.poolMaxAgeMs} ${config.poolMaxSize} ${config.maxWaitMs} ${set}`;
}

/** The pool drawing from `set` under this config (layout and pool settings). */
export function autoPool(config: Config, set: WorkerIdSet, issue: IssueFromObject): IdPool {
	const key = poolKey(config, set);
	let pool = pools.get(key);
	if (!pool) {
		const pick = () => set.pick(Math.random);
		pool = new IdPool({
			now: () => Date.now(),
			msOfTick: (tick) => config.layout.msOf(tick),
			refill: (size) => issue(pick(), size),
			direct: (count) => issue(pick(), count),
			maxAgeMs: config.poolMaxAgeMs,
			maxSize: config.poolMaxSize,
			// An object call waits at most MAX_WAIT_MS; a refill later than that (and a
			// second of travel) is lost, say with a cancelled request: go direct.
			refillTimeoutMs: config.maxWaitMs + 1_000,
		});
		pools.set(key, pool);
	}
	return pool;
}
