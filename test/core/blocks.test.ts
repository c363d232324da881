/**
 * Blocks `{first, count}` (src/ids/snowflake/blocks.ts): one per run, read back into the same runs,
 * expanded into the same IDs; a block that is not a decimal first ID and a positive count,
 * or that crosses a tick, is refused with `invalid_id` naming it.
 */
import { describe, expect, it } from "vitest";
import { blocksOfRuns, expandBlocks, runsOfBlocks } from "../../src/ids/snowflake/blocks";
import { formatRuns } from "../../src/ids/snowflake/generator";
import { layout } from "./snowflake-setup";

const RUNS = [
	{ tick: 1_000, firstSequence: 4_090, count: 6 }, // the last sequences of a tick
	{ tick: 1_001, firstSequence: 0, count: 3 },
	{ tick: 2 ** 40, firstSequence: 17, count: 1 },
];

describe("blocks", () => {
	it("one per run, read back into the same runs, expanded into the same IDs", () => {
		const blocks = blocksOfRuns(layout, 7, RUNS);
		expect(blocks).toEqual(
			RUNS.map((run) => ({
				first: formatRuns(layout, 7, [{ ...run, count: 1 }])[0],
				count: run.count,
			})),
		);
		expect(runsOfBlocks(layout, blocks)).toEqual(RUNS);
		expect([...expandBlocks(blocks)]).toEqual(formatRuns(layout, 7, RUNS));
	});

	it("the largest ID of a layout, and a block of its tick's last sequence", () => {
		const last = { tick: layout.tickLimit - 1, firstSequence: layout.maxSequence, count: 1 };
		const blocks = blocksOfRuns(layout, layout.maxWorkerId, [last]);
		expect(blocks).toEqual([{ first: String(2n ** 63n - 1n), count: 1 }]);
		expect(runsOfBlocks(layout, blocks)).toEqual([last]);
	});

	it.each([
		{ first: "", count: 1 },
		{ first: "x12", count: 1 },
		{ first: "12x", count: 1 },
		{ first: "-12", count: 1 },
		{ first: "123456789012345678901", count: 1 }, // 21 digits
		{ first: "12", count: 0 },
		{ first: "12", count: -1 },
		{ first: "12", count: 1.5 },
		{ first: "12", count: Number.NaN },
	])("refuses the block %o with invalid_id, naming it", (block) => {
		expect(() => runsOfBlocks(layout, [block])).toThrow(
			expect.objectContaining({
				code: "invalid_id",
				message: `invalid_id: a block needs a decimal "first" and a positive count; got ${JSON.stringify(block)}`,
			}),
		);
	});

	it("refuses a block that crosses a tick, and takes the one that ends at its last sequence", () => {
		const [first] = blocksOfRuns(layout, 7, [{ tick: 5, firstSequence: 4_094, count: 1 }]);
		const id = first?.first as string;
		expect(runsOfBlocks(layout, [{ first: id, count: 2 }])).toEqual([
			{ tick: 5, firstSequence: 4_094, count: 2 },
		]);
		expect(() => runsOfBlocks(layout, [{ first: id, count: 3 }])).toThrow(
			expect.objectContaining({
				code: "invalid_id",
				message: `invalid_id: block ${id} (+3) crosses a tick`,
			}),
		);
	});
});
