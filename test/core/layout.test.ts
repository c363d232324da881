import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdError } from "../../src/ids/errors";
import { formatRuns } from "../../src/ids/snowflake/generator";
import {
	MAX_DATE_MS,
	SnowflakeLayout,
	splitTwitterWorkerId,
	TWITTER_LAYOUT,
} from "../../src/ids/snowflake/layout";

const twitter = new SnowflakeLayout(TWITTER_LAYOUT);

/** Any valid layout: the three fields sum to 63 within each field's bounds. */
const layoutArb = fc
	.record({
		workerBits: fc.integer({ min: 0, max: 30 }),
		sequenceBits: fc.integer({ min: 1, max: 30 }),
		timeUnitMs: fc.constantFrom(1, 10, 1000),
		epoch: fc.integer({ min: 0, max: 1_800_000_000_000 }),
	})
	.map((c) => ({ ...c, timeBits: 63 - c.workerBits - c.sequenceBits }))
	.filter((c) => c.epoch + 2 ** c.timeBits * c.timeUnitMs <= MAX_DATE_MS)
	.map((c) => new SnowflakeLayout(c));

const fieldsArb = (layout: SnowflakeLayout) =>
	fc.record({
		tick: fc.integer({ min: 0, max: Math.min(layout.tickLimit - 1, Number.MAX_SAFE_INTEGER) }),
		workerId: fc.integer({ min: 0, max: layout.maxWorkerId }),
		sequence: fc.integer({ min: 0, max: layout.maxSequence }),
	});

