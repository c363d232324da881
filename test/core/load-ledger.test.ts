import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { U128Store } from "../../scripts/load/id-store";
import { IntervalSet } from "../../scripts/load/intervals";
import { Ledger, type SnowflakeAnswer } from "../../scripts/load/ledger";
import { UlidFactory, ulidToUuid } from "../../src/ids/forms/ulid";
import { UuidV7Factory } from "../../src/ids/forms/uuidv7";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";

// The load test's ledger (scripts/load): what it counts decides whether a billion-ID
// run may say "0 duplicates", so an uncounted overlap must fail here.

describe("IntervalSet", () => {
	it("merges adjacent intervals into one, in any order", () => {
		const set = new IntervalSet();
		expect(set.add(10, 19)).toBe(0);
		expect(set.add(30, 39)).toBe(0);
		expect(set.add(0, 9)).toBe(0);
		expect(set.add(20, 29)).toBe(0);
		expect(set.toArray()).toEqual([[0, 39]]);
		expect(set.size).toBe(40);
	});

	it("keeps a gap of one as two intervals", () => {
		const set = new IntervalSet();
		set.add(0, 9);
		set.add(11, 20);
		expect(set.toArray()).toEqual([
			[0, 9],
			[11, 20],
		]);
	});

	it("counts every repeated integer: at the end, inside, and across several intervals", () => {
		const set = new IntervalSet();
		set.add(0, 9);
		expect(set.add(5, 14)).toBe(5); // the tail of the last interval
		expect(set.add(7, 7)).toBe(1); // one ID inside
		set.add(20, 24);
		set.add(30, 34);
		expect(set.add(12, 31)).toBe(3 + 5 + 2); // 12–14, 20–24 and 30–31 were there
		expect(set.toArray()).toEqual([[0, 34]]);
		expect(set.add(0, 34)).toBe(35);
	});

	it("refuses what is not an interval of safe integers", () => {
		const set = new IntervalSet();
		expect(() => set.add(5, 4)).toThrow(RangeError);
		expect(() => set.add(0, 2 ** 53)).toThrow(RangeError);
	});

	it("agrees with a plain set on random intervals (repeats, size, disjoint and merged)", () => {
		const interval = fc
			.tuple(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 20 }))
			.map(([start, length]) => [start, start + length] as const);
		fc.assert(
			fc.property(fc.array(interval, { maxLength: 60 }), (intervals) => {
				const set = new IntervalSet();
				const model = new Set<number>();
				for (const [start, end] of intervals) {
					let repeats = 0;
					for (let i = start; i <= end; i++) {
						if (model.has(i)) repeats++;
						model.add(i);
					}
					expect(set.add(start, end)).toBe(repeats);
				}
				expect(set.size).toBe(model.size);
				const kept = set.toArray();
				for (let i = 1; i < kept.length; i++) {
					expect((kept[i] as [number, number])[0]).toBeGreaterThan(
						(kept[i - 1] as [number, number])[1] + 1,
					);
				}
			}),
			{ seed: 0x1ed9e5, numRuns: 300 },
		);
	});
});

const LAYOUT = new SnowflakeLayout(TWITTER_LAYOUT).toJSON();

/** The Snowflake of a worker ID at `ms` (Unix) and sequence. */
function snowflake(ms: number, workerId: number, sequence: number): bigint {
	return (BigInt(ms - LAYOUT.epoch) << 22n) | (BigInt(workerId) << 12n) | BigInt(sequence);
}

function setup() {
	const now = Date.now();
	const ledger = new Ledger(LAYOUT, now - 1000);
	const answer = (route: SnowflakeAnswer["route"], workerId?: number): SnowflakeAnswer => ({
		route,
		askedWorkerId: route.startsWith("explicit") ? workerId : undefined,
		namedWorkerId: workerId,
		sentAt: now,
		floor: workerId === undefined ? undefined : ledger.floorNow(workerId),
		rules: ledger.rulesNow(),
	});
	return { now, ledger, answer };
}

