/**
 * A pool of Snowflake IDs in the consumer: the service's own per-isolate pool
 * (src/ids/pools/id-pool.ts: fresh within `maxAgeMs`, adaptive, one refill in flight,
 * direct call on a failed refill), refilled from blocks, so most IDs cost no
 * call at all. Over an `IdService` binding or the HTTP client:
 *
 *   const pool = createIdPool({ source: idService(env.IDS) });             // RPC binding
 *   const pool = createIdPool({ source: idsClient({ baseUrl, token }) });  // HTTP
 *   const { workerId, ids } = await pool.snowflake({ count: 5 }, (p) => ctx.waitUntil(p));
 *
 * Blocks are rebuilt into IDs with the service's layout, read from the source
 * once (`layout()`): under any other layout a block's IDs would be rebuilt as
 * another worker ID's, which that worker ID may issue too. Each block's worker
 * ID is checked against its answer's for the same reason.
 *
 * Promise: unique, and k-sorted within `maxAgeMs` (like the service's auto route);
 * one answer's IDs strictly increase and share its `workerId`.
 *
 * Every `snowflake` call ends within `timeoutMs` (default 10,000), the layout
 * read included: a read that never answers fails with `timeout` and the next
 * call reads again, so one lost answer cannot wedge a pool kept in module state.
 */

import { describeValue, IdError } from "../ids/errors";
import { type Background, IdPool, type IssuedRuns } from "../ids/pools/id-pool";
import { runsOfBlocks } from "../ids/snowflake/blocks";
import { formatRuns } from "../ids/snowflake/generator";
import { type LayoutConfig, SnowflakeLayout } from "../ids/snowflake/layout";
import type { LayoutInfo, ServiceErrorCode, SnowflakeBlocks, SnowflakeIds } from "../wire";
import { checkTimeoutMs, startDeadline } from "./deadline";

/** What the pool refills from: an `IdService` binding and `idsClient` both have these methods. */
export interface BlocksSource {
	snowflakeBlocks(options: { workerId?: number; count: number }): Promise<SnowflakeBlocks>;
	/** The service's Snowflake layout (`GET /layout`); the pool reads it once. */
	layout(): Promise<LayoutInfo>;
}

export interface IdPoolClientOptions {
	source: BlocksSource;
	/**
	 * The layout the caller expects the service to run. Optional: the pool reads
	 * the service's own; when given, it must equal it or every call fails.
	 */
	layout?: LayoutConfig | undefined;
	/** Freshness bound in ms (default 1000; 0: every call goes to the service). */
	maxAgeMs?: number | undefined;
	/** Largest block asked for (default 4096); larger counts go straight to the service. */
	maxSize?: number | undefined;
	/**
	 * Longest a `snowflake` call (and the layout read) may take, in ms; past it the
	 * call rejects with `timeout`. Default 10,000.
	 */
	timeoutMs?: number | undefined;
	/** Default Date.now. */
	now?: (() => number) | undefined;
}

/** Options of one `snowflake` call of the pool. */
export interface IdPoolSnowflakeOptions {
	/** IDs wanted, from one block. Default 1. */
	count?: number | undefined;
	/** Cancels this call (it rejects with `aborted`); a refill in flight goes on. */
	signal?: AbortSignal | undefined;
}

/** A pool call's default deadline: generous for a call that is usually answered from memory. */
const DEFAULT_POOL_TIMEOUT_MS = 10_000;

/**
 * A pool over `options.source` (see the module comment). Throws `invalid_config`
 * when `options.layout` is not a valid layout or `timeoutMs` not a positive
 * number of ms. Its `snowflake` rejects with `invalid_count` when `count` is not
 * a positive safe integer, with `layout_mismatch` when `options.layout` is not
 * the service's or an answer's blocks belong to another worker ID, with
 * `invalid_id` for a malformed block, with `timeout` or `aborted` (IdsError), and
 * with the source's own errors (a failed or timed-out layout read is retried on
 * the next call).
 */
