/**
 * Retries for the HTTP client: a call answered `503` (an object restarting or
 * overloaded, a clock waiting), `429` (rate limited), `502` or `504` (a gateway
 * in front of the service), or whose fetch rejects (a network failure), is tried
 * again after the answer's `Retry-After`, or after an exponential backoff when it
 * has none, as long as the wait fits `maxDelayMs` and attempts remain. Every
 * call of the service is safe to repeat: a retried generation may waste IDs,
 * never repeat them. A retried answer's body is cancelled, so its connection is
 * released.
 *
 * Options (all optional):
 * - `attempts`: calls in all, the first included: a positive integer. Default 3;
 *   1 turns retries off.
 * - `maxDelayMs`: the longest single wait; an answer asking for longer is
 *   returned to the caller at once. Default 10,000.
 * - `baseDelayMs`: the first backoff without `Retry-After`, doubled each time. Default 200.
 * - `sleep(ms, signal)`: how to wait. Default a timer, cleared when `signal` aborts.
 *
 * Invalid options are refused when the client is made (`IdsError`
 * `invalid_config`). The client's `timeoutMs` bounds the retries and their waits.
 *
 * @example
 * ```ts
 * const ids = idsClient({ baseUrl, retry: { attempts: 5, maxDelayMs: 2_000 } });
 * ```
 */

import { describeValue } from "../ids/errors";
import { IdsError } from "./errors";

export interface RetryOptions {
	attempts?: number | undefined;
	maxDelayMs?: number | undefined;
	baseDelayMs?: number | undefined;
	sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
}

/** What a retry needs to know of an answer. */
export interface RetryableAnswer {
	status: number;
	headers: Headers;
	/** Cancelled when the answer is retried. */
	body?: ReadableStream | null;
}

/** Transient answers: the service's own (429, 503) and a gateway's in front of it (502, 504). */
const RETRIED_STATUSES = new Set([429, 502, 503, 504]);

interface RetryPolicy {
	attempts: number;
	maxDelayMs: number;
	baseDelayMs: number;
	sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * The options with their defaults. Throws `IdsError` `invalid_config` when
 * `attempts` is not a positive integer, or a delay is not a finite number ≥ 0
 * (NaN would retry forever).
 */
export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
	const { attempts = 3, maxDelayMs = 10_000, baseDelayMs = 200 } = options;
	if (!Number.isSafeInteger(attempts) || attempts < 1) {
		throw invalidRetry(`retry.attempts must be a positive integer; got ${describeValue(attempts)}`);
	}
	for (const [name, value] of [
		["maxDelayMs", maxDelayMs],
		["baseDelayMs", baseDelayMs],
	] as const) {
		if (!Number.isFinite(value) || value < 0) {
			throw invalidRetry(`retry.${name} must be a finite number ≥ 0; got ${describeValue(value)}`);
		}
	}
	return { attempts, maxDelayMs, baseDelayMs, sleep: options.sleep ?? sleepUnlessAborted };
}

function invalidRetry(message: string): IdsError {
	return new IdsError("invalid_config", message, undefined, undefined);
}

/** A timer that ends early when `signal` aborts, so an abandoned call keeps no timer alive. */
export function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
	return new Promise<void>((done) => {
		const timer = setTimeout(done, ms);
		signal?.addEventListener(
			"abort",
			() => {
				clearTimeout(timer);
				done();
			},
			{ once: true },
		);
	});
}

/**
 * Calls `call` until its answer is not retryable (429, 502, 503, 504), the
 * attempts run out or the next wait would exceed `maxDelayMs`; resolves with
 * the last answer. A rejected call is retried the same way (after the backoff);
 * throws the last rejection when none is left, at once for an abort. Once
 * `signal` aborts, no attempt starts and no wait goes on: its reason is thrown.
 * Throws `invalid_config` when the options are invalid (see `retryPolicy`).
 */
export async function withRetries<A extends RetryableAnswer>(
	call: () => Promise<A>,
	options: RetryOptions = {},
	signal?: AbortSignal,
): Promise<A> {
	const { attempts, maxDelayMs, baseDelayMs, sleep } = retryPolicy(options);
	for (let attempt = 1; ; attempt++) {
		signal?.throwIfAborted();
		const backoffMs = baseDelayMs * 2 ** (attempt - 1);
		let answer: A;
		try {
			answer = await call();
		} catch (error) {
			signal?.throwIfAborted();
			if (attempt >= attempts || isAbort(error) || backoffMs > maxDelayMs) throw error;
			await sleep(backoffMs, signal);
			continue;
		}
		if (!RETRIED_STATUSES.has(answer.status) || attempt >= attempts) return answer;
		const delay = retryDelayMs(answer.headers.get("Retry-After"), backoffMs);
		if (delay > maxDelayMs) return answer;
		// Unread, the body would hold its connection until collected.
		await answer.body?.cancel().catch(() => undefined);
		await sleep(delay, signal);
	}
}

/** A caller's own cancellation (an AbortSignal), which a retry must not undo. */
function isAbort(error: unknown): boolean {
	return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

/** `Retry-After` in seconds (the service sends whole seconds), else the backoff. */
function retryDelayMs(retryAfter: string | null, backoffMs: number): number {
	const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
	return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : backoffMs;
}
