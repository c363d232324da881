/**
 * The auto route's per-isolate ID pools: module state, made on first use (no
 * timers or randomness at module top level), one pool per set of auto worker
 * IDs it draws from. The set is the key, so several sets (say, one per region)
 * each get their own pool. A pool holds IDs only; the refill makes its Durable
 * Object stub inside the call, in the request that runs it.
 */
import { IdPool, type IssuedRuns } from "../../ids/pools/id-pool";
import type { WorkerIdSet } from "../../ids/pools/worker-id-set";
import type { Config } from "../config/config";

/** Issues `count` IDs from one worker ID's object (the one object call every path uses). */
export type IssueFromObject = (workerId: number, count: number) => Promise<IssuedRuns>;

/**
 * Per config (parsed once per env, so one per isolate in production; tests make
 * their own), then per worker-ID set: the config's sets are fixed objects, so a
 * request finds its pool without building a key.
 */
const poolsByConfig = new WeakMap<Config, Map<WorkerIdSet, IdPool>>();

/** The pool drawing from `set` under this config (layout and pool settings). */
export function autoPool(config: Config, set: WorkerIdSet, issue: IssueFromObject): IdPool {
	let pools = poolsByConfig.get(config);
	if (!pools) {
		pools = new Map();
		poolsByConfig.set(config, pools);
	}
	let pool = pools.get(set);
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
		pools.set(set, pool);
	}
	return pool;
}
