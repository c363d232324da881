/**
 * RangeBuffer: a take larger than the largest step is fetched on its own, at once,
 * not queued behind a refill; what was held below it is dropped so numbers still
 * increase; a direct range that a refill overtook is dropped and fetched again. A
 * take's `signal` ends its wait early, and no wait's timer outlives it.
 */
import { describe, expect, it } from "vitest";
import { RangeBuffer } from "../../../src/ids/sequences/range-buffer";
import { ManualClock } from "../../shared/fake-clock";
import { CounterSource, settle } from "./counter-source";

const STEP = { minStep: 10, maxStep: 1000, targetRefillMs: 500, maxAgeMs: 1000 };

function setup() {
	const clock = new ManualClock(Date.parse("2026-11-27T12:00:00.000Z"));
	const source = new CounterSource(clock, true);
	const buffer = new RangeBuffer({ fetch: source.fetch, clock, step: STEP });
	return { clock, source, buffer };
}

describe("RangeBuffer, takes above the largest step", () => {
	it("fetch exactly their count at once, while a refill is in flight", async () => {
		const { source, buffer } = setup();
		const small = buffer.take(1); // starts the first fetch (10), held by the source
		await settle();
		const large = buffer.take(5000);
		await settle();
		expect(source.sizes).toEqual([10, 5000]); // not queued behind the refill
		source.calls[1]?.answer();
		expect(await large).toMatchObject({ first: 11n, last: 5010n, count: 5000 });
		// The refill arrived below numbers handed out: dropped; the small take fetches again.
		source.calls[0]?.answer();
		await settle();
		source.calls[2]?.answer();
		expect((await small).first).toBe(5011n);
		expect(buffer.stats()).toMatchObject({ droppedRanges: 1, wasted: 10n });
	});

	it("drop what was held below them, so later takes are larger", async () => {
		const { source, buffer } = setup();
		const first = buffer.take(2);
		await settle();
		source.calls[0]?.answer();
		expect((await first).first).toBe(1n); // 3..10 held
		const large = buffer.take(2000);
		await settle();
		source.calls.at(-1)?.answer();
		expect((await large).first).toBe(11n);
		const after = buffer.take(1);
		await settle();
		source.calls.at(-1)?.answer();
		expect((await after).first).toBeGreaterThan(2010n);
		expect(buffer.stats().wasted).toBeGreaterThanOrEqual(8n); // 3..10
	});

	it("fetch again when a refill overtook them", async () => {
		const { source, buffer } = setup();
		const large = buffer.take(3000); // its fetch: 1..3000, held by the source
		await settle();
		const small = buffer.take(1); // the refill: 3001..3010, answered first
		await settle();
		source.calls[1]?.answer();
		expect((await small).first).toBe(3001n);
		source.calls[0]?.answer(); // below 3001: dropped, fetched again
		await settle();
		expect(source.sizes).toEqual([3000, 10, 3000]);
		source.calls[2]?.answer();
		expect((await large).first).toBe(3011n);
	});
});

describe("RangeBuffer, a take's signal and timers", () => {
	it("rejects with the signal's reason when it aborts during a wait, and cancels the wait's timer", async () => {
		const { clock, buffer } = setup();
		const controller = new AbortController();
		const taking = buffer.take(1, undefined, controller.signal).catch((error: unknown) => error);
		await settle();
		expect(clock.sleeps).toEqual([5000]);
		const reason = new Error("caller gave up");
		controller.abort(reason);
		expect(await taking).toBe(reason);
		expect(clock.cancelledSleeps).toBe(1);
		// An aborted signal refuses before anything is fetched.
		await expect(buffer.take(1, undefined, controller.signal)).rejects.toBe(reason);
	});
});
