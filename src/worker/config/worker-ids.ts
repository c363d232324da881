/**
 * The worker-ID sets of the config: WORKER_IDS, AUTO_WORKER_IDS, AUTO_REGIONS and
 * LEASE_WORKER_IDS, read together because each is checked against the others.
 */

import { WorkerIdSet } from "../../ids/pools/worker-id-set";
import { TWITTER_LAYOUT } from "../../ids/snowflake/layout";
import type { ConfigProblems } from "./problems";
import { RegionMap } from "./regions";
import { type ConfigVars, integerVar, textVar } from "./vars";

/** The widest worker field a layout may have (SNOWFLAKE_WORKER_BITS ≤ 30). */
const WIDEST_MAX_WORKER_ID = 2 ** 30 - 1;

/**
 * With a bad layout the worker-ID sets are still checked: against the worker bits
 * if those parse, else against the widest field.
 */
export function maxWorkerIdWithoutLayout(vars: ConfigVars): number {
	try {
		const bits = vars.SNOWFLAKE_WORKER_BITS;
		return 2 ** integerVar("SNOWFLAKE_WORKER_BITS", bits, TWITTER_LAYOUT.workerBits, 0, 30) - 1;
	} catch {
		return WIDEST_MAX_WORKER_ID;
	}
}

const WORKER_IDS_RULE = 'worker IDs and ranges such as "0-31" or "0-3,8,10-12"';

/** How many worker IDs AUTO_WORKER_IDS holds when unset: `0-31` under the default WORKER_IDS. */
const DEFAULT_AUTO_SIZE = 32;

/**
 * WORKER_IDS, AUTO_WORKER_IDS, AUTO_REGIONS and LEASE_WORKER_IDS, within worker IDs
 * `0 … max`. The others must lie within the owned set, and the leased ones apart
 * from the auto and region sets (a worker ID is issued by the service or by lease
 * holders, never both); the errors name the sets as parsed (numbers only).
 */
export function workerIdVars(vars: ConfigVars, max: number, problems: ConfigProblems) {
	const text = (name: "WORKER_IDS" | "AUTO_WORKER_IDS" | "AUTO_REGIONS", rule: string) =>
		problems.read(() => textVar(name, vars[name], rule), undefined);
	const owned = text("WORKER_IDS", WORKER_IDS_RULE);
	const auto = text("AUTO_WORKER_IDS", WORKER_IDS_RULE);
	const regionText = text(
		"AUTO_REGIONS",
		'location hints with worker IDs such as "wnam:0-7 enam:8-15"',
	);
	const all = WorkerIdSet.all(max);
	const workerIds = owned
		? problems.read(() => WorkerIdSet.parse(owned, max, "WORKER_IDS"), all)
		: all;
	const within = (name: string, set: WorkerIdSet) => {
		if (workerIds.contains(set)) return;
		problems.found.push(
			`${name} (${set}) must lie within WORKER_IDS (${workerIds}), the worker IDs this deployment owns`,
		);
	};
	const leaseText = problems.read(
		() => textVar("LEASE_WORKER_IDS", vars.LEASE_WORKER_IDS, WORKER_IDS_RULE),
		undefined,
	);
	const leaseWorkerIds = leaseText
		? problems.read(() => WorkerIdSet.parse(leaseText, max, "LEASE_WORKER_IDS"), undefined)
		: undefined;
	if (leaseWorkerIds) within("LEASE_WORKER_IDS", leaseWorkerIds);
	const apart = (name: string, set: WorkerIdSet) => {
		if (!leaseWorkerIds?.overlaps(set)) return;
		problems.found.push(
			`LEASE_WORKER_IDS (${leaseWorkerIds}) and ${name} (${set}) share worker IDs (${leaseWorkerIds.intersect(set)}); a worker ID is leased to holders or issued by the service, never both`,
		);
	};
	// The first 32 owned worker IDs that are not leased.
	const unleased = leaseWorkerIds ? workerIds.without(leaseWorkerIds) : workerIds;
	let autoWorkerIds = unleased;
	if (unleased.size > DEFAULT_AUTO_SIZE) {
		const last = unleased.at(DEFAULT_AUTO_SIZE - 1);
		autoWorkerIds = unleased.intersect(new WorkerIdSet([{ from: 0, to: last }]));
	}
	if (auto) {
		const parsed = problems.read(() => WorkerIdSet.parse(auto, max, "AUTO_WORKER_IDS"), undefined);
		if (parsed) within("AUTO_WORKER_IDS", parsed);
		if (parsed) apart("AUTO_WORKER_IDS", parsed);
		autoWorkerIds = parsed ?? autoWorkerIds;
	} else if (autoWorkerIds.size === 0) {
		problems.found.push(
			`LEASE_WORKER_IDS (${leaseWorkerIds}) takes every worker ID of WORKER_IDS (${workerIds}); leave some for the auto route, or set AUTO_WORKER_IDS outside it`,
		);
	}
	const regions = problems.read(
		() => RegionMap.parse(regionText ?? "", max, "AUTO_REGIONS"),
		new RegionMap([]),
	);
	for (const { hint, workerIds: set } of regions.regions) {
		within(`AUTO_REGIONS region ${hint}`, set);
		apart(`AUTO_REGIONS region ${hint}`, set);
	}
	return { workerIds, autoWorkerIds, regions, leaseWorkerIds };
}
