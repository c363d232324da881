/**
 * A clock reading that is not a finite number (NaN, ±Infinity) is a clock fault:
 * refused as a regression is (`clock_regression`, retryable), never stored. The
 * mark never becomes NaN, the highest reading is never Infinity, a restored mark
 * that is not a whole tick is refused at construction, and once the clock reads
 * numbers again the generator goes on strictly above everything it issued.
 */
import { describe, expect, it } from "vitest";
import { TypeIdFactory } from "../../src/ids/forms/typeid";
import { UlidFactory } from "../../src/ids/forms/ulid";
import { UuidV7Factory } from "../../src/ids/forms/uuidv7";
import { FrozenClock } from "../shared/fake-clock";
import { expectSnowflakesIncreasing, expectTextIncreasing } from "../shared/order";
import { ids as poolIds, setup } from "./pool-setup";
import { generator, layout } from "./snowflake-setup";

const FAULTS = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];

/** A frozen clock that reads `fault` instead while one is set (`faultReads` times, or until cleared). */
class FaultyClock extends FrozenClock {
	fault: number | undefined;
	faultReads = Number.POSITIVE_INFINITY;
	/** Called as each sleep starts. */
	onSleep: (() => void) | undefined;
	override now(): number {
		if (this.fault === undefined || this.faultReads <= 0) return this.time;
		this.faultReads--;
		return this.fault;
	}
	override async sleep(ms: number): Promise<void> {
		this.onSleep?.();
		await super.sleep(ms);
	}
}

/** The refusal a faulty reading gets: the same for every generator and factory. */
function clockFault(reading: number) {
	return {
		name: "IdError",
		code: "clock_regression",
		message: `clock_regression: the clock read ${reading}, not a finite number of milliseconds; refused as a clock that went back is; retry later`,
		retryAfterSeconds: 1,
	};
}

const rejection = (work: Promise<unknown>) =>
	work.then(
		() => "resolved",
		(error: unknown) => error,
	);

describe.each(FAULTS)("a Snowflake generator whose clock reads %s", (fault) => {
	function faulty(time = 1_000) {
		const clock = new FaultyClock(time);
		const made = generator(clock);
		return { clock, ...made };
	}

	/** The generator issues above everything before, its marks and stats are whole numbers. */
	async function expectRecovered(parts: ReturnType<typeof faulty>, before: string[]) {
		parts.clock.fault = undefined;
		const after = [
			...(await parts.gen.next(1)),
			...(await parts.gen.next(5)),
			...(await parts.gen.next(1)),
		];
		expectSnowflakesIncreasing([...before, ...after]);
		for (const mark of parts.marks) expect(Number.isSafeInteger(mark), `mark ${mark}`).toBe(true);
		const stats = parts.gen.stats();
		for (const [name, value] of Object.entries(stats)) {
			if (value !== null) expect(Number.isFinite(value), `${name} ${value}`).toBe(true);
		}
		expect(stats.issued).toBe(before.length + after.length);
		return after;
	}

	it("fast path (one ID, nothing in flight): refused, nothing stored", async () => {
		const parts = faulty();
		const before = await parts.gen.next(1);
		parts.clock.fault = fault;
		expect(await rejection(parts.gen.next(1))).toMatchObject(clockFault(fault));
		expect(await rejection(parts.gen.next(3))).toMatchObject(clockFault(fault));
		expect(await rejection(parts.gen.nextRuns(1))).toMatchObject(clockFault(fault));
		expect(parts.gen.stats().requests).toBe(4);
		await expectRecovered(parts, before);
	});

	it("first call of a life (the queued path): refused, no mark written", async () => {
		const parts = faulty();
		parts.clock.fault = fault;
		expect(await rejection(parts.gen.next(2))).toMatchObject(clockFault(fault));
		expect(parts.marks).toEqual([]);
		await expectRecovered(parts, []);
	});

	it("queued behind a call in flight: refused, and the queue goes on", async () => {
		const parts = faulty();
		const before = await parts.gen.next(1);
		// Lease writes that wait: the first call is in flight while the others queue.
		let release: () => void = () => undefined;
		parts.clock.time = 5_000; // past the mark: the next call writes one
		const held = generator(parts.clock, {
			restoredMark: parts.marks.at(-1),
			persistMark: () => new Promise<void>((resolve) => (release = resolve)),
		});
		const first = held.gen.next(2);
		parts.clock.fault = fault;
		parts.clock.faultReads = 1;
		const queued = held.gen.next(2);
		const third = held.gen.next(2);
		release();
		expect(await rejection(queued)).toMatchObject(clockFault(fault));
		const issued = [...before, ...(await first), ...(await third)];
		expectSnowflakesIncreasing(issued);
		expect(held.gen.stats().requests).toBe(3);
	});

	it("the reading after a rollover wait: refused", async () => {
		const parts = faulty();
		const before = await parts.gen.next(4_000); // tick 1000 nearly full
		parts.clock.onSleep = () => {
			parts.clock.fault = fault;
			parts.clock.onSleep = undefined;
		};
		expect(await rejection(parts.gen.next(200))).toMatchObject(clockFault(fault));
		expect(parts.clock.sleeps.length).toBe(1);
		await expectRecovered(parts, before);
	});

	it("one such reading does not change how a later regression is judged", async () => {
		const parts = faulty(100_000);
		const before = await parts.gen.next(1);
		parts.clock.fault = fault;
		parts.clock.faultReads = 1;
		expect(await rejection(parts.gen.next(1))).toMatchObject(clockFault(fault));
		// 30 s back, more than maxBackwardMs (1 s): refused, not waited out.
		parts.clock.time = 70_000;
		expect(await rejection(parts.gen.next(1))).toMatchObject({ code: "clock_regression" });
		expect(await rejection(parts.gen.next(2))).toMatchObject({
			code: "clock_regression",
			detail: expect.stringContaining("30000 ms behind"),
		});
		expect(parts.clock.sleeps).toEqual([]);
		parts.clock.time = 100_000;
		await expectRecovered(parts, before);
	});
});

