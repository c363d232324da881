/**
 * Pooled sequences' per-isolate buffers: one `RangeBuffer` (Leaf's double buffer,
 * src/ids/sequences/range-buffer.ts) per pooled sequence name, each filled with
 * segments from the sequence's object, and which names this isolate has seen to be
 * pooled (a sequence's mode never changes, and the first `next` of a name is one
 * ordinary object call, whose answer says the mode).
 *
 * One isolate, one set of buffers, whatever the way in: public HTTP, a binding's
 * `fetch` (which runs on its own copy of env, so its own config) and RPC all take
 * from `isolateSequencePools`, module state made on first use (no timers or
 * randomness at module top level). Buffers are found by name and the pool settings
 * they were made with, never by the config object: numbers one isolate hands out
 * strictly increase across every transport.
 *
 *   if (isolateSequencePools.isPooled("clicks")) {
 *     const buffer = isolateSequencePools.buffer(config, "clicks", fetchSegment);
 *     const taken = await buffer.take(3, background);
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
export const MAX_BUFFERS = 1_000;

/** The settings a buffer is made with: one isolate has one, so its key is the name alone there. */
type PoolSettings = Pick<Config, "poolMaxAgeMs" | "poolMaxSize" | "maxWaitMs">;

/** One isolate's pooled buffers (tests make more to stand for several isolates). */
export class SequencePools {
	private readonly buffers = new Map<string, RangeBuffer>();
	private readonly pooled = new Set<string>();

	/** Whether this isolate has seen `name` answered as a pooled sequence. */
	isPooled(name: string): boolean {
		return this.pooled.has(name);
	}

	/** Records that `name` is a pooled sequence (its mode never changes). */
	markPooled(name: string): void {
		this.pooled.add(name);
	}

	/**
	 * Forgets pooled sequence `name`, once retired (by this isolate, or a segment fetch
	 * answered `sequence_retired`): its buffer's numbers are dropped and later calls go
	 * to its object, which refuses them. Not closed: a take waiting on its fetch gets
	 * that fetch's refusal, not a closed buffer's.
	 */
	forget(name: string): void {
		this.pooled.delete(name);
		for (const key of this.buffers.keys()) {
			if (key.endsWith(` ${name}`)) this.buffers.delete(key);
		}
	}

	/**
	 * The buffer of pooled sequence `name`. Its step follows the isolate's rate
	 * (`stepForRate`): it should last half of POOL_MAX_AGE_MS, within [10,
	 * POOL_MAX_SIZE]. Date.now() is frozen while a request runs, so a burst in one
	 * request reads as a high rate: POOL_MAX_SIZE bounds what that costs. Each segment
	 * is used for at most POOL_MAX_AGE_MS (> 0: with 0, pools are off and every call
	 * goes to the object), and a take waits for a segment at most MAX_WAIT_MS and a
	 * second of travel. A call for more than POOL_MAX_SIZE numbers goes to the object at
	 * once (`direct`, exactly its count), never queued behind a refill.
	 */
	buffer(
		settings: PoolSettings,
		name: string,
		fetch: FetchRange,
		direct?: FetchRange,
	): RangeBuffer {
		const { poolMaxAgeMs, poolMaxSize, maxWaitMs } = settings;
		const key = `${poolMaxAgeMs} ${poolMaxSize} ${maxWaitMs} ${name}`;
		let buffer = this.buffers.get(key);
		if (buffer) {
			// Least recently used last out: move it to the end of the insertion order.
			this.buffers.delete(key);
		} else {
			if (this.buffers.size >= MAX_BUFFERS) {
				const [oldest, dropped] = this.buffers.entries().next().value as [string, RangeBuffer];
				dropped.close();
				this.buffers.delete(oldest);
			}
			const minStep = DEFAULT_POOL_STEP.minStep;
			buffer = new RangeBuffer({
				fetch,
				...(direct ? { direct } : {}),
				clock: workersClock,
				step: {
					minStep,
					maxStep: Math.max(minStep, poolMaxSize),
					targetRefillMs: Math.max(1, Math.floor(poolMaxAgeMs / 2)),
					maxAgeMs: poolMaxAgeMs,
				},
				maxWaitMs: maxWaitMs + 1_000,
			});
		}
		this.buffers.set(key, buffer);
		return buffer;
	}
}

/** This isolate's buffers: module state, shared by every transport. */
export const isolateSequencePools = new SequencePools();