describe("SnowflakeLayout", () => {
	it("decodes Twitter's worked example", () => {
		const fields = twitter.decompose(910499571847892992n);
		expect(twitter.msOf(fields.tick)).toBe(1505914988849);
		expect(fields.sequence).toBe(0);
		expect(splitTwitterWorkerId(fields.workerId)).toEqual({ datacenterId: 17, machineId: 25 });
		expect(twitter.compose(fields)).toBe(910499571847892992n);
	});

	it("derives limits and the exhaustion instant", () => {
		expect(twitter.maxWorkerId).toBe(1023);
		expect(twitter.maxSequence).toBe(4095);
		expect(twitter.exhaustsAt).toBe(1288834974657 + 2 ** 41);
		expect(twitter.toJSON().exhaustsAt).toBe("2080-07-10T17:30:30.209Z");
		expect(twitter.hasDatacenterSplit).toBe(true);
	});

	it.each([
		[{ timeBits: 40 }, /must be 63/],
		[{ sequenceBits: 0, timeBits: 52 }, /sequenceBits must be an integer in \[1, 30\]/],
		[{ workerBits: 31, timeBits: 20 }, /workerBits must be an integer in \[0, 30\]/],
		[{ timeUnitMs: 0.5 }, /timeUnitMs must be an integer/],
		[{ epoch: -1 }, /epoch must be an integer/],
		[{ timeBits: 53, workerBits: 0, sequenceBits: 10 }, /timeBits must be an integer in \[1, 52\]/],
		[
			{ timeBits: 52, workerBits: 0, sequenceBits: 11, timeUnitMs: 1000 },
			/at most 42 time bits fit/,
		],
		[
			{ timeBits: 41, workerBits: 10, sequenceBits: 12, epoch: 8_639_999_999_999_999 },
			/no time bits fit: choose an earlier epoch/,
		],
	])("rejects %o with invalid_config", (change, message) => {
		const attempt = () => new SnowflakeLayout({ ...TWITTER_LAYOUT, ...change });
		expect(attempt).toThrow(IdError);
		expect(attempt).toThrow(expect.objectContaining({ code: "invalid_config" }));
		expect(attempt).toThrow(message);
	});

	it.each([
		{ epoch: TWITTER_LAYOUT.epoch + 1 },
		{ timeBits: 40, workerBits: 11 },
		{ workerBits: 11, sequenceBits: 11 },
		{ workerBits: 9, sequenceBits: 13 },
		{ timeUnitMs: 2 },
	])("splits datacenters only under Twitter's own layout, not under %o", (change) => {
		expect(new SnowflakeLayout({ ...TWITTER_LAYOUT, ...change }).hasDatacenterSplit).toBe(false);
	});

	it("says the sum it got when the widths do not make 63", () => {
		expect(() => new SnowflakeLayout({ ...TWITTER_LAYOUT, timeBits: 40 })).toThrow(
			expect.objectContaining({
				detail:
					"timeBits + workerBits + sequenceBits must be 63 (the sign bit makes 64), got 40 + 10 + 12 = 62",
			}),
		);
	});

	it("with two ticks left before year 275760, says one time bit fits", () => {
		const layout = { timeBits: 3, workerBits: 30, sequenceBits: 30, timeUnitMs: 1 };
		expect(() => new SnowflakeLayout({ ...layout, epoch: 8_639_999_999_999_998 })).toThrow(
			/this layout ends at 8640000000000006\. With this epoch and a 1 ms tick at most 1 time bits fit/,
		);
		expect(() => new SnowflakeLayout({ ...layout, epoch: 8_639_999_999_999_999 })).toThrow(
			/no time bits fit: choose an earlier epoch or a shorter tick$/,
		);
		// Ending exactly at the last millisecond a Date holds is allowed.
		expect(new SnowflakeLayout({ ...layout, epoch: 8_640_000_000_000_000 - 8 }).exhaustsAt).toBe(
			8_640_000_000_000_000,
		);
	});

	it("composes and decomposes any fields of any layout exactly", () => {
		fc.assert(
			fc.property(
				layoutArb.chain((layout) => fc.tuple(fc.constant(layout), fieldsArb(layout))),
				([layout, fields]) => {
					const id = layout.compose(fields);
					expect(id >= 0n && id < 2n ** 63n).toBe(true);
					expect(layout.decompose(id)).toEqual(fields);
				},
			),
		);
	});

	it("formats runs exactly as BigInt's decimal strings", () => {
		fc.assert(
			fc.property(
				layoutArb.chain((layout) =>
					fc.tuple(fc.constant(layout), fieldsArb(layout), fc.integer({ min: 1, max: 50 })),
				),
				([layout, { tick, workerId, sequence }, wanted]) => {
					const count = Math.min(wanted, layout.maxSequence - sequence + 1);
					const ids = formatRuns(layout, workerId, [{ tick, firstSequence: sequence, count }]);
					const expected = Array.from({ length: count }, (_, k) =>
						layout.compose({ tick, workerId, sequence: sequence + k }).toString(),
					);
					expect(ids).toEqual(expected);
				},
			),
		);
	});

	it("formats across a carry of the low decimal part", () => {
		// base % 10^9 close to 10^9, so adding the sequence carries into the high part.
		const layout = new SnowflakeLayout({ ...TWITTER_LAYOUT, epoch: 0 });
		let tick = 1;
		while (
			Number(layout.compose({ tick, workerId: 0, sequence: 0 }) % 1_000_000_000n) < 999_997_000
		)
			tick++;
		const ids = formatRuns(layout, 0, [{ tick, firstSequence: 0, count: 4096 }]);
		ids.forEach((id, s) => {
			expect(id).toBe(layout.compose({ tick, workerId: 0, sequence: s }).toString());
		});
	});

	it("formats several runs of any layout, across thousands and ticks, as BigInt does", () => {
		// Runs longer than 1,000 IDs cross the formatter's head boundary; runs of one
		// tick that come back after another tick must not reuse a stale split.
		const runsArb = (layout: SnowflakeLayout) =>
			fc.array(
				fc
					.record({
						tick: fc.integer({ min: 0, max: Math.min(layout.tickLimit - 1, 2 ** 53 - 1) }),
						firstSequence: fc.integer({ min: 0, max: layout.maxSequence }),
						count: fc.integer({ min: 1, max: 3_000 }),
					})
					.map((run) => ({
						...run,
						count: Math.min(run.count, layout.maxSequence - run.firstSequence + 1),
					})),
				{ minLength: 1, maxLength: 4 },
			);
		fc.assert(
			fc.property(
				layoutArb.chain((layout) =>
					fc.tuple(
						fc.constant(layout),
						fc.integer({ min: 0, max: layout.maxWorkerId }),
						runsArb(layout),
					),
				),
				([layout, workerId, runs]) => {
					const runsTwice = [...runs, ...runs];
					const expected = runsTwice.flatMap((run) =>
						Array.from({ length: run.count }, (_, k) =>
							layout
								.compose({ tick: run.tick, workerId, sequence: run.firstSequence + k })
								.toString(),
						),
					);
					expect(formatRuns(layout, workerId, runsTwice)).toEqual(expected);
				},
			),
			{ numRuns: 60 },
		);
	});

	it("formats the top of the 63-bit range and IDs below 1,000", () => {
		const layout = new SnowflakeLayout({ ...TWITTER_LAYOUT, epoch: 0 });
		const last = layout.tickLimit - 1; // IDs above 2^53 × 1000: the head needs more than a double
		const top = formatRuns(layout, 1023, [{ tick: last, firstSequence: 4000, count: 96 }]);
		expect(top.at(-1)).toBe((2n ** 63n - 1n).toString());
		top.forEach((id, k) => {
			expect(id).toBe(
				layout.compose({ tick: last, workerId: 1023, sequence: 4000 + k }).toString(),
			);
		});
		const bottom = formatRuns(layout, 0, [{ tick: 0, firstSequence: 0, count: 1_200 }]);
		expect(bottom.slice(0, 3)).toEqual(["0", "1", "2"]);
		expect(bottom.slice(998, 1_001)).toEqual(["998", "999", "1000"]);
		expect(bottom.at(-1)).toBe("1199");
	});
});
