/**
 * `nextNow()`: `next(1)`'s fast path without a promise, for hosts that wrap `next`.
 * It issues only what `next(1)` would issue at once, and nothing when a call is in
 * flight or the tick would change.
 */
import { describe, expect, it } from "vitest";
import { FrozenClock } from "../shared/fake-clock";
import { fieldsOf, generator } from "./snowflake-setup";

describe("SnowflakeGenerator.nextNow", () => {
	it("issues the next sequence of the last tick, and nothing at a new tick or before the first ID", async () => {
		const clock = new FrozenClock(100);
		const { gen } = generator(clock);
		expect(gen.nextNow()).toBeUndefined(); // no tick yet: next() takes it (a mark write)
		await gen.next();
		expect(fieldsOf([gen.nextNow() ?? ""])).toEqual([{ tick: 100, workerId: 7, sequence: 1 }]);
		clock.time = 101;
		expect(gen.nextNow()).toBeUndefined();
		expect(fieldsOf(await gen.next())).toEqual([{ tick: 101, workerId: 7, sequence: 0 }]);
		expect(gen.stats()).toMatchObject({ issued: 3, requests: 3 });
	});

	it("issues nothing while a call is in flight (it would overtake it) or the tick is full", async () => {
		const clock = new FrozenClock(100);
		const { gen } = generator(clock);
		await gen.next(4_095);
		expect(gen.nextNow()).toBeDefined(); // sequence 4095, the tick's last
		expect(gen.nextNow()).toBeUndefined(); // full
		const waiting = gen.next(); // waits for tick 101
		clock.time = 101;
		expect(gen.nextNow()).toBeUndefined();
		expect(fieldsOf(await waiting)[0]).toEqual({ tick: 101, workerId: 7, sequence: 0 });
		expect(fieldsOf([gen.nextNow() ?? ""])[0]).toEqual({ tick: 101, workerId: 7, sequence: 1 });
	});

	it("issues nothing while a call waits, even when the tick it would take has room", async () => {
		let time = 100;
		let wake: () => void = () => {};
		const { gen } = generator({
			now: () => time,
			sleep: () =>
				new Promise<void>((resolve) => {
					wake = resolve;
				}),
		});
		await gen.next(); // tick 100, sequence 0
		time = 99; // a step back: the next call waits for the clock, in flight
		const waiting = gen.next();
		time = 100;
		expect(gen.nextNow()).toBeUndefined(); // it would come before the waiting call's ID
		wake();
		expect(fieldsOf(await waiting)).toEqual([{ tick: 100, workerId: 7, sequence: 1 }]);
	});
});
