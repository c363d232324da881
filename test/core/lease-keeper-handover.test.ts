/**
 * Handing ticks over (SnowflakeGenerator.handOver, which LeaseKeeper grants spans
 * through): the generator goes on above what it gave away; and the keeper's default
 * comparison of lease hashes. Clock readings are ticks (epoch 0, 1 ms).
 */
import { describe, expect, it } from "vitest";
import { FrozenClock } from "../shared/fake-clock";
import { bootKeeper, MemoryStore } from "./lease-setup";
import { fieldsOf, generator } from "./snowflake-setup";

describe("handing ticks over", () => {
	it("handOver: the generator goes on above the ticks given away, waiting for the clock if need be", async () => {
		const clock = new FrozenClock(1_000);
		const { gen, marks } = generator(clock);
		const answer = await gen.handOver((mark) => ({ value: `mark ${mark}`, through: 1_500 }));
		expect(answer).toBe("mark -1");
		// Ticks up to 1,500 are someone else's: the next ID waits for 1,501 (no borrowing here).
		expect(fieldsOf(await gen.next())).toEqual([{ tick: 1_501, workerId: 7, sequence: 0 }]);
		expect(clock.sleeps).toEqual([501]);
		expect(marks.at(-1)).toBeGreaterThanOrEqual(1_501);
		// The work gets the mark: every tick issued or given away is at or below it.
		expect(await gen.handOver((mark) => ({ value: mark }))).toBeGreaterThanOrEqual(1_501);
		// Nothing is left in flight: the next ID of the tick comes at once.
		expect(fieldsOf([gen.nextNow() ?? ""])).toEqual([{ tick: 1_501, workerId: 7, sequence: 1 }]);
	});

	it("handOver: a through at or below the last tick changes nothing, and a failed work neither", async () => {
		const clock = new FrozenClock(1_000);
		const { gen } = generator(clock);
		await gen.next();
		await gen.handOver(() => ({ value: undefined, through: 999 }));
		await expect(gen.handOver(() => Promise.reject(new Error("storage failed")))).rejects.toThrow(
			"storage failed",
		);
		expect(fieldsOf(await gen.next())).toEqual([{ tick: 1_000, workerId: 7, sequence: 1 }]);
		expect(clock.sleeps).toEqual([]);
	});

	it("compares lease hashes by default as whole strings: a prefix or a longer hash is another lease", async () => {
		const clock = new FrozenClock(1_000);
		const keeper = bootKeeper(clock, new MemoryStore());
		await keeper.acquire({ leaseHash: "abcdef", holder: null });
		for (const presented of ["abcde", "abcdefg", "abcdeg", ""]) {
			expect(await keeper.renew(presented)).toMatchObject({
				ok: false,
				refusal: { code: "lease_lost" },
			});
		}
		expect(await keeper.renew("abcdef")).toMatchObject({ ok: true });
	});
});
