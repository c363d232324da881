/**
 * ID bounds of a time window: every ID made with a time in [from, to) lies in
 * [min, max], every ID just outside does not, and min and max are IDs of the window.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeId } from "../../src/ids/forms/decode";
import { TypeIdFactory } from "../../src/ids/forms/typeid";
import { UlidFactory } from "../../src/ids/forms/ulid";
import { UuidV7Factory } from "../../src/ids/forms/uuidv7";
import { type BoundsKind, idBounds, readTime } from "../../src/ids/ranges/id-bounds";
import { snowflakeToBase32 } from "../../src/ids/snowflake/base32";
import { SnowflakeGenerator } from "../../src/ids/snowflake/generator";
import { type LayoutConfig, SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";
import { FrozenClock } from "../shared/fake-clock";

const LAYOUTS: Record<string, LayoutConfig> = {
	twitter: TWITTER_LAYOUT,
	"sonyflake-like (10 ms ticks)": {
		epoch: 1409529600000,
		timeBits: 39,
		workerBits: 16,
		sequenceBits: 8,
		timeUnitMs: 10,
	},
	"uidgenerator-like (1 s ticks)": {
		epoch: 1463673600000,
		timeBits: 31,
		workerBits: 19,
		sequenceBits: 13,
		timeUnitMs: 1000,
	},
};

/** A window near now, its length from 1 ms to a few ticks, and clock readings around both ends. */
function windowAndReadings(unit: number) {
	return fc
		.record({
			from: fc.integer({ min: 1_700_000_000_000, max: 1_800_000_000_000 }),
			length: fc.integer({ min: 1, max: 5 * unit }),
			offsets: fc.array(fc.integer({ min: -3 * unit, max: 8 * unit }), {
				minLength: 1,
				maxLength: 20,
			}),
		})
		.map(({ from, length, offsets }) => ({
			from,
			to: from + length,
			readings: [...new Set(offsets.map((offset) => from + offset))].sort((a, b) => a - b),
		}));
}

const inside = (id: bigint, min: string, max: string) => BigInt(min) <= id && id <= BigInt(max);

