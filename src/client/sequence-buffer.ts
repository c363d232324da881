/**
 * Leaf's double buffer in the caller's process: numbers of a named sequence handed
 * out from a range reserved for this process (`reserveInSequence`), the next range
 * reserved in the background before the current one runs out. Built on the
 * service's own `RangeBuffer` (src/ids/sequences/range-buffer.ts): one reserve in
 * flight, a take waits for it at most `maxWaitMs` (then `overloaded`, retryable),
 * a range is used for at most `maxAgeMs`, the range size follows the rate. Over
 * the HTTP client or an `IdService` binding:
 *
 *   const orders = createSequenceBuffer({ source: idsClient({ baseUrl, token }), name: "orders" });
 *   const orders = createSequenceBuffer({ source: idService(env.IDS), name: "orders" });
 *   const { numbers } = await orders.next(2); // ["1041", "1042"]
 *   orders.close();
 *
 * Promise: numbers no one else ever gets (each range is reserved for this buffer
 * alone), strictly increasing within the buffer (per period, for a sequence with a
 * reset), one answer's numbers consecutive; a number handed out `maxAgeMs` after
 * another one (by anyone) is larger. Not ordered across processes: use the
 * service's `nextInSequence` on an ordered sequence for that. A range's unused
 * numbers are lost when it ages out or the buffer closes (`stats().wasted`).
 * `close()` leaves nothing running: no timer keeps the process alive after it.
 */

import { type Clock, systemClock } from "../ids/clock";
import { IdError } from "../ids/errors";
import type { Background } from "../ids/pools/id-pool";
import { numbersOf, RangeBuffer, type RangeBufferStats } from "../ids/sequences";
import type { SequenceNumbers, ServiceErrorCode } from "../wire";
import { takesCallOptions } from "./call-options";
import { IdsError } from "./errors";

/** What the buffer reserves from: `idsClient` and an `IdService` binding both have it. */
export interface RangeSource {
	/** `call.signal`, where the source takes it (`idsClient`), aborts when the buffer gives the reserve up. */
	reserveInSequence(
		name: string,
		options: { count: number },
		call?: { signal?: AbortSignal | undefined },
	): Promise<{ first: string; last: string; period?: string | undefined }>;
}

export interface SequenceBufferOptions {
	source: RangeSource;
	/** The sequence's name (created beforehand: `createSequence`). */
	name: string;
	/** The smallest range reserved (and the first). Default 10. */
	minStep?: number | undefined;
	/** The largest range reserved: bounds what a process loses when it ends. At most MAX_BLOCK_COUNT. Default 100,000. */
	maxStep?: number | undefined;
	/** How long a range should last at the measured rate, in ms. Default 10,000 (at most `maxAgeMs`). */
	targetRefillMs?: number | undefined;
	/** A range is used for at most this long after its reserve began, in ms. Default 60,000. */
	maxAgeMs?: number | undefined;
	/** Longest a `next` waits for a range (and the age at which a reserve is given up), in ms. Default 5,000. */
	maxWaitMs?: number | undefined;
	/** Reserve the next range once less than this fraction of a step is left. Default 0.5. */
	refillBelow?: number | undefined;
	/** Default: the system clock. Tests give a scripted one. */
	clock?: Clock | undefined;
}

/** Options of one `next`. */
export interface SequenceBufferNextOptions {
	/** Ends this call's wait for a range early: it rejects with `aborted`. */
	signal?: AbortSignal | undefined;
	/** Receives each reserve started in the background (e.g. `ctx.waitUntil`). */
	background?: Background | undefined;
}

export interface SequenceBuffer {
	/**
	 * `count` (default 1) consecutive numbers, as `nextInSequence` answers them.
	 * Rejects with `invalid_count`, `overloaded` (no range within `maxWaitMs`;
	 * retryable), `aborted` after `close()` or when `signal` aborts (at once; the
	 * signal's reason as `cause`), or the source's own error. `background` (e.g.
	 * `ctx.waitUntil`, given as the second argument or as an option) receives each
	 * reserve started in the background. A count above `maxStep` is reserved on its
	 * own, at once.
	 */
	next(count?: number, options?: Background | SequenceBufferNextOptions): Promise<SequenceNumbers>;
	/** Takes, numbers handed out, reserves, and numbers wasted. */
	stats(): RangeBufferStats;
	/** Drops what is held and gives up the reserve in flight; later calls reject with `aborted`. */
	close(): void;
}

/** A buffer over ranges of `options.name` (see the module comment); `invalid_config` for bad options. */
export function createSequenceBuffer(options: SequenceBufferOptions): SequenceBuffer {
	const { source, name } = options;
	const maxAgeMs = options.maxAgeMs ?? 60_000;
	// A reserve given up (too old, or the buffer closed) is cancelled where the source can be.
	const signalled = takesCallOptions(source, source.reserveInSequence, 2);
	let buffer: RangeBuffer;
	try {
		buffer = new RangeBuffer({
			fetch: async (size, signal) => {
				const range = signalled
					? await source.reserveInSequence(name, { count: size }, { signal })
					: await source.reserveInSequence(name, { count: size });
				return {
					first: BigInt(range.first),
					last: BigInt(range.last),
					period: range.period ?? null,
				};
			},
			clock: options.clock ?? systemClock,
			step: {
				minStep: options.minStep ?? 10,
				maxStep: options.maxStep ?? 100_000,
				targetRefillMs: options.targetRefillMs ?? Math.min(10_000, maxAgeMs),
				maxAgeMs,
			},
			...(options.maxWaitMs === undefined ? {} : { maxWaitMs: options.maxWaitMs }),
			...(options.refillBelow === undefined ? {} : { refillBelow: options.refillBelow }),
		});
	} catch (error) {
		const detail = error instanceof IdError ? error.detail : (error as Error).message;
		throw new IdsError("invalid_config", detail, undefined, undefined);
	}
	return {
		async next(count = 1, options) {
			const { signal, background } =
				typeof options === "function"
					? { signal: undefined, background: options }
					: (options ?? {});
			let taken: Awaited<ReturnType<RangeBuffer["take"]>>;
			try {
				taken = await buffer.take(count, background, signal);
			} catch (error) {
				if (signal?.aborted) {
					throw new IdsError(
						"aborted",
						"this sequence buffer's next was aborted by the caller's signal",
						undefined,
						undefined,
						{ cause: signal.reason },
					);
				}
				throw asClientError(error);
			}
			const { first, period } = taken;
			return {
				type: "sequence",
				name,
				first: `${first}`,
				count: taken.count,
				numbers: numbersOf(taken),
				...(period === null ? {} : { period }),
			};
		},
		stats: () => buffer.stats(),
		close: () => buffer.close(),
	};
}

/** The buffer's own refusals as the client's errors; the source's errors as they are. */
function asClientError(error: unknown): unknown {
	if (!(error instanceof IdError) || error instanceof IdsError) return error;
	if (error.code === "buffer_closed") {
		return new IdsError(
			"aborted",
			"this sequence buffer was closed; make a new one",
			undefined,
			undefined,
		);
	}
	const code = error.code as ServiceErrorCode;
	const status = code === "invalid_count" ? 400 : code === "internal" ? 500 : 503;
	return new IdsError(code, error.detail, status, error.retryAfterSeconds);
}