describe("a restored mark that is not a whole tick", () => {
	it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1.5, -2])(
		"%s is refused at construction (a stored mark is never spun on)",
		(mark) => {
			expect(() => generator(new FrozenClock(1_000), { restoredMark: mark })).toThrow(
				expect.objectContaining({
					code: "internal",
					message: `internal: the restored mark must be a whole tick (an integer >= 0) as an earlier life of this worker ID persisted it; got ${mark}`,
				}),
			);
		},
	);

	it.each([Number.NaN, Number.POSITIVE_INFINITY, -1])(
		"a restored lease of %s is refused at construction too",
		(lease) => {
			expect(() =>
				generator(new FrozenClock(1_000), { restoredMark: 1_000, restoredLeaseMs: lease }),
			).toThrow(
				expect.objectContaining({
					code: "internal",
					message: expect.stringContaining(`the restored lease must be a finite number of ms >= 0`),
				}),
			);
		},
	);

	it("a whole mark restores as before", async () => {
		const { gen } = generator(new FrozenClock(1_000), { restoredMark: 1_000 });
		const [id] = await gen.next(1);
		expect(layout.decompose(BigInt(id as string)).tick).toBe(1_001);
	});
});

describe.each(FAULTS)("ULID, UUIDv7 and TypeID factories given %s", (fault) => {
	it.each([
		["ulid", () => new UlidFactory()],
		["uuidv7", () => new UuidV7Factory()],
		["typeid", () => new TypeIdFactory("user")],
	] as const)("%s: refused as a clock fault, and the next ID follows the last", (_, make) => {
		const factory = make();
		const before = factory.nextBatch(1_000, 3);
		expect(() => factory.next(fault)).toThrow(expect.objectContaining(clockFault(fault)));
		expect(() => factory.nextBatch(fault, 2)).toThrow(expect.objectContaining(clockFault(fault)));
		expectTextIncreasing([...before, ...factory.nextBatch(1_000, 2), factory.next(1_001)]);
	});
});

describe.each(FAULTS)("an ID pool whose clock reads %s", (fault) => {
	it("refuses the take instead of handing out IDs it cannot tell the age of, and drops stale ones after", async () => {
		let reading: number | undefined;
		const { clock, pool } = setup({ now: () => reading ?? clock.now() });
		const first = await pool.take(1);
		reading = fault;
		await expect(pool.take(1)).rejects.toMatchObject(clockFault(fault));
		// The clock reads numbers again, 5 s on: the block's leftovers are too old to hand out.
		reading = undefined;
		clock.time += 5_000;
		const later = await pool.take(1);
		expect(layout.msOf(later.runs[0]?.tick as number)).toBeGreaterThanOrEqual(clock.time - 1_000);
		expectSnowflakesIncreasing([...poolIds(first), ...poolIds(later)]);
	});

	it("a reading taken while a refill lands refuses, and the pool works once the clock does", async () => {
		let reading: number | undefined;
		let faulted = false;
		const { clock, pool } = setup(({ issue }) => ({
			now: () => reading ?? clock.now(),
			refill: async (size) => {
				const block = await issue(size);
				if (!faulted) reading = fault; // the clock goes wrong as the first block arrives
				faulted = true;
				return block;
			},
		}));
		await expect(pool.take(1)).rejects.toMatchObject(clockFault(fault));
		reading = undefined;
		const taken = await pool.take(1);
		expect(taken.runs[0]?.count).toBe(1);
		expect(Number.isFinite(pool.stats().wasted)).toBe(true);
	});
});
