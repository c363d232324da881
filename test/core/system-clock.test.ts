/**
 * The host clock's waits: a generator waits for the next tick at every rollover,
 * and a wait that ends late costs most of that tick's IDs.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "../../src/ids/clock";
import { SnowflakeLayout } from "../../src/ids/layout";
import { SnowflakeGenerator } from "../../src/ids/snowflake";

/** Resolves right after the clock enters a new millisecond (polled, so a wait can start mid-ms). */
async function midMillisecond(): Promise<number> {
	const start = Date.now();
	while (Date.now() === start) await new Promise((resolve) => setImmediate(resolve));
	// Half a millisecond in: a wait for the next one then has about half a millisecond to go.
	const entered = performance.now();
	while (performance.now() - entered < 0.5) await new Promise((resolve) => setImmediate(resolve));
	return Date.now();
}

/** Date.now() as the system's, less a step back the test makes (a wall clock set back). */
function steppableWall() {
	const real = Date.now.bind(Date);
	let back = 0;
	vi.spyOn(Date, "now").mockImplementation(() => real() - back);
	return {
		stepBack: (ms: number) => {
			back += ms;
		},
	};
}

/** "ended" (or the rejection) if `work` settles within `ms` of real time, else "still waiting". */
function endsWithin(work: Promise<unknown>, ms: number): Promise<unknown> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const late = new Promise((resolve) => {
		timer = setTimeout(() => resolve("still waiting"), ms);
	});
	const settled = work.then(
		() => "ended",
		(error: unknown) => error,
	);
	return Promise.race([settled, late]).finally(() => clearTimeout(timer));
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

	it("a wall clock stepped back 60 s mid-wait does not lengthen it: the wait is bounded by monotonic time", async () => {
		const wall = steppableWall();
		for (const ms of [1, 2, 5]) {
			const started = performance.now();
			const wait = systemClock.sleep(ms);
			wall.stepBack(60_000);
			expect(await endsWithin(wait, 1_000)).toBe("ended");
			// Not lengthened by the step: over within `ms` of monotonic time and a timer's lateness.
			expect(performance.now() - started).toBeLessThan(ms + 50);
		}
	});

	it("a generator waiting at a rollover when the wall clock steps back 60 s refuses at once", async () => {
		const wall = steppableWall();
		let stepped = false;
		// 2 sequence bits: 3 IDs a tick surely fit, so 12 IDs wait for 3 rollovers.
		const layout = new SnowflakeLayout({
			epoch: 0,
			timeBits: 51,
			workerBits: 10,
			sequenceBits: 2,
			timeUnitMs: 1,
		});
		const gen = new SnowflakeGenerator({
			layout,
			workerId: 1,
			// The system clock, whose wall clock is set back 60 s as the first wait starts.
			clock: {
				now: systemClock.now,
				sleep: (ms) => {
					const wait = systemClock.sleep(ms);
					if (!stepped) wall.stepBack(60_000);
					stepped = true;
					return wait;
				},
			},
			maxBackwardMs: 1_000,
			leaseMs: 1_000,
			maxWaitMs: 2_000,
			persistMark: () => {},
		});
		const started = performance.now();
		const call = gen.next(12);
		const outcome = await endsWithin(call, 1_000);
		expect(outcome).toMatchObject({ code: "clock_regression" });
		expect(stepped).toBe(true);
		expect(performance.now() - started).toBeLessThan(100);
		wall.stepBack(-60_000);
		expect(await gen.next(3)).toHaveLength(3);
	});

	it("falls back to a timer where the clock stands still while code runs", async () => {
		// As in Workers, where time moves only with I/O: polling would never end.
		vi.spyOn(Date, "now").mockReturnValue(1_000);
		vi.spyOn(performance, "now").mockReturnValue(5);
		await expect(systemClock.sleep(1)).resolves.toBeUndefined();
	});
});
