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
 * - `sleep(ms)`: how to wait. Default a timer.
 *
 * @example
 * ```ts
 * const ids = idsClient({ baseUrl, retry: { attempts: 5, maxDelayMs: 2_000 } });
 * ```
 */

export interface RetryOptions {
	attempts?: number;
	maxDelayMs?: number;
	baseDelayMs?: number;
	sleep?: (ms: number) => Promise<void>;
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
	sleep: (ms: number) => Promise<void>;
}

/**
 * The options with their defaults. Throws `RangeError` when `attempts` is not a
 * positive integer, or a delay is not a finite number ≥ 0 (NaN would retry forever).
 */
export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
	const { attempts = 3, maxDelayMs = 10_000, baseDelayMs = 200 } = options;
	if (!Number.isSafeInteger(attempts) || attempts < 1) {
		throw new RangeError(`retry.attempts must be a positive integer; got ${String(attempts)}`);
	}
	for (const [name, value] of [
		["maxDelayMs", maxDelayMs],
		["baseDelayMs", baseDelayMs],
	] as const) {
		if (!Number.isFinite(value) || value < 0) {
			throw new RangeError(`retry.${name} must be a finite number ≥ 0; got ${String(value)}`);
		}
	}
	const sleep =
		options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
	return { attempts, maxDelayMs, baseDelayMs, sleep };
}

/**
 * Calls `call` until its answer is not retryable (429, 502, 503, 504), the
 * attempts run out or the next wait would exceed `maxDelayMs`; resolves with
 * the last answer. A rejected call is retried the same way (after the backoff);
 * throws the last rejection when none is left, at once for an abort. Throws
 * `RangeError` when the options are invalid (see `retryPolicy`).
 */
export async function withRetries<A extends RetryableAnswer>(
	call: () => Promise<A>,
	options: RetryOptions = {},
): Promise<A> {
	const { attempts, maxDelayMs, baseDelayMs, sleep } = retryPolicy(options);
	for (let attempt = 1; ; attempt++) {
		const backoffMs = baseDelayMs * 2 ** (attempt - 1);
		let answer: A;
		try {
			answer = await call();
		} catch (error) {
			if (attempt >= attempts || isAbort(error) || backoffMs > maxDelayMs) throw error;
			await sleep(backoffMs);
			continue;
		}
		if (!RETRIED_STATUSES.has(answer.status) || attempt >= attempts) return answer;
		const delay = retryDelayMs(answer.headers.get("Retry-After"), backoffMs);
		if (delay > maxDelayMs) return answer;
		// Unread, the body would hold its connection until collected.
		await answer.body?.cancel().catch(() => undefined);
		await sleep(delay);
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
