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

	it("finds spans of two leases of one worker ID that overlap, and IDs inside what another lease issued through", () => {
		const ledger = ledgerOf(
			["L 900 100 200", "R 900 100 0 1", "R 900 180 0 1"],
			// Overlaps the span above; its ID repeats none, but lies between two of p0's.
			["L 900 150 250", "R 900 160 7 1"],
		);
		expect(ledger.report).toMatchObject({ overlappingSpans: 1, repeats: 1 });
		expect(ledger.clean()).toBe(false);
		// A renewal that stretches a span over the next lease's is found too (seen in either order).
		const stretched = ledgerOf(["L 900 250 300"], ["L 900 100 200", "L 900 100 260"]);
		expect(stretched.report.overlappingSpans).toBe(1);
	});

	it("holds one interval per lease however many ticks it issues in, and counts re-leases", () => {
		const ledger = new HolderLedger();
		const lines = [HEADER, "L 900 1000 100000"];
		// A run per tick, each starting at a random sequence: gaps a set of IDs would keep.
		for (let tick = 1000; tick < 100_000; tick += 3) lines.push(`R 900 ${tick} ${tick % 7} 100`);
		ledger.add("p0", lines.join("\n"));
		ledger.add("p1", [HEADER, "L 900 100000 100500", "R 900 100001 0 5", "L 901 5 9"].join("\n"));
		expect(ledger.clean()).toBe(true);
		expect(ledger.report).toMatchObject({ ids: 3_300_005, leases: 3, reLeases: 1, intervals: 2 });
		expect(ledger.leasesOf(900)).toBe(2);
	});

	it("reads output in chunks cut anywhere; a last line cut short counts only when the process was not killed", () => {
		const text = [HEADER, "L 900 100 200", "T -3600000", "R 900 100 0 10", "R 900 101 0 5"].join(
			"\n",
		);
		const ledger = new HolderLedger();
		const output = ledger.open("p0");
		for (let at = 0; at < text.length; at += 7) output.write(text.slice(at, at + 7));
		output.end(true);
		expect(ledger.report).toMatchObject({ ids: 10, torn: 1, malformed: 0 });
		const notKilled = new HolderLedger();
		const whole = notKilled.open("p0");
		whole.write(`${text}\n`);
		whole.write("R 900 10");
		whole.end(false);
		expect(notKilled.report).toMatchObject({ ids: 15, torn: 0, malformed: 1 });
	});

	it("reports the wall clocks the holders ran with, and their steps back", () => {
		const ledger = ledgerOf(
			["L 900 100 200", "T 3600000", "L 900 100 300", "T 1800004", "L 900 100 400", "T 1800900"],
			["L 901 100 200", "T -3600100"],
		);
		expect(ledger.report).toMatchObject({
			wallClockMinMs: -3_600_100,
			wallClockMaxMs: 3_600_000,
			wallClockStepsBack: 1,
		});
	});

	it("refuses malformed lines and runs before the header", () => {
		const ledger = new HolderLedger();
		ledger.add("p", ["R 900 1 0 1", HEADER, "R 900 x 0 1", "Q 1"].join("\n"));
		expect(ledger.report.malformed).toBe(3);
	});

	it("names the process granted a lease, and counts each process's IDs and refusals", () => {
		const ledger = ledgerOf(
			["L 900 100 200", "R 900 100 0 10", "X lease_expired", "X lease_expired"],
			["L 900 300 400", "R 900 300 0 3"],
		);
		expect(ledger.ownerOf(900, 100)).toBe("p0");
		expect(ledger.ownerOf(900, 300)).toBe("p1");
		expect(ledger.ownerOf(900, 200)).toBeUndefined();
		const output = new HolderLedger().open("p");
		output.write(`${HEADER}\nL 900 1 9\nR 900 1 0 4\nR 900 2 0 2\nX lease_expired\n`);
		expect({ ids: output.ids, refused: output.refused }).toEqual({
			ids: 6,
			refused: { lease_expired: 1 },
		});
	});

	it("counts a wall clock's step back only past the threshold it was made with", () => {
		const lines = [
			"L 900 100 200",
			"T 3600000",
			"L 900 100 300",
			"T 3590000",
			"L 900 100 400",
			"T 1790000",
		];
		const ledger = new HolderLedger(900_000);
		ledger.add("p0", [HEADER, ...lines].join("\n"));
		expect(ledger.report.wallClockStepsBack).toBe(1);
		expect(ledgerOf(lines).report.wallClockStepsBack).toBe(2);
	});
});
