/**
 * The ends of a /range window read exactly. An ID of millisecond m is in [from, to)
 * exactly when ⌈from⌉ ≤ m < ⌈to⌉, so a fraction beyond the millisecond (Python's
 * isoformat, Java and Postgres write microseconds or nanoseconds) rounds up, and a
 * date the calendar does not have is refused rather than rolled over.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TypeIdFactory } from "../../src/ids/forms/typeid";
import { UlidFactory } from "../../src/ids/forms/ulid";
import { UuidV7Factory } from "../../src/ids/forms/uuidv7";
import { type BoundsKind, idBounds, readTime } from "../../src/ids/ranges/id-bounds";
import { snowflakeToBase32 } from "../../src/ids/snowflake/base32";
import { type LayoutConfig, SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";
import { FrozenClock } from "../shared/fake-clock";
import { generator } from "./snowflake-setup";

const NOV_1 = Date.UTC(2026, 10, 1);

describe("sub-millisecond fractions", () => {
	it("round up to the next millisecond, never down", () => {
		expect(readTime("to", "2026-11-01T00:00:01.000500+00:00")).toBe(NOV_1 + 1001);
		expect(readTime("from", "2026-11-01T00:00:00.999500+00:00")).toBe(NOV_1 + 1000);
		expect(readTime("from", "2026-11-01T00:00:00.000000001Z")).toBe(NOV_1 + 1);
		expect(readTime("from", "2026-10-31T23:59:59.999999999Z")).toBe(NOV_1);
		expect(readTime("from", "2026-11-01T02:00:00.0001+02:00")).toBe(NOV_1 + 1);
		expect(readTime("from", "2026-10-31T19:30:00.1234-04:30")).toBe(NOV_1 + 124);
	});

	it("an exact millisecond stays as written, whatever the number of digits", () => {
		for (const fraction of ["", ".5", ".50", ".500", ".5000", ".500000", ".500000000"]) {
			const ms = fraction === "" ? 0 : 500;
			expect(readTime("from", `2026-11-01T00:00:00${fraction}Z`)).toBe(NOV_1 + ms);
		}
	});

	it("the window of the issue's example holds exactly one millisecond, for every kind", () => {
		const from = "2026-11-01T00:00:00.999500+00:00";
		const to = "2026-11-01T00:00:01.000500+00:00";
		for (const kind of ["ulid", "uuidv7", "typeid", "snowflake"] as const) {
			const layout = new SnowflakeLayout(TWITTER_LAYOUT);
			const bounds = idBounds({
				kind,
				from,
				to,
				layout: kind === "snowflake" ? layout : undefined,
			});
			expect([bounds.fromMs, bounds.toMs]).toEqual([NOV_1 + 1000, NOV_1 + 1001]);
		}
	});
});

describe("impossible dates and times", () => {
	it.each([
		["2026-02-30", "2026-02 has 28 days"],
		["2026-02-29", "2026-02 has 28 days"],
		["1900-02-29", "1900-02 has 28 days"],
		["2026-11-31", "2026-11 has 30 days"],
		["2026-11-00", "day 00"],
		["2026-13-01", "month 13"],
		["2026-00-10", "month 00"],
		["2026-11-01T25:00Z", "hour 25"],
		["2026-11-01T24:00:01Z", "24:00"],
		["2026-11-01T24:01Z", "24:00"],
		["2026-11-01T24:00:00.000001Z", "24:00"],
		["2026-11-01T12:60Z", "minute 60"],
		["2026-11-01T12:00:60Z", "second 60"],
		["2026-11-01T12:00+24:00", "offset +24:00"],
		["2026-11-01T12:00-01:60", "offset -01:60"],
	])("%s is invalid_range naming it and the accepted forms (%s)", (text, reason) => {
		expect(() => readTime("from", text)).toThrow(
			expect.objectContaining({
				code: "invalid_range",
				message: expect.stringMatching(
					new RegExp(
						`^invalid_range: from must be Unix milliseconds .*ISO 8601.*; got "${quoted(text)}" \\(.*${quoted(reason)}.*\\)$`,
					),
				),
			}),
		);
	});

	it("reads what the calendar has: leap days, the end of a day as 24:00, early years, offsets", () => {
		expect(readTime("from", "2024-02-29")).toBe(Date.UTC(2024, 1, 29));
		expect(readTime("from", "2000-02-29T00:00Z")).toBe(Date.UTC(2000, 1, 29));
		expect(readTime("from", "2026-11-01T24:00Z")).toBe(NOV_1 + 86_400_000);
		expect(readTime("from", "2026-10-31T24:00:00.000000Z")).toBe(NOV_1);
		expect(readTime("from", "2026-11-01t01:00:00z")).toBe(NOV_1 + 3_600_000);
		expect(readTime("from", "2026-11-01T00:00:00-00:00")).toBe(NOV_1);
		expect(readTime("from", "2026-11-01T23:59+23:59")).toBe(NOV_1);
		expect(readTime("from", "2026-10-31T00:01-23:59")).toBe(NOV_1);
		// Every month's last day, in a leap year and in a common one.
		for (const year of [2024, 2026]) {
			for (let month = 1; month <= 12; month++) {
				const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
				const text = `${year}-${String(month).padStart(2, "0")}-${last}T23:59:59.999Z`;
				expect(readTime("from", text)).toBe(Date.UTC(year, month - 1, last, 23, 59, 59, 999));
			}
		}
		// Date.UTC would read year 50 as 1950.
		expect(readTime("from", "0050-01-01")).toBe(new Date("0050-01-01T00:00:00Z").getTime());
	});

	it("a + written unencoded in a query string arrives as a space, and the refusal says so", () => {
		expect(() => readTime("from", "2026-11-01T01:00:00 01:00")).toThrow(
			expect.objectContaining({ code: "invalid_range", message: expect.stringContaining("%2B") }),
		);
	});
});

function quoted(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** An instant to the nanosecond: a Unix millisecond and the nanoseconds past it. */
interface Instant {
	ms: number;
	ns: number;
}