describe("Ledger (Snowflakes as intervals per worker ID)", () => {
	it("counts an ID given again on another route as a duplicate", () => {
		const { now, ledger, answer } = setup();
		// A block across a tick boundary: sequences 4090–4095 of one tick, 0–3 of the next.
		ledger.checkSnowflakeBlocks(
			[
				{ first: String(snowflake(now, 3, 4090)), count: 6 },
				{ first: String(snowflake(now + 1, 3, 0)), count: 4 },
			],
			answer("explicit-blocks", 3),
		);
		expect(ledger.intervals()).toBe(1);
		ledger.checkSnowflakeIds([String(snowflake(now + 1, 3, 2))], answer("auto", 3));
		expect(ledger.stats.duplicates.snowflake).toBe(1);
		// The same tick and sequence on another worker ID is another ID.
		ledger.checkSnowflakeIds([String(snowflake(now + 1, 4, 2))], answer("auto", 4));
		expect(ledger.stats.duplicates.snowflake).toBe(1);
		expect(ledger.violations()).toBe(1);
		expect(ledger.stats.idsChecked).toMatchObject({ "explicit-blocks": 10, auto: 2 });
	});

	it("keeps consecutive single IDs as one interval", () => {
		const { now, ledger, answer } = setup();
		for (let sequence = 0; sequence < 100; sequence++) {
			ledger.checkSnowflakeIds([String(snowflake(now, 1, sequence))], answer("explicit", 1));
		}
		expect(ledger.intervals()).toBe(1);
		expect(ledger.violations()).toBe(0);
	});

	it("checks explicit answers against every answer that completed before they were sent", () => {
		const { now, ledger, answer } = setup();
		const concurrent = answer("explicit", 2); // sent before the next answer completed
		ledger.checkSnowflakeIds([String(snowflake(now, 2, 50))], answer("explicit", 2));
		ledger.checkSnowflakeIds([String(snowflake(now, 2, 10))], concurrent);
		expect(ledger.stats.outOfOrderAcrossAnswers).toBe(0);
		// Sent after both completed: it must be above sequence 50.
		ledger.checkSnowflakeBlocks(
			[{ first: String(snowflake(now, 2, 40)), count: 5 }],
			answer("explicit-blocks", 2),
		);
		expect(ledger.stats.outOfOrderAcrossAnswers).toBe(1);
		// An auto answer is k-sorted, not ordered: below the others is no violation.
		ledger.checkSnowflakeIds([String(snowflake(now, 2, 20))], answer("auto", 2));
		expect(ledger.stats.outOfOrderAcrossAnswers).toBe(1);
		expect(ledger.violations()).toBe(1);
	});

	it("flags IDs out of order within an answer, the wrong worker ID and a block across ticks", () => {
		const { now, ledger, answer } = setup();
		ledger.checkSnowflakeIds(
			[String(snowflake(now, 5, 9)), String(snowflake(now, 5, 8))],
			answer("explicit", 5),
		);
		expect(ledger.stats.outOfOrderInAnswer).toBe(1);
		ledger.checkSnowflakeIds([String(snowflake(now, 6, 1))], answer("explicit", 5));
		expect(ledger.stats.wrongWorkerId).toBe(1);
		ledger.checkSnowflakeBlocks(
			[{ first: String(snowflake(now, 5, 4095)), count: 2 }],
			answer("explicit-blocks", 5),
		);
		expect(ledger.stats.malformed).toBe(1);
	});

	it("holds auto answers to POOL_MAX_AGE_MS and, once set, to AUTO_WORKER_IDS", () => {
		const { now, ledger, answer } = setup();
		ledger.checkSnowflakeIds([String(snowflake(now - 1500, 7, 0))], answer("auto", 7));
		expect(ledger.stats.staleAuto).toBe(1);
		ledger.applyConfig({ AUTO_WORKER_IDS: "0-3", POOL_MAX_AGE_MS: "2000" });
		ledger.checkSnowflakeIds([String(snowflake(now - 1500, 7, 1))], answer("auto", 7));
		expect(ledger.stats.staleAuto).toBe(1);
		expect(ledger.stats.wrongWorkerId).toBe(1);
	});
});

