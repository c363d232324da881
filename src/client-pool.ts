/**
 * A pool of Snowflake IDs in the consumer: the service's own per-isolate pool
 * (src/ids/id-pool.ts: fresh within `maxAgeMs`, adaptive, one refill in flight,
 * direct call on a failed refill), refilled from blocks, so most IDs cost no
 * call at all. Over an `IdService` binding or the HTTP client:
 *
 *   const pool = createIdPool({ source: env.IDS });                        // RPC binding
 *   const pool = createIdPool({ source: idsClient({ baseUrl, token }) });  // HTTP
 *   const { workerId, ids } = await pool.snowflake({ count: 5 }, (p) => ctx.waitUntil(p));
 *
 * Promise: unique, and k-sorted within `maxAgeMs` (like the service's auto route);
 * one answer's IDs strictly increase and share its `workerId`.
 */
import type { SnowflakeBlocks, SnowflakeIds } from "./api";
import { runsOfBlocks } from "./ids/blocks";
import { type Background, IdPool } from "./ids/id-pool";
import { type LayoutConfig, SnowflakeLayout, TWITTER_LAYOUT } from "./ids/layout";
import { formatRuns } from "./ids/snowflake";

/** What the pool refills from: an `IdService` binding and `idsClient` both have this method. */
export interface BlocksSource {
	snowflakeBlocks(options: { workerId?: number; count: number }): Promise<SnowflakeBlocks>;
}

export interface IdPoolClientOptions {
	source: BlocksSource;
	/** The service's SNOWFLAKE_* layout. Default: Twitter's (the service's default). */
	layout?: LayoutConfig;
	/** Freshness bound in ms (default 1000; 0: every call goes to the service). */
	maxAgeMs?: number;
	/** Largest block asked for (default 4096); larger counts go straight to the service. */
	maxSize?: number;
	/** Default Date.now. */
	now?: () => number;
}

export function createIdPool(options: IdPoolClientOptions) {
	const layout = new SnowflakeLayout(options.layout ?? TWITTER_LAYOUT);
	const issue = async (count: number) => {
		const answer = await options.source.snowflakeBlocks({ count });
		return { workerId: answer.workerId, runs: runsOfBlocks(layout, answer.blocks) };
	};
	const pool = new IdPool({
		now: options.now ?? (() => Date.now()),
		msOfTick: (tick) => layout.msOf(tick),
		refill: issue,
		direct: issue,
		maxAgeMs: options.maxAgeMs ?? 1000,
		maxSize: options.maxSize ?? 4096,
	});
	return {
		/** `count` IDs from one block; `background` lets a refill outlive the caller's request. */
		async snowflake(
			{ count = 1 }: { count?: number } = {},
			background?: Background,
		): Promise<SnowflakeIds> {
			const block = await pool.take(count, background);
			return {
				type: "snowflake",
				workerId: block.workerId,
				ids: formatRuns(layout, block.workerId, block.runs),
			};
		},
		stats: () => pool.stats(),
	};
}
