/** The sequence chaos run's ledger (scripts/load/sequence-ledger.ts) fails a run when it should. */
import { describe, expect, it } from "vitest";
import { type AnsweredCall, SequenceLedger } from "../../scripts/load/sequence-ledger";

const ledger = () =>
	new SequenceLedger(
		[
			{ name: "orders", mode: "ordered" },
			{ name: "clicks", mode: "pooled" },
		],
		{ poolMaxAgeMs: 1000, slackMs: 0 },
	);
const sequencesFrom = (start: number) =>
	new SequenceLedger([{ name: "orders", mode: "ordered", start }], { poolMaxAgeMs: 1000 });
const call = (over: Partial<AnsweredCall>): AnsweredCall => ({
	name: "orders",
	via: "http-next",
	startMs: 0,
	endMs: 1,
	first: 1,
	count: 1,
	period: null,
	...over,
});

describe("the sequence chaos ledger", () => {
	it("passes answers, drops, lost calls and buffers that add up", () => {
		const book = ledger();
		book.answered(call({ first: 1, count: 2, startMs: 0, endMs: 10 }));
		book.answered(call({ first: 5, count: 1, startMs: 5, endMs: 8 })); // concurrent: either order
		book.dropped("orders", 3, 1, null);
		book.unknown("orders", 3); // up to 3 numbers lost: 4 was one
		book.answered(call({ via: "buffer-reserve", first: 6, count: 10, startMs: 20, endMs: 21 }));
		book.bufferReserved("b", 6, 15, null);
		book.bufferHanded("b", 6, 2, null);
		book.bufferHanded("b", 8, 3, null);
		book.checkOrder();
		book.account("orders", { issued: "15", requests: 5 }, 4096);
		expect(book.bufferUnused()).toBe(5);
		expect(book.report).toMatchObject({
			violations: 0,
			numbers: 14,
			droppedNumbers: 1,
			unknownNumbers: 3,
			orderChecks: 1,
			bufferHanded: 5,
		});
		expect(book.report.accounts[0]).toMatchObject({
			issued: 15,
			known: 14,
			remainder: 1,
			bound: 3,
		});
	});

	it("fails a number given twice in a period, a dropped answer's included; not across periods", () => {
		const book = ledger();
		book.answered(call({ first: 1, count: 5, period: "2026-11-27" }));
		book.answered(call({ first: 1, count: 5, period: "2026-11-28", startMs: 2, endMs: 3 }));
		book.dropped("orders", 5, 2, "2026-11-28");
		expect(book.report.duplicates).toBe(1);
		expect(book.report.firstViolations[0]).toMatch(/orders \(2026-11-28\): 1 of 5\.\.6/);
	});

	it("fails an ordered call below one that ended before it began, and a period going back", () => {
		const book = ledger();
		book.answered(call({ first: 10, count: 1, startMs: 0, endMs: 5 }));
		book.answered(call({ first: 9, count: 1, startMs: 4, endMs: 7 })); // overlaps: fine
		book.answered(call({ first: 8, count: 1, startMs: 6, endMs: 9 })); // after 10 ended: not
		book.answered(call({ first: 20, count: 1, startMs: 10, endMs: 11, period: "2026-11-28" }));
		book.answered(call({ first: 30, count: 1, startMs: 12, endMs: 13, period: "2026-11-27" }));
		book.checkOrder();
		expect(book.report).toMatchObject({ outOfOrder: 1, periodBack: 1 });
		expect(book.report.firstViolations[1]).toMatch(
			/orders: 30\.\.30 \(2026-11-27\) began 1\.0 ms after a call of 2026-11-28 ended: the period went back/,
		);
	});

	it("holds a call that began after another ended to a period no earlier, across overlaps", () => {
		const book = ledger();
		book.answered(call({ first: 7, count: 1, startMs: 0, endMs: 10, period: "2026-11-27" }));
		book.answered(call({ first: 1, count: 1, startMs: 5, endMs: 6, period: "2026-11-28" }));
		book.answered(call({ first: 8, count: 1, startMs: 7, endMs: 8, period: "2026-11-27" })); // 1 of 28th ended at 6
		book.answered(call({ first: 2, count: 1, startMs: 11, endMs: 12, period: "2026-11-28" }));
		book.checkOrder();
		expect(book.report).toMatchObject({ periodBack: 1, outOfOrder: 0, violations: 1 });
	});

	it("lists each period with its numbers and first number; each starts again at start", () => {
		const book = sequencesFrom(1);
		book.answered(call({ first: 1, count: 40, period: "2026-11-27" }));
		book.answered(call({ first: 41, count: 10, period: "2026-11-27", startMs: 2, endMs: 3 }));
		book.dropped("orders", 1, 5, "2026-11-28");
		book.answered(call({ first: 6, count: 3, period: "2026-11-28", startMs: 4, endMs: 5 }));
		book.account("orders", { issued: "58", requests: 4 }, 4096);
		expect(book.report.violations).toBe(0);
		expect(book.report.periods).toMatchObject([
			{ name: "orders", period: "2026-11-27", numbers: 50, first: 1 },
			{ name: "orders", period: "2026-11-28", numbers: 8, first: 1, note: "1 in a dropped answer" },
		]);
		expect(book.report.periods[0]).not.toHaveProperty("note");
	});

	it("fails a period that does not start at start, unless lost calls could hold the numbers below", () => {
		const book = sequencesFrom(1);
		book.answered(call({ first: 1, count: 9, period: "2026-11-27" }));
		book.answered(call({ first: 2, count: 9, period: "2026-11-28", startMs: 2, endMs: 3 }));
		book.account("orders", { issued: "18", requests: 2 }, 4096);
		expect(book.report).toMatchObject({ periodStart: 1, violations: 1 });
		expect(book.report.firstViolations[0]).toBe(
			"orders (2026-11-28): starts at 2, not at 1; calls lost as it began hold at most 0",
		);

		// Calls with an unknown outcome explain the missing start only if the service could
		// have served them as the period began: after the 27th's last call began (at 20),
		// before the 28th's first answer ended (at 31).
		const lostAround = (when: { startMs: number; lostMs: number }) => {
			const lost = sequencesFrom(1);
			lost.answered(call({ first: 1, count: 9, period: "2026-11-27", startMs: 20, endMs: 21 }));
			lost.answered(call({ first: 3, count: 9, period: "2026-11-28", startMs: 30, endMs: 31 }));
			lost.unknown("orders", 2, when); // held 1..2 of the 28th, if in time
			lost.account("orders", { issued: "20", requests: 3 }, 4096);
			return lost.report;
		};
		expect(lostAround({ startMs: 25, lostMs: 40 })).toMatchObject({ violations: 0 });
		expect(lostAround({ startMs: 25, lostMs: 40 }).periods[1]?.note).toBe(
			"1..2 not seen: calls lost as the period began hold up to 2",
		);
		expect(lostAround({ startMs: 5, lostMs: 19 })).toMatchObject({ periodStart: 1 }); // lost before
		expect(lostAround({ startMs: 32, lostMs: 40 })).toMatchObject({ periodStart: 1 }); // began after

		const below = sequencesFrom(10);
		below.answered(call({ first: 9, count: 2, period: "2026-11-28" }));
		below.account("orders", { issued: "2", requests: 1 }, 4096);
		expect(below.report.firstViolations).toEqual([
			"orders (2026-11-28): holds 9, below its start 10",
		]);
	});

	it("holds pooled numbers to order only POOL_MAX_AGE_MS after another call ended", () => {
		const book = ledger();
		const pooled = (first: number, startMs: number) =>
			book.answered(call({ name: "clicks", first, startMs, endMs: startMs + 1 }));
		pooled(100, 0);
		pooled(50, 500); // another isolate's segment: allowed
		pooled(60, 1002); // 1,001 ms after 100 was handed out: must be larger
		book.checkOrder();
		expect(book.report.outOfOrder).toBe(1);
	});

	it("fails numbers the service issued that nothing explains, or more seen than issued", () => {
		const book = ledger();
		book.answered(call({ first: 1, count: 10 }));
		book.unknown("orders", 2);
		book.account("orders", { issued: "13", requests: 2 }, 4096);
		book.answered(call({ name: "clicks", first: 1, count: 10 }));
		book.account("clicks", { issued: "9", requests: 1 }, 4096);
		expect(book.report.unaccounted).toBe(2);
		const pooled = ledger();
		pooled.answered(call({ name: "clicks", first: 1, count: 10 }));
		pooled.account("clicks", { issued: "4106", requests: 1 }, 4096); // one unused segment
		expect(pooled.report.violations).toBe(0);
	});

	it("fails a buffer handing out numbers outside its ranges, twice or going back", () => {
		const book = ledger();
		book.bufferReserved("b", 1, 10, null);
		book.bufferHanded("b", 5, 2, null);
		book.bufferHanded("b", 9, 3, null); // 11 is not its own
		book.bufferHanded("b", 5, 1, null); // again, and below
		expect(book.report).toMatchObject({ bufferOutside: 1, duplicates: 1, bufferOutOfOrder: 1 });
	});
});
