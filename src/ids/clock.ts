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

/**
 * The host clock: Date.now() and a timer. Works in Workers, Node and browsers.
 *
 * A timer fires a millisecond or more late, and a generator that waits for the next
 * tick at a rollover would lose most of that tick (4,096 IDs under the Twitter
 * layout). So where the clock moves while code runs and `setImmediate` exists (Node,
 * Bun), a wait's last millisecond is polled between event-loop turns, which
 * lets I/O run in between and ends within microseconds of the tick. Where time
 * stands still while code runs (Workers: it moves with I/O), only timers are used.
 */
export const systemClock: Clock = {
	now: () => Date.now(),
	sleep: (ms) => sleepOn(Date.now, ms),
};

/**
 * `systemClock`'s wait, measured on `now`: with a monotonic clock (`performance.now`)
 * a step of the wall clock neither stretches nor cuts it short.
 */
export function sleepOn(now: () => number, ms: number): Promise<void> {
	return new Promise((resolve) => {
		if (polling === undefined) setTimeout(resolve, ms);
		else waitUntil(polling, now, now() + ms, resolve);
	});
}

type Immediate = (callback: () => void) => unknown;
const host = globalThis as { setImmediate?: Immediate; navigator?: { userAgent?: string } };
const polling: Immediate | undefined =
	typeof host.setImmediate === "function" && host.navigator?.userAgent !== "Cloudflare-Workers"
		? host.setImmediate
		: undefined;

/** A timer until the last millisecond before `until` (on `now`), then event-loop turns. */
function waitUntil(immediate: Immediate, now: () => number, until: number, done: () => void): void {
	const left = until - now();
	if (left <= 0) done();
	else if (left > 1) setTimeout(() => waitUntil(immediate, now, until, done), left - 1);
	else {
		const before = performance.now();
		immediate(() => {
			// A clock that stood still over a turn would be polled forever: a timer ends it.
			if (performance.now() === before) setTimeout(done, until - now());
			else waitUntil(immediate, now, until, done);
		});
	}
}

/** Unix milliseconds as an ISO 8601 string (UTC), as decoded IDs show their time. */
export function isoTime(ms: number): string {
	return new Date(ms).toISOString();
}
