/**
 * A range buffer's one way to wait (./range-buffer.ts): for its work, at most a time
 * on its clock, ending early when the buffer closes or the caller's signal aborts.
 * The wait's timer is cancelled however it ends, so a wait that lost the race keeps
 * no process alive. Every promise it races is made by the caller's own request: a
 * Worker's promise settles only in the request that made it.
 *
 *   const outcome = await boundedWait(flight.done, 5000, clock, closeWaits, signal);
 *   // "arrived", "late" (5 s on the clock passed), or "ended" (closed, or the signal aborted)
 */
import type { Clock } from "../clock";

export async function boundedWait(
	work: Promise<void>,
	leftMs: number,
	clock: Clock,
	/** Each waiting call's end; the buffer's `close()` calls them all. */
	closeWaits: Set<() => void>,
	signal: AbortSignal | undefined,
): Promise<"arrived" | "late" | "ended"> {
	const timer = new AbortController();
	let end = () => {};
	const ended = new Promise<"ended">((resolve) => {
		end = () => resolve("ended");
	});
	closeWaits.add(end);
	signal?.addEventListener("abort", end, { once: true });
	try {
		return await Promise.race([
			work.then(() => "arrived" as const),
			clock.sleep(leftMs, timer.signal).then(() => "late" as const),
			ended,
		]);
	} finally {
		timer.abort();
		closeWaits.delete(end);
		signal?.removeEventListener("abort", end);
	}
}