describe("Snowflake bounds", () => {
	for (const [name, config] of Object.entries(LAYOUTS)) {
		const layout = new SnowflakeLayout(config);
		const unit = layout.timeUnitMs;

		it(`${name}: an ID lies in [min, max] exactly when its time is in [from, to)`, async () => {
			await fc.assert(
				fc.asyncProperty(
					windowAndReadings(unit),
					fc.integer({ min: 0, max: layout.maxWorkerId }),
					fc.boolean(),
					async ({ from, to, readings }, workerId, narrow) => {
						const clock = new FrozenClock(readings[0] as number);
						const gen = new SnowflakeGenerator({
							layout,
							workerId,
							clock,
							maxBackwardMs: 1000,
							leaseMs: 1000,
							persistMark: () => {},
						});
						let bounds: { min: string; max: string } | undefined;
						try {
							bounds = idBounds({
								kind: "snowflake",
								from,
								to,
								layout,
								workerId: narrow ? workerId : undefined,
							});
						} catch (error) {
							// Only a window in which no tick starts has no bounds.
							expect(error).toMatchObject({ code: "invalid_range" });
							expect(
								Math.ceil((from - layout.epoch) / unit) * unit + layout.epoch,
							).toBeGreaterThanOrEqual(to);
							return;
						}
						const { min, max } = bounds;
						// The bounds are IDs of the window themselves: none tighter holds them all.
						for (const bound of [min, max]) {
							const decoded = decodeId(bound, layout) as { timestamp: number; workerId: number };
							expect(decoded.timestamp >= from && decoded.timestamp < to).toBe(true);
							if (narrow) expect(decoded.workerId).toBe(workerId);
						}
						for (const reading of readings) {
							clock.time = Math.max(clock.time, reading);
							const [text] = await gen.next(1);
							const id = BigInt(text as string);
							const time = layout.msOf(layout.decompose(id).tick);
							expect(inside(id, min, max)).toBe(time >= from && time < to);
						}
					},
				),
				{ numRuns: 60 },
			);
		});
	}

	it("without a worker ID the bounds span every worker and sequence; with one, only its own", () => {
		const layout = new SnowflakeLayout({ ...TWITTER_LAYOUT, epoch: 0 });
		expect(idBounds({ kind: "snowflake", from: 10, to: 12, layout })).toMatchObject({
			min: String(10n << 22n),
			max: String((12n << 22n) - 1n),
		});
		expect(idBounds({ kind: "snowflake", from: 10, to: 12, layout, workerId: 7 })).toMatchObject({
			min: String((10n << 22n) | (7n << 12n)),
			max: String((11n << 22n) | (7n << 12n) | 4095n),
		});
	});

	it("a 10 ms tick: the window holds the ticks that start in it", () => {
		const layout = new SnowflakeLayout({
			epoch: 0,
			timeBits: 39,
			workerBits: 16,
			sequenceBits: 8,
			timeUnitMs: 10,
		});
		// [15, 35) holds the ticks starting at 20 and 30.
		expect(idBounds({ kind: "snowflake", from: 15, to: 35, layout })).toMatchObject({
			min: String(2n << 24n),
			max: String((4n << 24n) - 1n),
		});
		expect(() => idBounds({ kind: "snowflake", from: 21, to: 29, layout })).toThrow(
			expect.objectContaining({
				code: "invalid_range",
				message: expect.stringContaining("every 10 ms"),
			}),
		);
	});

	it("base32 and prefixed bounds, which sort as text", () => {
		const layout = new SnowflakeLayout({ ...TWITTER_LAYOUT, epoch: 0 });
		const decimal = idBounds({ kind: "snowflake", from: 10, to: 12, layout });
		expect(
			idBounds({ kind: "snowflake", from: 10, to: 12, layout, format: "base32" }),
		).toMatchObject({
			min: snowflakeToBase32(BigInt(decimal.min)),
			max: snowflakeToBase32(BigInt(decimal.max)),
		});
		expect(
			idBounds({ kind: "snowflake", from: 10, to: 12, layout, prefix: "order" }),
		).toMatchObject({
			min: `order_${snowflakeToBase32(BigInt(decimal.min))}`,
		});
	});

	it("a window is cut to the layout's range; one outside it, or reversed, is invalid_range", () => {
		const layout = new SnowflakeLayout(TWITTER_LAYOUT);
		const cut = idBounds({ kind: "snowflake", from: 0, to: layout.epoch + 1, layout });
		expect(cut.min).toBe("0");
		expect(cut.max).toBe(String((1n << 22n) - 1n));
		for (const [from, to] of [
			[0, layout.epoch],
			[layout.exhaustsAt, layout.exhaustsAt + 5],
			[layout.epoch + 5, layout.epoch + 5],
			[layout.epoch + 6, layout.epoch + 5],
		]) {
			expect(() =>
				idBounds({ kind: "snowflake", from: from as number, to: to as number, layout }),
			).toThrow(expect.objectContaining({ code: "invalid_range" }));
		}
		expect(() => idBounds({ kind: "snowflake", from: 5, to: 10, layout, workerId: 1024 })).toThrow(
			expect.objectContaining({ code: "invalid_worker_id" }),
		);
	});
});