const ceilMs = (instant: Instant) => instant.ms + (instant.ns > 0 ? 1 : 0);

/** `instant` as ISO 8601 with `digits` fraction digits (it must be exact in them) at `offsetMin`. */
function isoText(instant: Instant, digits: number, offsetMin: number, zulu: boolean): string {
	const local = new Date(instant.ms + offsetMin * 60_000).toISOString().slice(0, 19);
	const nanos = String((instant.ms % 1000) * 1_000_000 + instant.ns).padStart(9, "0");
	const fraction = digits === 0 ? "" : `.${nanos.slice(0, digits)}`;
	if (offsetMin === 0 && zulu) return `${local}${fraction}Z`;
	const sign = offsetMin < 0 ? "-" : "+";
	const abs = Math.abs(offsetMin);
	const zone = `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
	return `${local}${fraction}${zone}`;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** Nanoseconds past a millisecond: at an edge (0, 1, 999,999) or the middle half the time. */
const nanos = fc.oneof(
	fc.constantFrom(0, 1, 500_000, 999_999),
	fc.integer({ min: 0, max: 999_999 }),
);
/** How an instant is written: 0-9 fraction digits, at an offset (or Z). */
const writing = fc.record({
	digits: fc.integer({ min: 0, max: 9 }),
	offsetMin: fc.oneof(fc.constant(0), fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 })),
	zulu: fc.boolean(),
});

/** The instant `ms` + `ns` cut to what the writing's digits can say, and its text. */
function written(
	ms: number,
	ns: number,
	how: { digits: number; offsetMin: number; zulu: boolean },
) {
	const step = 10 ** (9 - how.digits);
	const fraction = Math.floor(((ms % 1000) * 1_000_000 + ns) / step) * step;
	const instant = {
		ms: ms - (ms % 1000) + Math.floor(fraction / 1_000_000),
		ns: fraction % 1_000_000,
	};
	return { instant, text: isoText(instant, how.digits, how.offsetMin, how.zulu) };
}

/** A window whose ends have sub-millisecond fractions, each at its own offset. */
function subMsWindow(unit: number) {
	const base = 1_790_000_000_000;
	return fc
		.record({
			fromMs: fc.integer({ min: base, max: base + 10 * unit }),
			fromNs: nanos,
			fromWriting: writing,
			lengthMs: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 6 * unit })),
			toNs: nanos,
			toWriting: writing,
			extra: fc.array(fc.integer({ min: -3 * unit, max: 8 * unit }), { maxLength: 6 }),
		})
		.map((r) => ({
			from: written(r.fromMs, r.fromNs, r.fromWriting),
			to: written(r.fromMs + r.lengthMs, r.toNs, r.toWriting),
			extra: r.extra,
		}));
}

/** The millisecond readings to make IDs at: both edges, one either side, and a few more. */
function readingsOf(first: number, end: number, extra: number[]): number[] {
	const readings = [first - 1, first, end - 1, end, ...extra.map((offset) => first + offset)];
	return [...new Set(readings)].sort((a, b) => a - b);
}

const RUNS = 300;

describe("every kind, windows with sub-millisecond edges at random offsets", () => {
	const msKinds = {
		ulid: () => new UlidFactory(),
		uuidv7: () => new UuidV7Factory(),
		typeid: () => new TypeIdFactory("order"),
	};
	for (const [kind, make] of Object.entries(msKinds) as [BoundsKind, () => UlidFactory][]) {
		it(`${kind}: an ID is in [min, max] exactly when ⌈from⌉ ≤ its millisecond < ⌈to⌉`, () => {
			fc.assert(
				fc.property(subMsWindow(1), ({ from, to, extra }) => {
					const first = ceilMs(from.instant);
					const end = ceilMs(to.instant);
					const read = () =>
						idBounds({
							kind,
							from: from.text,
							to: to.text,
							prefix: kind === "typeid" ? "order" : undefined,
						});
					if (first >= end) {
						expect(read).toThrow(expect.objectContaining({ code: "invalid_range" }));
						return;
					}
					const { min, max, fromMs, toMs } = read();
					expect([fromMs, toMs]).toEqual([first, end]);
					const factory = make();
					for (const m of readingsOf(first, end, extra)) {
						const id = factory.next(m);
						expect(min <= id && id <= max, `${id} at ${m}`).toBe(m >= first && m < end);
					}
				}),
				{ numRuns: RUNS },
			);
		});
	}

	const layouts: Record<string, LayoutConfig> = {
		twitter: TWITTER_LAYOUT,
		"10 ms ticks": {
			epoch: 1_409_529_600_000,
			timeBits: 39,
			workerBits: 16,
			sequenceBits: 8,
			timeUnitMs: 10,
		},
	};
	for (const [name, config] of Object.entries(layouts)) {
		const layout = new SnowflakeLayout(config);
		for (const format of ["decimal", "base32"] as const) {
			it(`snowflake (${name}, ${format}): an ID is in [min, max] exactly when ⌈from⌉ ≤ its time < ⌈to⌉`, async () => {
				await fc.assert(
					fc.asyncProperty(
						subMsWindow(layout.timeUnitMs),
						fc.integer({ min: 0, max: layout.maxWorkerId }),
						fc.boolean(),
						async ({ from, to, extra }, workerId, narrow) => {
							const first = ceilMs(from.instant);
							const end = ceilMs(to.instant);
							const read = () =>
								idBounds({
									kind: "snowflake",
									from: from.text,
									to: to.text,
									layout,
									format,
									workerId: narrow ? workerId : undefined,
								});
							// A tick's time is when it starts: the window holds the ticks that start in it.
							const firstTickStart =
								layout.epoch +
								Math.ceil((first - layout.epoch) / layout.timeUnitMs) * layout.timeUnitMs;
							if (firstTickStart >= end) {
								expect(read).toThrow(expect.objectContaining({ code: "invalid_range" }));
								return;
							}
							const { min, max } = read();
							const clock = new FrozenClock(0);
							const { gen } = generator(clock, { layout, workerId });
							for (const m of readingsOf(first, end, extra)) {
								clock.time = m;
								const [text] = await gen.next(1);
								const id = BigInt(text as string);
								const time = layout.msOf(layout.decompose(id).tick);
								const isIn =
									format === "decimal"
										? BigInt(min) <= id && id <= BigInt(max)
										: min <= snowflakeToBase32(id) && snowflakeToBase32(id) <= max;
								expect(isIn, `${text} at ${m}`).toBe(time >= first && time < end);
							}
						},
					),
					{ numRuns: RUNS / 2 },
				);
			});
		}
	}
});
