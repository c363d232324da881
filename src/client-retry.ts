/**
 * Retries for the HTTP client: a call answered `503` (an object restarting or
 * overloaded, a clock waiting) or `429` (rate limited) is tried again after the
 * answer's `Retry-After`, or after an exponential backoff when it has none, as
 * long as the wait fits `maxDelayMs`. Every call of the service is safe to
 * repeat: a retried generation may waste IDs, never repeat them.
 *
 * Options (all optional):
 * - `attempts`: calls in all, the first included. Default 3; 1 turns retries off.
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
}

const RETRIED_STATUSES = new Set([429, 503]);

/**
 * Calls `call` until its answer is not a 429/503, the attempts run out or the
 * next wait would exceed `maxDelayMs`; resolves with the last answer.
 */
export async function withRetries<A extends RetryableAnswer>(
	call: () => Promise<A>,
	options: RetryOptions = {},
): Promise<A> {
	const attempts = Math.max(1, options.attempts ?? 3);
	const maxDelayMs = options.maxDelayMs ?? 10_000;
	const baseDelayMs = options.baseDelayMs ?? 200;
	const sleep = options.sleep ?? ((ms: number) => new Promise((done) => setTimeout(done, ms)));
	for (let attempt = 1; ; attempt++) {
		const answer = await call();
		if (!RETRIED_STATUSES.has(answer.status) || attempt >= attempts) return answer;
		const delay = retryDelayMs(answer.headers.get("Retry-After"), baseDelayMs * 2 ** (attempt - 1));
		if (delay > maxDelayMs) return answer;
		await sleep(delay);
	}
}

/** `Retry-After` in seconds (the service sends whole seconds), else the backoff. */
function retryDelayMs(retryAfter: string | null, backoffMs: number): number {
	const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
	return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : backoffMs;
}
