/**
 * The host clock's waits: a generator waits for the next tick at every rollover,
 * and a wait that ends late costs most of that tick's IDs.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "../../src/ids/clock";
import { SnowflakeGenerator } from "../../src/ids/snowflake/generator";
import { SnowflakeLayout } from "../../src/ids/snowflake/layout";

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

/** systemClock as a host with these globals loads it (it picks how to wait when it loads). */
async function systemClockOn(globals: Record<string, unknown>) {
	for (const [name, value] of Object.entries(globals)) vi.stubGlobal(name, value);
	vi.resetModules();
	return (await import("../../src/ids/clock")).systemClock;
}

/** A setImmediate that counts its calls. */
function countedImmediate() {
	const real = setImmediate;
	return vi.fn((callback: () => void) => real(callback));
}

describe("systemClock", () => {
	afterEach(() => {
		vi.restoreAllMocks();
		vi.unstubAllGlobals();
	});

	it("never ends a wait before the time asked for", async () => {
		for (const ms of [1, 2, 5]) {
			const before = Date.now();
			await systemClock.sleep(ms);
			expect(Date.now()).toBeGreaterThanOrEqual(before + ms);
		}
	});

	it("ends a wait for the next millisecond on the first turn past it, not a timer's turn later", async () => {
		// Clocks moved by the test, a tenth of a millisecond per event-loop turn, so the
		// machine's load cannot move them: the wait starts half a millisecond before the
		// next one. A 1 ms timer would end it 1 ms after it began (or later), half a
		// millisecond past the next one; polling ends it on the first turn past it.
		let tenths = 10_005; // 1000.5 ms
		const realImmediate = setImmediate;
		const turn = vi.fn((callback: () => void) =>
			realImmediate(() => {
				tenths += 1;
				callback();
			}),
		);
		const clock = await systemClockOn({ navigator: undefined, setImmediate: turn });
		vi.spyOn(Date, "now").mockImplementation(() => Math.floor(tenths / 10));
		vi.spyOn(performance, "now").mockImplementation(() => tenths / 10);
		const timeout = vi.spyOn(globalThis, "setTimeout");
		expect(await endsWithin(clock.sleep(1), 1_000)).toBe("ended");
		expect(tenths).toBe(10_010); // 1001.0 ms: the first turn in the next millisecond
		expect(turn).toHaveBeenCalledTimes(5);
		expect(timeout).not.toHaveBeenCalledWith(expect.any(Function), 1);
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

	it("sleeps a longer wait on one timer up to its last millisecond, and polls only that", async () => {
		const timeout = vi.spyOn(globalThis, "setTimeout");
		const started = performance.now();
		const wait = systemClock.sleep(30);
		// Set as the wait starts: 30 ms less the last one (polled), less what passed since;
		// a timer of the whole wait or more (31 ms) would end a timer's lateness late.
		const delay = timeout.mock.calls.at(-1)?.[1] ?? NaN;
		expect(delay).toBeGreaterThan(20);
		expect(delay).toBeLessThanOrEqual(29);
		await wait;
		// Ended by the wall clock (whole ms, read when the wait started) or 30 ms of monotonic time.
		expect(performance.now() - started).toBeGreaterThanOrEqual(29);
	});

	it("in Workers (time moves only with I/O), waits on one timer of the whole wait, never polls", async () => {
		const immediate = countedImmediate();
		const clock = await systemClockOn({
			navigator: { userAgent: "Cloudflare-Workers" },
			setImmediate: immediate,
		});
		const timeout = vi.spyOn(globalThis, "setTimeout");
		const wait = clock.sleep(5);
		expect(timeout.mock.calls.at(-1)?.[1]).toBe(5);
		expect(await endsWithin(wait, 1_000)).toBe("ended");
		expect(immediate).not.toHaveBeenCalled();
	});

	it("polls the last millisecond wherever setImmediate is a function and the host is not Workers", async () => {
		const immediate = countedImmediate();
		// A host without `navigator` (Node before 21) polls too.
		const clock = await systemClockOn({ navigator: undefined, setImmediate: immediate });
		// Clocks that stand still: a 1 ms wait is its last millisecond from the start, whatever
		// the machine's load (on a moving clock a late timer could end it before any poll).
		vi.spyOn(Date, "now").mockReturnValue(1_000);
		vi.spyOn(performance, "now").mockReturnValue(5);
		expect(await endsWithin(clock.sleep(1), 1_000)).toBe("ended");
		expect(immediate).toHaveBeenCalledTimes(1);
	});

	it("waits on timers alone where setImmediate is missing or not a function (browsers, stubs)", async () => {
		for (const setImmediate of [undefined, { polyfill: "none" }]) {
			const clock = await systemClockOn({ setImmediate });
			const timeout = vi.spyOn(globalThis, "setTimeout");
			const wait = clock.sleep(3);
			expect(timeout.mock.calls.at(-1)?.[1]).toBe(3);
			expect(await endsWithin(wait, 1_000)).toBe("ended");
			timeout.mockRestore();
		}
	});
});

describe("systemClock.sleep's cancel", () => {
	it("ends the wait at once and clears its timer, however far off it was", async () => {
		for (const ms of [30_000, 1]) {
			const cancel = new AbortController();
			const started = performance.now();
			const sleeping = systemClock.sleep(ms, cancel.signal);
			cancel.abort();
			await sleeping;
			expect(performance.now() - started).toBeLessThan(ms === 1 ? 50 : 1_000);
		}
		const cancelled = new AbortController();
		cancelled.abort();
		await systemClock.sleep(30_000, cancelled.signal); // already cancelled: no wait at all
	});

	it("leaves no timer behind once cancelled (a process with nothing else to do exits)", async () => {
		vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
		try {
			const cancel = new AbortController();
			const sleeping = systemClock.sleep(30_000, cancel.signal);
			expect(vi.getTimerCount()).toBe(1);
			cancel.abort();
			expect(vi.getTimerCount()).toBe(0);
			await sleeping;
		} finally {
			vi.useRealTimers();
		}
	});

	it("stops listening for the cancel once the wait ends by itself", async () => {
		const cancel = new AbortController();
		const removed = vi.spyOn(cancel.signal, "removeEventListener");
		await systemClock.sleep(2, cancel.signal);
		expect(removed).toHaveBeenCalledWith("abort", expect.any(Function));
		cancel.abort(); // after the wait: nothing left to stop
	});

	it("stops polling a wait's last millisecond once cancelled: the wait never ends by itself after", async () => {
		const cancel = new AbortController();
		const removed = vi.spyOn(cancel.signal, "removeEventListener");
		const sleeping = systemClock.sleep(1, cancel.signal); // within a millisecond: polled
		cancel.abort();
		await sleeping;
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(removed).not.toHaveBeenCalled(); // a wait that went on would end itself, removing it
	});
});
