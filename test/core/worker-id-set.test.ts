import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { IdError } from "../../src/ids/errors";
import { WorkerIdSet } from "../../src/ids/pools/worker-id-set";

/** Small ranges over a small universe, so naive sets can check the answers. */
const rangesArb = fc.array(
	fc
		.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 6 }))
		.map(([from, length]) => ({ from, to: from + length })),
	{ maxLength: 6 },
);
const naive = (ranges: { from: number; to: number }[]) => {
	const members = new Set<number>();
	for (const { from, to } of ranges) for (let id = from; id <= to; id++) members.add(id);
	return [...members].sort((a, b) => a - b);
};
const membersOf = (set: WorkerIdSet) => Array.from({ length: set.size }, (_, i) => set.at(i));

describe("WorkerIdSet", () => {
	it("parses ranges and single IDs, merging touching and overlapping parts", () => {
		const set = WorkerIdSet.parse(" 8 , 0-3,4-5, 10-12,11 ", 1023);
		expect(set.ranges).toEqual([
			{ from: 0, to: 5 },
			{ from: 8, to: 8 },
			{ from: 10, to: 12 },
		]);
		expect(set.size).toBe(10);
		expect(set.toString()).toBe("0-5,8,10-12");
	});

	it("holds a 22-bit range as one range", () => {
		const set = WorkerIdSet.parse("0-4194303", 4194303);
		expect(set.ranges).toHaveLength(1);
		expect(set.size).toBe(4194304);
		expect(set.has(4194303)).toBe(true);
		expect(set.at(4194303)).toBe(4194303);
	});

	it.each(["", "1-", "-1", "3-1", "1.5", "a", "1,,2", "+1", "0-1024"])(
		"refuses %j with invalid_config naming the variable and the bound",
		(text) => {
			expect(() => WorkerIdSet.parse(text, 1023, "AUTO_WORKER_IDS")).toThrowError(
				expect.objectContaining({
					code: "invalid_config",
					detail: expect.stringContaining(
						"AUTO_WORKER_IDS must be worker IDs and ranges in [0, 1023]",
					),
				}) as IdError,
			);
		},
	);

	it("answers membership, order, counting and picks like a plain set", () => {
		fc.assert(
			fc.property(
				rangesArb,
				rangesArb,
				fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
				(a, b, r) => {
					const set = new WorkerIdSet(a);
					const other = new WorkerIdSet(b);
					const members = naive(a);
					const otherMembers = naive(b);
					expect(membersOf(set)).toEqual(members);
					expect(set.size).toBe(members.length);
					for (let id = 0; id <= 70; id++) expect(set.has(id)).toBe(members.includes(id));
					const shared = members.filter((id) => otherMembers.includes(id));
					expect(membersOf(set.intersect(other))).toEqual(shared);
					expect(membersOf(set.without(other))).toEqual(
						members.filter((id) => !otherMembers.includes(id)),
					);
					expect(set.overlaps(other)).toBe(shared.length > 0);
					expect(set.contains(other)).toBe(otherMembers.every((id) => members.includes(id)));
					expect(WorkerIdSet.parse(set.toString() || "0", 100).has(members[0] ?? 0)).toBe(true);
					if (set.size > 0) expect(members).toContain(set.pick(() => r));
				},
			),
		);
	});

	it("picks every member with equal chance", () => {
		const set = WorkerIdSet.parse("0-1,10,20-21", 31);
		const picks = Array.from({ length: 5 }, (_, i) => set.pick(() => i / 5 + 0.01));
		expect(picks).toEqual([0, 1, 10, 20, 21]);
	});

	it("refuses an index outside the set, or not a whole number", () => {
		const set = WorkerIdSet.parse("3-4", 31);
		for (const index of [2, -1, 0.5, Number.NaN]) {
			expect(() => set.at(index)).toThrow(new RangeError(`index ${index} is outside a set of 2`));
		}
		expect(set.at(1)).toBe(4);
	});

	it("contains a set inside its first range, up to that range's end, and not past it", () => {
		const set = WorkerIdSet.parse("0-5,8", 31);
		expect(set.contains(WorkerIdSet.parse("1-3", 31))).toBe(true);
		expect(set.contains(WorkerIdSet.parse("0-5", 31))).toBe(true);
		expect(set.contains(WorkerIdSet.parse("0-5,8", 31))).toBe(true);
		expect(set.contains(WorkerIdSet.parse("4-6", 31))).toBe(false);
		expect(set.contains(WorkerIdSet.parse("7", 31))).toBe(false);
	});

	it("picks the last member for a random() of 1, just outside its range", () => {
		expect(WorkerIdSet.parse("3-4,9", 31).pick(() => 1)).toBe(9);
	});

	it("names worker IDs in its refusal when no name is given", () => {
		expect(() => WorkerIdSet.parse("x", 31)).toThrow(
			expect.objectContaining({
				detail:
					'worker IDs must be worker IDs and ranges in [0, 31], such as "0-31" or "0-3,8,10-12"',
			}),
		);
	});

	it.each([
		[{ from: -1, to: 3 }, "-1-3"],
		[{ from: 4, to: 3 }, "4-3"],
		[{ from: 0, to: 1.5 }, "0-1.5"],
		[{ from: 2 ** 53, to: 2 ** 53 }, `${2 ** 53}-${2 ** 53}`],
	])("refuses the range %j when built directly", (range, shown) => {
		expect(() => new WorkerIdSet([range])).toThrow(
			new RangeError(`a worker ID range needs integers 0 <= from <= to, got ${shown}`),
		);
	});

	it("all(max) holds 0 to max, and its JSON is its text", () => {
		const set = WorkerIdSet.all(31);
		expect(set.ranges).toEqual([{ from: 0, to: 31 }]);
		expect(set.size).toBe(32);
		expect(JSON.stringify({ ids: WorkerIdSet.parse("0-3,8", 31) })).toBe('{"ids":"0-3,8"}');
	});
});
