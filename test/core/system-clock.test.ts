/**
 * The host clock's waits: a generator waits for the next tick at every rollover,
 * and a wait that ends late costs most of that tick's IDs.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "../../src/ids/clock";

/** Resolves right after the clock enters a new millisecond (polled, so a wait can start mid-ms). */
async function midMillisecond(): Promise<number> {
	const start = Date.now();
	while (Date.now() === start) await new Promise((resolve) => setImmediate(resolve));
	// Half a millisecond in: a wait for the next one then has about half a millisecond to go.
	const entered = performance.now();
	while (performance.now() - entered < 0.5) await new Promise((resolve) => setImmediate(resolve));
	return Date.now();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;

describe("systemClock", () => {
	afterEach(() => vi.restoreAllMocks());

	it("never ends a wait before the time asked for", async () => {
		for (const ms of [1, 2, 5]) {
			const before = Date.now();
			await systemClock.sleep(ms);
			expect(Date.now()).toBeGreaterThanOrEqual(before + ms);
		}
	});

	it("ends a wait for the next millisecond close to its start, not a timer's turn later", async () => {
		// A 1 ms timer set half a millisecond before the next millisecond fires about
		// 0.6 ms past it, or later (it counts 1 ms from when it was set, and is late).
		const late: number[] = [];
		for (let i = 0; i < 21; i++) {
			const reading = await midMillisecond();
			await systemClock.sleep(1);
			// Past the start of millisecond reading + 1, in ms (performance.now() has sub-ms resolution).
			late.push(performance.timeOrigin + performance.now() - (reading + 1));
		}
		expect(median(late)).toBeLessThan(0.45);
	});

	it("falls back to a timer where the clock stands still while code runs", async () => {
		// As in Workers, where time moves only with I/O: polling would never end.
		vi.spyOn(Date, "now").mockReturnValue(1_000);
		vi.spyOn(performance, "now").mockReturnValue(5);
		await expect(systemClock.sleep(1)).resolves.toBeUndefined();
	});
});
