/**
 * Time as the generators see it. Injected so that regression, rollover and
 * exhaustion are tested on a fake clock, and so that the Workers host can wait
 * with `scheduler.wait` instead of spinning (Date.now() is frozen while a
 * deployed Worker runs; a busy loop on it never ends).
 */
export interface Clock {
	/** Milliseconds since 1970-01-01T00:00:00Z. */
	now(): number;
	/** Resolves after about `ms` milliseconds; the generator re-reads `now()` afterwards. */
	sleep(ms: number): Promise<void>;
}

/** Fills `bytes` with cryptographically strong random bytes (an ArrayBuffer-backed array, as the DOM's `getRandomValues` requires). */
export type RandomBytes = (bytes: Uint8Array<ArrayBuffer>) => void;

/** `crypto.getRandomValues`: Workers, Node 20+, Deno, Bun and browsers. */
export const cryptoRandomBytes: RandomBytes = (bytes) => {
	crypto.getRandomValues(bytes);
};

/** The host clock: Date.now() and a timer. Works in Workers, Node and browsers. */
export const systemClock: Clock = {
	now: () => Date.now(),
	sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Unix milliseconds as an ISO 8601 string (UTC), as decoded IDs show their time. */
export function isoTime(ms: number): string {
	return new Date(ms).toISOString();
}
