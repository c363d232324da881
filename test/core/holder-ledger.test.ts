/** The ledger of lease holders' outputs (scripts/load/holder-ledger.ts) catches every violation it names. */
import { describe, expect, it } from "vitest";
import { HolderLedger } from "../../scripts/load/holder-ledger";

const HEADER = "# edge-ids holder layout=1288834974657,41,10,12,1 pid=1";

function ledgerOf(...outputs: string[][]) {
	const ledger = new HolderLedger();
	for (const [i, lines] of outputs.entries()) ledger.add(`p${i}`, [HEADER, ...lines].join("\n"));
	return ledger;
}

describe("HolderLedger", () => {
	it("counts the IDs of clean outputs, their leases and refusals", () => {
		const ledger = ledgerOf(
			[
				"L 900 100 200",
				"R 900 100 5 10",
				"R 900 150 0 4096",
				"X lease_expired",
				"L 900 100 260",
				"R 900 230 0 1",
			],
			["L 901 100 200", "R 901 100 0 10", "L 900 300 400", "R 900 300 0 1"],
		);
		expect(ledger.clean()).toBe(true);
		expect(ledger.report).toMatchObject({
			processes: 2,
			ids: 4_118,
			leases: 3,
			workerIds: 2,
			refused: { lease_expired: 1 },
		});
	});

	it("finds an ID issued twice across processes", () => {
		const ledger = ledgerOf(
			["L 900 100 200", "R 900 100 0 10"],
			["L 900 100 200", "R 900 100 9 2"],
		);
		expect(ledger.report).toMatchObject({ repeats: 1 });
		expect(ledger.clean()).toBe(false);
	});

	it("finds a run outside the process's spans, or before the span that covers it was granted", () => {
		const ledger = ledgerOf([
			"L 900 100 200",
			"R 900 200 0 1",
			"R 901 150 0 1",
			"R 900 250 0 1",
			"L 900 100 300",
		]);
		expect(ledger.report).toMatchObject({ outsideSpans: 3 });
	});

	it("finds a process whose IDs do not increase (another worker ID at the same tick counts by worker ID)", () => {
		const ledger = ledgerOf([
			"L 900 100 200",
			"L 899 100 200",
			"R 900 110 5 1",
			"R 900 110 5 1",
			"R 899 110 9 1",
		]);
		expect(ledger.report).toMatchObject({ notIncreasing: 2, repeats: 1 });
	});

	it("refuses malformed lines and runs before the header", () => {
		const ledger = new HolderLedger();
		ledger.add("p", ["R 900 1 0 1", HEADER, "R 900 x 0 1", "Q 1"].join("\n"));
		expect(ledger.report.malformed).toBe(3);
	});
});