export function createIdPool(options: IdPoolClientOptions) {
	const { source } = options;
	const expected = options.layout && new SnowflakeLayout(options.layout);
	const timeoutMs = checkTimeoutMs(
		"createIdPool's timeoutMs",
		options.timeoutMs ?? DEFAULT_POOL_TIMEOUT_MS,
	);
	let checked: Promise<SnowflakeLayout> | undefined;
	let known: SnowflakeLayout | undefined;

	/**
	 * The layout to rebuild IDs with: the service's, read once and checked once
	 * against the caller's. A failed read, or one without an answer within
	 * `timeoutMs`, is forgotten, so the next call reads again; a mismatch is kept
	 * (every call fails with it).
	 */
	const serviceLayout = (): Promise<SnowflakeLayout> => {
		if (checked) return checked;
		// Its own deadline, not a caller's: the read is shared by every call waiting for it.
		const deadline = startDeadline(timeoutMs, [], "the pool's layout read (layout())");
		// Awaited, not `.then`: a source may answer with any thenable, or throw at once.
		const read = (async () => {
			try {
				return new SnowflakeLayout(layoutConfigOf(await deadline.race(source.layout())));
			} finally {
				deadline.end();
			}
		})();
		const check = read.then((layout) => {
			if (expected && expected.fingerprint() !== layout.fingerprint()) {
				throw new IdError<ServiceErrorCode>(
					"layout_mismatch",
					`the pool was given layout ${expected.fingerprint()} but the service runs ${layout.fingerprint()}; omit layout to use the service's`,
				);
			}
			known = layout;
			return layout;
		});
		checked = check;
		read.catch(() => {
			if (checked === check) checked = undefined;
		});
		return check;
	};

	const issue = async (count: number): Promise<IssuedRuns> => {
		const layout = await serviceLayout();
		const answer = await source.snowflakeBlocks({ count });
		return { workerId: answer.workerId, runs: checkedRuns(layout, answer) };
	};
	const pool = new IdPool({
		now: options.now ?? (() => Date.now()),
		// Nothing is held before the layout is known; were it, -Infinity drops it as stale.
		msOfTick: (tick) => known?.msOf(tick) ?? Number.NEGATIVE_INFINITY,
		refill: issue,
		direct: issue,
		maxAgeMs: options.maxAgeMs ?? 1000,
		maxSize: options.maxSize ?? 4096,
	});
	return {
		/**
		 * `count` IDs (default 1) from one block; `background` lets a refill outlive
		 * the caller's request. Rejects as `createIdPool` says.
		 */
		async snowflake(
			{ count = 1, signal }: IdPoolSnowflakeOptions = {},
			background?: Background,
		): Promise<SnowflakeIds> {
			// A negative, fractional or NaN count would corrupt the pool's accounting.
			if (!Number.isSafeInteger(count) || count < 1) {
				throw new IdError(
					"invalid_count",
					`count must be a positive integer (at most the service's MAX_BLOCK_COUNT); got ${describeValue(count)}`,
				);
			}
			const deadline = startDeadline(timeoutMs, [signal], "createIdPool's snowflake");
			try {
				const layout = await deadline.race(serviceLayout());
				const block = await deadline.race(pool.take(count, background));
				return {
					type: "snowflake",
					workerId: block.workerId,
					ids: formatRuns(layout, block.workerId, block.runs),
				};
			} catch (error) {
				throw deadline.blame(error);
			} finally {
				deadline.end();
			}
		},
		stats: () => pool.stats(),
	};
}

/** The pool `createIdPool` returns. */
export type IdPoolClient = ReturnType<typeof createIdPool>;

/** The configuration part of `GET /layout`'s answer. */
function layoutConfigOf(info: LayoutInfo): LayoutConfig {
	const { epoch, timeBits, workerBits, sequenceBits, timeUnitMs } = info;
	return { epoch, timeBits, workerBits, sequenceBits, timeUnitMs };
}

/** The answer's runs, once every block is the answer's worker ID's under `layout`. */
function checkedRuns(layout: SnowflakeLayout, answer: SnowflakeBlocks) {
	const runs = runsOfBlocks(layout, answer.blocks);
	for (const block of answer.blocks) {
		const { workerId } = layout.decompose(BigInt(block.first));
		if (workerId !== answer.workerId) {
			throw new IdError<ServiceErrorCode>(
				"layout_mismatch",
				`block ${block.first} is worker ID ${workerId}'s under the service's layout, not the answer's ${describeValue(answer.workerId)}; refused rather than rebuilt as another worker ID's IDs`,
			);
		}
	}
	return runs;
}
