/** The decimal formatter and blocks never turn a run that does not fit the layout into IDs. */
import { describe, expect, it } from "vitest";
import { blocksOfRuns } from "../../src/ids/snowflake/blocks";
import { DecimalFormatter } from "../../src/ids/snowflake/decimal";
import { formatRuns } from "../../src/ids/snowflake/generator";
import { SnowflakeLayout } from "../../src/ids/snowflake/layout";
import { layout } from "./snowflake-setup";

// Runs an object under another layout (or a corrupt one) could send: each would
// carry into the worker field or past the time field if formatted.
const misfits = [
	{ tick: 1, firstSequence: 4095, count: 2 }, // the second ID's sequence is 4096: worker 8's
	{ tick: 1, firstSequence: 4096, count: 1 },
	{ tick: 1, firstSequence: -1, count: 1 },
	{ tick: -1, firstSequence: 0, count: 1 },
	{ tick: layout.tickLimit, firstSequence: 0, count: 1 },
	{ tick: 1, firstSequence: 0.5, count: 1 },
	{ tick: 1, firstSequence: 0, count: -1 },
];

describe("runs that do not fit the layout", () => {
	it.each(misfits)("formatRuns refuses %o with internal", (run) => {
		expect(() => formatRuns(layout, 7, [run])).toThrow(
			expect.objectContaining({ code: "internal" }),
		);
	});

	it.each(misfits)("blocksOfRuns refuses %o with internal", (run) => {
		expect(() => blocksOfRuns(layout, 7, [run])).toThrow(
			expect.objectContaining({ code: "internal" }),
		);
	});

	it("a run of a 10-sequence-bit layout's last sequences fits there but not under 12 bits' neighbour", () => {
		const narrow = new SnowflakeLayout({
			epoch: 0,
			timeBits: 41,
			workerBits: 12,
			sequenceBits: 10,
			timeUnitMs: 1,
		});
		const run = { tick: 5, firstSequence: 1000, count: 24 };
		expect(formatRuns(narrow, 7, [run])).toHaveLength(24);
		expect(() => formatRuns(narrow, 7, [{ ...run, count: 25 }])).toThrow("does not fit the layout");
	});

	it("the last sequence of a tick is formatted exactly", () => {
		const [id] = formatRuns(layout, 7, [{ tick: 1, firstSequence: 4095, count: 1 }]);
		expect(id).toBe(String((1n << 22n) | (7n << 12n) | 4095n));
	});
});

describe("DecimalFormatter", () => {
	it("writes IDs below 1,000 without padding, on every path (tick 0, worker ID 0)", () => {
		const formatter = new DecimalFormatter(layout, 0);
		expect(formatter.formatOne(0, 7)).toBe("7");
		expect(formatter.formatRun({ tick: 0, firstSequence: 998, count: 4 })).toEqual([
			"998",
			"999",
			"1000",
			"1001",
		]);
		expect(formatRuns(layout, 0, [{ tick: 0, firstSequence: 5, count: 1 }])).toEqual(["5"]);
	});

	it("formatRun refuses a run that does not fit, as formatRuns does", () => {
		const formatter = new DecimalFormatter(layout, 7);
		for (const run of misfits) {
			expect(() => formatter.formatRun(run)).toThrow(expect.objectContaining({ code: "internal" }));
		}
	});

	it("formats an empty run as no IDs", () => {
		expect(formatRuns(layout, 7, [{ tick: 3, firstSequence: 0, count: 0 }])).toEqual([]);
	});
});
