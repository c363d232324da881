/**
 * Pooled sequences' per-isolate buffers: module state, made on first use (no timers
 * or randomness at module top level), one `RangeBuffer` (Leaf's double buffer,
 * src/ids/sequences/range-buffer.ts) per pooled sequence name, each filled with
 * segments from the sequence's object. Also which names this isolate has seen to be
 * pooled: a sequence's mode never changes, and the first `next` of a name is one
 * ordinary object call, whose answer says the mode.
 *
 *   if (isPooled(config, "clicks")) {
 *     const taken = await sequenceBuffer(config, "clicks", fetchSegment).take(3, background);
 *   }
 */
import { DEFAULT_POOL_STEP, type FetchRange, RangeBuffer } from "../../ids/sequences";
import type { Config } from "../config/config";
import { workersClock } from "../object/workers-clock";

/**
 * Buffers an isolate keeps at most: each holds at most two segments (≤ POOL_MAX_SIZE
 * numbers each), so an isolate serving many pooled names never grows without bound.
 * The least recently used one is closed (its numbers are lost, as at an isolate's end).
 */
const MAX_BUFFERS = 1_000;

/** Per config (one per isolate in production; tests make their own), then per name. */
const buffersByConfig = new WeakMap<Config, Map<string, RangeBuffer>>();
const pooledByConfig = new WeakMap<Config, Set<string>>();

function ownOf<T>(map: WeakMap<Config, T>, config: Config, make: () => T): T {
	let own = map.get(config);
	if (!own) {
		own = make();
		map.set(config, own);
	}
	return own;
}

/** Whether this isolate has seen `name` answered as a pooled sequence. */
export function isPooled(config: Config, name: string): boolean {
	return pooledByConfig.get(config)?.has(name) ?? false;
}

/** Records that `name` is a pooled sequence (its mode never changes). */
export function markPooled(config: Config, name: string): void {
	ownOf(pooledByConfig, config, () => new Set()).add(name);
}

/**
 * Forgets pooled sequence `name` in this isolate, once retired (by this isolate, or
 * a segment fetch answered `sequence_retired`): its buffer's numbers are dropped and
 * later calls go to its object, which refuses them. Not closed: a take waiting on its
 * fetch gets that fetch's refusal, not a closed buffer's.
 */
export function forgetPooled(config: Config, name: string): void {
	buffersByConfig.get(config)?.delete(name);
	pooledByConfig.get(config)?.delete(name);
}

/**
 * The buffer of pooled sequence `name`. Its step follows the isolate's rate
 * (`stepForRate`): it should last half of POOL_MAX_AGE_MS, within [10,
 * POOL_MAX_SIZE]. Date.now() is frozen while a request runs, so a burst in one
 * request reads as a high rate: POOL_MAX_SIZE bounds what that costs. Each segment
 * is used for at most POOL_MAX_AGE_MS (> 0: with 0, pools are off and every call
 * goes to the object), and a take waits for a segment at most MAX_WAIT_MS and a
 * second of travel.
 */
export function sequenceBuffer(config: Config, name: string, fetch: FetchRange): RangeBuffer {
	const buffers = ownOf(buffersByConfig, config, () => new Map<string, RangeBuffer>());
	let buffer = buffers.get(name);
	if (buffer) {
		// Least recently used last out: move it to the end of the insertion order.
		buffers.delete(name);
	} else {
		if (buffers.size >= MAX_BUFFERS) {
			const [oldest, dropped] = buffers.entries().next().value as [string, RangeBuffer];
			dropped.close();
			buffers.delete(oldest);
		}
		const minStep = DEFAULT_POOL_STEP.minStep;
		buffer = new RangeBuffer({
			fetch,
			clock: workersClock,
			step: {
				minStep,
				maxStep: Math.max(minStep, config.poolMaxSize),
				targetRefillMs: Math.max(1, Math.floor(config.poolMaxAgeMs / 2)),
				maxAgeMs: config.poolMaxAgeMs,
			},
			maxWaitMs: config.maxWaitMs + 1_000,
		});
	}
	buffers.set(name, buffer);
	return buffer;
}