describe("ULID, UUIDv7 and TypeID bounds", () => {
	const kinds = ["ulid", "uuidv7", "typeid"] as const;
	const makers = {
		ulid: () => new UlidFactory(),
		uuidv7: () => new UuidV7Factory(),
		typeid: () => new TypeIdFactory("order"),
	};
	for (const kind of kinds) {
		it(`${kind}: an ID lies in [min, max] (as text) exactly when its time is in [from, to)`, () => {
			fc.assert(
				fc.property(windowAndReadings(1), ({ from, to, readings }) => {
					const { min, max } = idBounds({
						kind,
						from,
						to,
						prefix: kind === "typeid" ? "order" : undefined,
					});
					for (const bound of [min, max]) {
						const decoded = decodeId(bound, new SnowflakeLayout(TWITTER_LAYOUT)) as {
							timestamp: number;
						};
						expect(decoded.timestamp >= from && decoded.timestamp < to).toBe(true);
					}
					const factory = makers[kind]();
					for (const reading of readings) {
						// Readings rise, so each ID carries exactly its reading's time.
						const id = factory.next(reading);
						expect(min <= id && id <= max).toBe(reading >= from && reading < to);
					}
				}),
			);
		});
	}

	it("the tightest bounds: the first and last IDs a millisecond can hold", () => {
		const from = Date.UTC(2026, 10, 1);
		const to = Date.UTC(2026, 10, 2);
		const ulid = idBounds({ kind: "ulid", from, to });
		expect(ulid.min).toMatch(/^[0-9A-Z]{10}0{16}$/);
		expect(ulid.max).toMatch(/^[0-9A-Z]{10}Z{16}$/);
		const uuid = idBounds({ kind: "uuidv7", from, to });
		expect(uuid.min).toBe(
			`${from
				.toString(16)
				.padStart(12, "0")
				.replace(/^(.{8})/, "$1-")}-7000-8000-000000000000`,
		);
		expect(uuid.max).toBe(
			`${(to - 1)
				.toString(16)
				.padStart(12, "0")
				.replace(/^(.{8})/, "$1-")}-7fff-bfff-ffffffffffff`,
		);
		expect(idBounds({ kind: "typeid", from, to }).min).toMatch(/^[0-7][0-9a-z]{25}$/);
	});

	it("options a kind does not take are refused", () => {
		expect(() => idBounds({ kind: "ulid", from: 1, to: 2, prefix: "x" })).toThrow(
			expect.objectContaining({ code: "invalid_prefix" }),
		);
		expect(() => idBounds({ kind: "typeid", from: 1, to: 2, prefix: "X" })).toThrow(
			expect.objectContaining({ code: "invalid_prefix" }),
		);
		expect(() => idBounds({ kind: "uuidv7", from: 1, to: 2, workerId: 3 })).toThrow(
			expect.objectContaining({ code: "invalid_worker_id" }),
		);
		expect(() => idBounds({ kind: "uuidv7", from: 1, to: 2, format: "base32" })).toThrow(
			expect.objectContaining({ code: "invalid_format" }),
		);
		expect(() => idBounds({ kind: "nope" as BoundsKind, from: 1, to: 2 })).toThrow(
			expect.objectContaining({ code: "invalid_range" }),
		);
		expect(() => idBounds({ kind: "ulid", from: 2 ** 48, to: 2 ** 48 + 1 })).toThrow(
			expect.objectContaining({ code: "invalid_range" }),
		);
	});
});

describe("times", () => {
	it("read Unix ms, ISO 8601 with a zone, dates, and Date objects", () => {
		expect(readTime("from", "1700000000000")).toBe(1_700_000_000_000);
		expect(readTime("from", 1_700_000_000_000)).toBe(1_700_000_000_000);
		expect(readTime("from", "2026-11-01")).toBe(Date.UTC(2026, 10, 1));
		expect(readTime("from", "2026-11-01T01:02:03.004Z")).toBe(Date.UTC(2026, 10, 1, 1, 2, 3, 4));
		expect(readTime("from", "2026-11-01T01:00:00+01:00")).toBe(Date.UTC(2026, 10, 1));
		expect(readTime("from", new Date(5))).toBe(5);
	});

	it("refuse times without a zone, fractions of a ms, and other text", () => {
		for (const bad of [
			"2026-11-01T00:00:00",
			"1.5",
			"-5",
			"yesterday",
			"",
			1.5,
			Number.NaN,
			"2026-13-01",
		]) {
			expect(() => readTime("from", bad)).toThrow(
				expect.objectContaining({ code: "invalid_range" }),
			);
		}
	});
});