describe("Ledger (ULIDs and UUIDv7s, every one kept)", () => {
	it("counts a ULID given again, also in UUID form, and a UUIDv7 given twice more", () => {
		const { now, ledger } = setup();
		const rules = ledger.rulesNow();
		const [a, b, c] = new UlidFactory().nextBatch(now, 3) as [string, string, string];
		ledger.check128("ulid", [a, b], "ulid", rules);
		ledger.check128("ulid", [ulidToUuid(b), ulidToUuid(c)], "uuid", rules);
		const [u, v] = new UuidV7Factory().nextBatch(now, 2) as [string, string];
		ledger.check128("uuidv7", [u, v], "uuid", rules);
		ledger.check128("uuidv7", [v], "uuid", rules);
		ledger.check128("uuidv7", [v], "uuid", rules);
		// Answers are checked one by one; repeats across answers are found when the run ends.
		expect(ledger.violations()).toBe(0);
		ledger.countDuplicates128();
		expect(ledger.stats.duplicates).toEqual({ snowflake: 0, ulid: 1, uuidv7: 2 });
		expect(ledger.violations()).toBe(3);
		expect(ledger.stats.idsChecked).toMatchObject({ ulid: 4, uuidv7: 4 });
	});

	it("tells 128-bit IDs apart that share their low 64 bits, and counts every extra copy", () => {
		const store = new U128Store();
		const low = 0x0123_4567_89ab_cdefn;
		store.push((1n << 64n) | low);
		store.push((2n << 64n) | low); // another ID with the same low half
		expect(store.duplicates()).toBe(0);
		store.push((2n << 64n) | low);
		store.push((2n << 64n) | low);
		store.push(7n); // no other ID shares its low half
		expect(store.duplicates()).toBe(2);
		expect(store.length).toBe(5);
	});

	it("flags IDs out of order within an answer and malformed ones", () => {
		const { now, ledger } = setup();
		const rules = ledger.rulesNow();
		const [a, b] = new UlidFactory().nextBatch(now, 2) as [string, string];
		ledger.check128("ulid", [b, a], "ulid", rules);
		expect(ledger.stats.outOfOrderInAnswer).toBe(1);
		const uuid = new UuidV7Factory().next(now);
		ledger.check128("uuidv7", [`${uuid.slice(0, 14)}4${uuid.slice(15)}`], "uuid", rules);
		ledger.check128("ulid", ["8ZZZZZZZZZZZZZZZZZZZZZZZZZ"], "ulid", rules);
		expect(ledger.stats.malformed).toBe(2);
	});
});

describe("Ledger: every ID's time within the run", () => {
	// The run began 1 s before `now`; an ID may be 5 s older than that (clock slack between
	// machines) and ahead of the clock by the lease and borrowed time (rules.aheadMs), plus 1 s.
	it("flags a Snowflake from before the run or too far ahead of the clock, not one within", () => {
		const { now, ledger, answer } = setup();
		const { aheadMs } = ledger.rulesNow();
		const inRange = [now - 1000 - 4_999, now, now + aheadMs - 50];
		inRange.forEach((ms, i) => {
			ledger.checkSnowflakeIds([String(snowflake(ms, 10 + i, 0))], answer("explicit", 10 + i));
		});
		expect(ledger.stats.timeOutOfRange).toBe(0);
		ledger.checkSnowflakeIds(
			[String(snowflake(now - 1000 - 5_001, 20, 0))],
			answer("explicit", 20),
		);
		expect(ledger.stats.timeOutOfRange).toBe(1);
		ledger.checkSnowflakeIds(
			[String(snowflake(now + aheadMs + 500, 21, 0))],
			answer("explicit", 21),
		);
		expect(ledger.stats.timeOutOfRange).toBe(2);
		// The last ID of an answer counts too, not only its first.
		ledger.checkSnowflakeBlocks(
			[
				{ first: String(snowflake(now, 22, 0)), count: 1 },
				{ first: String(snowflake(now + aheadMs + 500, 22, 0)), count: 1 },
			],
			answer("explicit-blocks", 22),
		);
		expect(ledger.stats.timeOutOfRange).toBe(3);
		expect(ledger.violations()).toBe(3);
	});

	it("flags ULIDs and UUIDv7s from before the run or too far ahead", () => {
		const { now, ledger } = setup();
		const rules = ledger.rulesNow();
		ledger.check128("ulid", [new UlidFactory().next(now)], "ulid", rules);
		expect(ledger.stats.timeOutOfRange).toBe(0);
		ledger.check128("ulid", [new UlidFactory().next(now - 1000 - 5_001)], "ulid", rules);
		ledger.check128("uuidv7", [new UuidV7Factory().next(now + rules.aheadMs + 500)], "uuid", rules);
		expect(ledger.stats.timeOutOfRange).toBe(2);
	});
});
