import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RangeBuffer, type RangeBufferOptions } from "../../../src/ids/sequences/range-buffer";
import { ManualClock } from "../../shared/fake-clock";
import { CounterSource, settle } from "./counter-source";

const STEP = { minStep: 10, maxStep: 1000, targetRefillMs: 500, maxAgeMs: 1000 };

function setup(held: boolean, options: Partial<RangeBufferOptions> = {}, settings: unknown = {}) {
	const clock = new ManualClock(Date.parse("2026-11-27T12:00:00.000Z"));
	const source = new CounterSource(clock, held, settings);
	const buffer = new RangeBuffer({ fetch: source.fetch, clock, step: STEP, ...options });
	return { clock, source, buffer };
}

const firsts = (taken: { first: bigint }[]) => taken.map((t) => t.first);

describe("RangeBuffer", () => {
	it("fetches the next range, sized by the measured rate, before the current one runs out", async () => {
		const { clock, source, buffer } = setup(false);
		const taken = [];
		for (let i = 0; i < 11; i++) {
			taken.push(await buffer.take());
			await settle();
			clock.advance(10);
			// Half a step left (5 of 10) starts nothing; 4 left starts the next range.
			if (i === 4) expect(source.sizes).toEqual([10]);
		}
		expect(firsts(taken)).toEqual([1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n, 11n]);
		// 6 numbers in 50 ms: 120 a second, 60 for the 500 ms target.
		expect(source.sizes).toEqual([10, 60]);
		// Only the first take waited (nothing was held yet).
		expect(clock.sleeps).toEqual([5000]);
		expect(buffer.stats()).toMatchObject({
			takes: 11,
			handedOut: 11,
			fetches: 2,
			wasted: 0n,
			step: 60,
		});
	});

	it("keeps one fetch in flight for concurrent takes, and answers them in call order", async () => {
		const { source, buffer } = setup(true);
		const pending = Array.from({ length: 5 }, () => buffer.take());
		await settle();
		expect(source.sizes).toEqual([10]);
		source.calls[0]?.answer();
		expect(firsts(await Promise.all(pending))).toEqual([1n, 2n, 3n, 4n, 5n]);
		await buffer.take();
		await buffer.take();
		expect(source.sizes.length).toBe(2); // the refill started by the 6th take, still held
		expect(buffer.stats().fetches).toBe(2);
	});

	it("bounds a take's wait for a hung fetch, gives the fetch up, and drops its range if it comes late", async () => {
		const { clock, source, buffer } = setup(true);
		const hung = buffer.take();
		const outcome = hung.catch((error: unknown) => error);
		await settle();
		clock.advance(4999);
		await settle();
		expect(source.calls[0]?.signal.aborted).toBe(false);
		clock.advance(1);
		expect(await outcome).toMatchObject({
			code: "overloaded",
			message: "overloaded: no range of numbers arrived within 5000 ms; retry shortly",
			retryAfterSeconds: 1,
		});
		expect(source.calls[0]?.signal.aborted).toBe(true);
		const next = buffer.take();
		await settle();
		source.calls[1]?.answer();
		expect((await next).first).toBe(11n);
		// The first call's range (1..10) arrives after the buffer handed out 11: never used.
		source.calls[0]?.answer();
		await settle();
		expect((await buffer.take()).first).toBe(12n);
		expect(buffer.stats()).toMatchObject({ lateFetches: 1, droppedRanges: 1, wasted: 10n });
	});

	it("uses a range for at most maxAgeMs after its fetch began", async () => {
		const { clock, source, buffer } = setup(true);
		const first = buffer.take();
		await settle();
		clock.advance(400); // the answer takes 400 ms: its age counts from the call
		source.calls[0]?.answer();
		expect((await first).first).toBe(1n);
		clock.advance(599);
		expect((await buffer.take()).first).toBe(2n);
		clock.advance(1);
		const late = buffer.take();
		await settle();
		source.calls[1]?.answer();
		expect((await late).first).toBe(11n);
		expect(buffer.stats().wasted).toBe(8n);
	});

	it("drops a range when the clock reads earlier than its fetch began: its age is unknown", async () => {
		const { clock, buffer } = setup(false);
		expect((await buffer.take()).first).toBe(1n);
		clock.time -= 1; // the clock steps back: the range may be older than maxAgeMs already
		expect((await buffer.take()).first).toBe(11n);
		expect(buffer.stats()).toMatchObject({ fetches: 2, wasted: 9n });
	});

	it("gives up a fetch begun before the clock stepped back, and waits no longer than maxWaitMs", async () => {
		const { clock, source, buffer } = setup(true);
		const first = buffer.take().catch((error: unknown) => error);
		await settle();
		clock.time -= 60_000;
		const second = buffer.take().catch((error: unknown) => error);
		await settle();
		expect(source.calls.map((call) => call.signal.aborted)).toEqual([true, false]);
		expect(clock.sleeps).toEqual([5000, 5000]);
		clock.advance(5000);
		expect(await first).toMatchObject({ code: "overloaded" });
		expect(await second).toMatchObject({ code: "overloaded" });
	});

	it("waits no longer than maxWaitMs after a range it waited for arrived aged by a clock step", async () => {
		const { clock, source, buffer } = setup(true);
		const take = buffer.take();
		await settle();
		clock.time -= 60_000;
		source.calls[0]?.answer(); // fetched "later" than the clock now reads: dropped, fetched anew
		await settle();
		expect(clock.sleeps).toEqual([5000, 5000]);
		source.calls[1]?.answer();
		expect((await take).first).toBe(11n);
	});

	it("serves takes that concurrent takes outran for several fetches, within maxWaitMs", async () => {
		// Each range holds one take: five waiting takes need five fetches, one at a time.
		const step = { minStep: 10, maxStep: 10, targetRefillMs: 500, maxAgeMs: 1000 };
		const { source, buffer } = setup(false, { step });
		const taken = await Promise.all(Array.from({ length: 5 }, () => buffer.take(10)));
		expect(firsts(taken)).toEqual([1n, 11n, 21n, 31n, 41n]);
		// One fetch per take, and the last take's refill ahead.
		expect(source.sizes).toEqual([10, 10, 10, 10, 10, 10]);
	});

	it("drops the rest of a range too short for a take", async () => {
		const { buffer } = setup(false);
		await buffer.take();
		const big = await buffer.take(15);
		expect(big).toMatchObject({ first: 11n, last: 25n, count: 15 });
		expect(buffer.stats().wasted).toBe(9n);
	});

	it("hands a failed fetch's error to the takes that waited, and fetches anew on the next take", async () => {
		const { source, buffer } = setup(true);
		const waiting = [buffer.take(), buffer.take()].map((p) => p.catch((error: unknown) => error));
		await settle();
		source.calls[0]?.fail(new Error("unavailable: the object restarted"));
		for (const outcome of waiting) {
			expect(await outcome).toEqual(new Error("unavailable: the object restarted"));
		}
		const next = buffer.take();
		await settle();
		source.calls[1]?.answer();
		expect((await next).first).toBe(11n); // 1..10 were issued and lost with the failed answer
		expect(buffer.stats()).toMatchObject({ fetches: 2, failedFetches: 1 });
	});

	it("refuses an impossible range", async () => {
		const clock = new ManualClock(0);
		const buffer = new RangeBuffer({
			fetch: async () => ({ first: 5n, last: 4n }),
			clock,
			step: STEP,
		});
		await expect(buffer.take()).rejects.toMatchObject({
			code: "internal",
			detail: "a fetched range must have 0 <= first <= last <= 9223372036854775807; got 5..4",
		});
	});

	it("closes: drops what it holds, aborts the fetch in flight, wakes and refuses takes", async () => {
		const { buffer } = setup(false);
		await buffer.take();
		buffer.close();
		expect(buffer.stats().wasted).toBe(9n);
		await expect(buffer.take()).rejects.toMatchObject({ code: "buffer_closed" });

		const held = setup(true);
		const waiting = held.buffer.take().catch((error: unknown) => error);
		await settle();
		held.buffer.close();
		expect(await waiting).toMatchObject({ code: "buffer_closed" });
		expect(held.source.calls[0]?.signal.aborted).toBe(true);
		held.source.calls[0]?.answer();
		await settle();
		expect(held.buffer.stats()).toMatchObject({ droppedRanges: 1, wasted: 10n });
	});

	it("follows the source into a new period and never back", async () => {
		const { clock, source, buffer } = setup(true, {}, { reset: "daily" });
		const first = buffer.take();
		await settle();
		source.calls[0]?.answer();
		expect(await first).toMatchObject({ first: 1n, period: "2026-11-27" });
		clock.advance(86_400_000);
		const next = buffer.take();
		await settle();
		source.calls[1]?.answer();
		expect(await next).toMatchObject({ first: 1n, period: "2026-11-28" });
	});

	it("refuses counts that are not positive integers", async () => {
		const { buffer } = setup(false);
		for (const count of [0, -1, 2.5]) {
			await expect(buffer.take(count)).rejects.toMatchObject({ code: "invalid_count" });
		}
	});

	it("property: numbers handed out are unique and increasing, whatever the answers' order and timing", async () => {
		const op = fc.oneof(
			fc.record({ take: fc.integer({ min: 1, max: 12 }) }),
			fc.record({ advance: fc.integer({ min: 0, max: 1_500 }) }),
			fc.record({ answer: fc.nat(), fail: fc.boolean() }),
		);
		await fc.assert(
			fc.asyncProperty(fc.array(op, { maxLength: 60 }), async (ops) => {
				const { clock, source, buffer } = setup(true, { maxWaitMs: 2_000 });
				const handed: bigint[] = [];
				const done: Promise<unknown>[] = [];
				const answered = new Set<number>();
				for (const o of ops) {
					if ("take" in o) {
						done.push(
							buffer.take(o.take).then(
								(t) => {
									for (let n = t.first; n <= t.last; n++) handed.push(n);
								},
								() => undefined,
							),
						);
					} else if ("advance" in o) clock.advance(o.advance);
					else {
						const open = source.calls.map((_, i) => i).filter((i) => !answered.has(i));
						const index = open[o.answer % Math.max(1, open.length)];
						const call = index === undefined ? undefined : source.calls[index];
						if (index !== undefined && call) {
							answered.add(index);
							if (o.fail) call.fail(new Error("lost"));
							else call.answer();
						}
					}
					await settle();
				}
				clock.advance(10_000);
				await Promise.all(done);
				for (let i = 1; i < handed.length; i++) {
					expect(handed[i] as bigint).toBeGreaterThan(handed[i - 1] as bigint);
				}
				expect((handed.at(-1) ?? 0n) < source.state.next).toBe(true);
			}),
			{ numRuns: 150 },
		);
	});
});
