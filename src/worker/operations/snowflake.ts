/**
 * The service's Snowflake operations and decode, one implementation behind both the
 * HTTP routes and the IdService RPC entrypoint: each takes its input checked by its
 * contract (./contracts/), so both transports get the same values and errors.
 */

import type { DecodedId } from "../../ids/forms/decode";
import type { DecodedForeign } from "../../ids/forms/foreign-layouts";
import type { Background, IssuedRuns } from "../../ids/pools/id-pool";
import { formatRunsAs, snowflakeText, snowflakeTextForm } from "../../ids/snowflake/base32";
import { blocksOfRuns } from "../../ids/snowflake/blocks";
import type { SnowflakeBlocks, SnowflakeIds } from "../../wire";
import type { Config } from "../config/config";
import { autoSetFor, type CallerCf } from "../config/placement";
import type { ContractInput } from "../contracts/fields";
import type { decodeContract } from "../contracts/forms";
import type { blocksContract, snowflakeContract } from "../contracts/ids";
import { refuseLeased } from "../contracts/lease-refusals";
import type { StatsResult } from "../object/object-protocol";
import { callSnowflake, issueBlock, issueRuns } from "../object/snowflake-calls";
import { autoPool } from "./auto-pools";
import { decodeWith } from "./decode-options";

export type { SnowflakeBlocks, SnowflakeIds };

/**
 * Spreads `/snowflake` across the worker IDs of the caller's region (or
 * AUTO_WORKER_IDS); each is still one object.
 */
function pickWorkerId(config: Config, cf: CallerCf): number {
	return autoSetFor(config, cf).workerIds.pick(Math.random);
}

/** How an auto request is served: the caller's `request.cf` (none over RPC) and where a refill may run on. */
export interface AutoContext {
	cf?: CallerCf;
	/** `ctx.waitUntil`: lets a pool's refill run on after the response. */
	background?: Background;
}

/**
 * Snowflake IDs and how they were served, for the request's log line: from the
 * isolate's pool, or by a direct object call (a named worker ID, pools off, a
 * large count, a failed or late refill).
 */
export interface ServedSnowflakes {
	body: SnowflakeIds;
	source: "pool" | "direct";
}

/** What a Snowflake request asks for; `format`/`prefix` choose the text (decimal by default). */
type SnowflakeInput = ContractInput<typeof snowflakeContract>;

/**
 * Snowflake IDs. With a worker ID: straight from its object (strictly increasing
 * after every earlier ID). Without: from this isolate's pool over the caller's
 * region or AUTO_WORKER_IDS (unique, k-sorted within POOL_MAX_AGE_MS).
 */
export async function snowflakeIds(
	env: Env,
	config: Config,
	input: SnowflakeInput,
	auto: AutoContext = {},
): Promise<ServedSnowflakes> {
	const count = input.count ?? 1;
	const form = snowflakeTextForm(input.format, input.prefix);
	let block: IssuedRuns;
	let source: ServedSnowflakes["source"] = "direct";
	if (input.workerId === undefined) {
		const pool = autoPool(config, autoSetFor(config, auto.cf).workerIds, (id, n) =>
			issueBlock(env, config, id, n),
		);
		const taken = await pool.take(count, auto.background);
		source = taken.source;
		block = taken;
	} else {
		const workerId = refuseLeased(config, input.workerId);
		block = await issueBlock(env, config, workerId, count);
	}
	const body: SnowflakeIds = {
		type: "snowflake",
		workerId: block.workerId,
		ids: formatRunsAs(config.layout, block.workerId, block.runs, form),
	};
	return { body, source };
}

/** Up to MAX_BLOCK_COUNT IDs as `{first, count}` runs, from one object call; never pooled. */
export async function snowflakeBlocks(
	env: Env,
	config: Config,
	input: ContractInput<typeof blocksContract>,
	cf?: CallerCf,
): Promise<SnowflakeBlocks> {
	const count = input.count ?? 1;
	const form = snowflakeTextForm(input.format, input.prefix);
	const workerId =
		input.workerId === undefined ? pickWorkerId(config, cf) : refuseLeased(config, input.workerId);
	const runs = await issueRuns(env, config, workerId, count);
	const blocks = blocksOfRuns(config.layout, workerId, runs);
	return {
		type: "snowflake-blocks",
		workerId,
		blocks:
			form.format === "decimal"
				? blocks
				: blocks.map(({ first, count }) => ({ first: snowflakeText(BigInt(first), form), count })),
	};
}

export async function snowflakeStats(env: Env, config: Config, workerId: number) {
	const { stats } = await callSnowflake<StatsResult>(env, config, workerId, (stub) =>
		stub.stats(workerId),
	);
	return stats;
}

export function decode(
	config: Config,
	input: ContractInput<typeof decodeContract>,
): DecodedId | DecodedForeign {
	const { id, ...options } = input;
	return decodeWith(config, id, options);
}
