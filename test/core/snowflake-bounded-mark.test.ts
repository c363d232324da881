/**
 * A bounded mark store (a worker-ID lease's span): `persistMark` answers the mark
 * it holds, which may be lower than the one asked for, and may rise later. The
 * generator issues up to that mark, never above it, and asks again beyond it.
 */
import { describe, expect, it } from "vitest";
import { FrozenClock } from "../shared/fake-clock";
import { fieldsOf, generator } from "./snowflake-setup";

describe("SnowflakeGenerator with a bounded mark store", () => {
	it("issues up to the mark the store answers and asks again for the tick beyond it", async () => {
		const clock = new FrozenClock(100);
		let ceiling = 101; // the span's last tick
		const asked: { tick: number; needed: number }[] = [];
		const { gen } = generator(clock, {
			leaseMs: 1000, // asks for a mark 1,000 ticks ahead: more than the store holds
			persistMark: (tick, _leaseMs, needed) => {
				asked.push({ tick, needed });
				return ceiling;
			},
		});
		expect(fieldsOf(await gen.next())[0]?.tick).toBe(100);
		clock.time = 101;
		expect(fieldsOf(await gen.next())[0]?.tick).toBe(101); // covered: no new ask
		clock.time = 102;
		ceiling = 150; // a renewal raised it
		expect(fieldsOf(await gen.next())[0]?.tick).toBe(102);
		expect(asked).toEqual([
			{ tick: 1_100, needed: 100 },
			{ tick: 1_102, needed: 102 },
		]);
	});

	it("refuses (internal) rather than issue above a mark below the tick it needs", async () => {
		const clock = new FrozenClock(100);
		const { gen } = generator(clock, { persistMark: () => 99 });
		await expect(gen.next()).rejects.toMatchObject({
			code: "internal",
			detail: "the mark store answered 99, not a tick at or above 100, the tick about to be issued",
		});
		expect(gen.stats().issued).toBe(0);
	});

	it("issues a batch only as far as the mark, then waits on the store for the rest", async () => {
		const clock = new FrozenClock(100);
		const calls: number[] = [];
		const { gen } = generator(clock, {
			maxBorrowMs: 5,
			persistMark: async (_tick, _leaseMs, needed) => {
				calls.push(needed);
				return needed + 1; // two ticks at a time
			},
		});
		const ticks = fieldsOf(await gen.next(4_096 * 3)).map((f) => f.tick);
		expect(new Set(ticks)).toEqual(new Set([100, 101, 102])); // 4,096 a tick (random start 0)
		expect(calls).toEqual([100, 102]);
	});
});
