/**
 * A caller's budget of lease acquires: a token bucket that holds up to `perMinute`
 * acquires and refills at `perMinute` a minute. A whole fleet restarting at once
 * spends the full bucket; a caller acquiring in a loop gets `perMinute` a minute,
 * and so holds at most about `perMinute × (span + grace) / 1 min` worker IDs at once.
 * Pure: the clock reading is an argument; the caller keeps the bucket.
 *
 *   let bucket: AcquireBucket | undefined;
 *   const taken = takeAcquire(bucket, 600, now);
 *   bucket = taken.bucket;
 *   if (!taken.ok) refuse(taken.retryAfterSeconds); // 429 with Retry-After
 */

/** What is left of a caller's budget, as of `atMs`. */
export interface AcquireBucket {
	tokens: number;
	atMs: number;
}

export type AcquireTaken =
	| { ok: true; bucket: AcquireBucket }
	| { ok: false; bucket: AcquireBucket; retryAfterSeconds: number };

const MINUTE_MS = 60_000;

/**
 * One acquire taken from the bucket (full when there is none yet), or the whole
 * seconds until one is there. The clock never refills backwards: a reading before
 * the last one refills nothing, and a reading that is not a finite number (a faulty
 * clock) refills nothing either, so the budget still holds.
 */
export function takeAcquire(
	bucket: AcquireBucket | undefined,
	perMinute: number,
	now: number,
): AcquireTaken {
	const clockOk = Number.isFinite(now);
	const last = bucket ?? { tokens: perMinute, atMs: clockOk ? now : 0 };
	const elapsedMs = clockOk ? Math.max(0, now - last.atMs) : 0;
	const tokens = Math.min(perMinute, last.tokens + (elapsedMs * perMinute) / MINUTE_MS);
	const atMs = clockOk ? Math.max(last.atMs, now) : last.atMs;
	if (tokens >= 1) return { ok: true, bucket: { tokens: tokens - 1, atMs } };
	const waitMs = ((1 - tokens) * MINUTE_MS) / perMinute;
	return {
		ok: false,
		bucket: { tokens, atMs },
		retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
	};
}
