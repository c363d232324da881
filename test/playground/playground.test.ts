import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeId } from "../../src/ids/forms/decode";
import { DECODE_PRESETS, decodeForeign, PRESET_NAMES } from "../../src/ids/forms/foreign-layouts";
import { UlidFactory } from "../../src/ids/forms/ulid";
import { UuidV7Factory } from "../../src/ids/forms/uuidv7";
import { type LayoutConfig, SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";
import {
	type BitField,
	binary,
	bitsOf,
	fieldsOf,
	fieldValue,
	shownValue,
	widthOf,
	workerIdRange,
} from "../../src/playground/bits";
import {
	decodePath,
	generatePath,
	parseShownCount,
	rangePath,
	sequencePath,
} from "../../src/playground/requests";
import { toBase32, uuidOf } from "../core/oracle";

const SONYFLAKE_LIKE: LayoutConfig = {
	epoch: 1_409_529_600_000,
	timeBits: 39,
	workerBits: 16,
	sequenceBits: 8,
	timeUnitMs: 10,
};

/** Every bit position the fields cover, parts of a split field left out. */
function coverage(fields: BitField[]): number[] {
	const bits: number[] = [];
	for (const field of fields.filter((f) => !f.sub)) {
		for (const [hi, lo] of field.ranges) for (let i = hi; i >= lo; i--) bits.push(i);
	}
	return bits.sort((a, b) => b - a);
}

const byKey = (fields: BitField[], key: string) => {
	const field = fields.find((f) => f.key === key);
	if (!field) throw new Error(`no field ${key}`);
	return field;
};

describe("the playground's bit fields", () => {
	it("cover every bit of each kind exactly once", () => {
		const all = (width: number) => Array.from({ length: width }, (_, i) => width - 1 - i);
		for (const layout of [TWITTER_LAYOUT, SONYFLAKE_LIKE]) {
			expect(coverage(fieldsOf({ type: "snowflake", id: "0" }, layout))).toEqual(all(64));
		}
		for (const type of ["ulid", "uuidv7", "uuid"]) {
			expect(coverage(fieldsOf({ type, id: "" })), type).toEqual(all(128));
		}
	});

	it("read a Snowflake's time, worker and sequence as the core composes them", () => {
		for (const config of [TWITTER_LAYOUT, SONYFLAKE_LIKE]) {
			const layout = new SnowflakeLayout(config);
			fc.assert(
				fc.property(
					fc.integer({ min: 0, max: layout.tickLimit - 1 }),
					fc.integer({ min: 0, max: layout.maxWorkerId }),
					fc.integer({ min: 0, max: layout.maxSequence }),
					(tick, workerId, sequence) => {
						const id = layout.compose({ tick, workerId, sequence }).toString();
						const { value } = bitsOf({ type: "snowflake", id });
						const fields = fieldsOf({ type: "snowflake", id }, config);
						expect(fieldValue(value, byKey(fields, "sign").ranges)).toBe(0n);
						expect(fieldValue(value, byKey(fields, "time").ranges)).toBe(BigInt(tick));
						expect(fieldValue(value, byKey(fields, "worker").ranges)).toBe(BigInt(workerId));
						expect(fieldValue(value, byKey(fields, "sequence").ranges)).toBe(BigInt(sequence));
					},
				),
			);
		}
	});

	it("split a 10-bit worker ID into datacenter and machine as the decoder does", () => {
		const id = "910499571847892992";
		const decoded = decodeId(id, new SnowflakeLayout(TWITTER_LAYOUT));
		if (decoded.type !== "snowflake") throw new Error("not a Snowflake");
		const fields = fieldsOf({ type: "snowflake", id }, TWITTER_LAYOUT);
		const { value } = bitsOf({ type: "snowflake", id });
		expect(byKey(fields, "worker").split).toBe(true);
		expect(fieldValue(value, byKey(fields, "datacenter").ranges)).toBe(
			BigInt(decoded.datacenterId ?? -1),
		);
		expect(fieldValue(value, byKey(fields, "machine").ranges)).toBe(
			BigInt(decoded.machineId ?? -1),
		);
		// No split without 10 worker bits.
		expect(fieldsOf({ type: "snowflake", id }, SONYFLAKE_LIKE).some((f) => f.sub)).toBe(false);
	});

	it("cut another system's ID as the decoder reads it, under every preset", () => {
		for (const name of PRESET_NAMES) {
			const layout = DECODE_PRESETS[name];
			const total = layout.fields.reduce((sum, field) => sum + field.bits, layout.timeBits);
			const fields = fieldsOf({ type: "snowflake", id: "0" }, layout);
			expect(coverage(fields), name).toEqual(Array.from({ length: 64 }, (_, i) => 63 - i));
			fc.assert(
				fc.property(fc.bigInt({ min: 0n, max: 2n ** BigInt(total) - 1n }), (value) => {
					const decoded = decodeForeign(value.toString(), layout);
					const time = fieldValue(value, byKey(fields, "time").ranges);
					expect(layout.epoch + Number(time) * layout.timeUnitMs).toBe(decoded.timestamp);
					for (const field of layout.fields) {
						const shown = byKey(fields, field.name.replace(/Id$/, ""));
						expect(fieldValue(value, shown.ranges), `${name} ${field.name}`).toBe(
							BigInt(decoded[field.name] ?? -1),
						);
					}
				}),
			);
		}
		const discord = fieldsOf({ type: "snowflake", id: "0" }, DECODE_PRESETS.discord);
		expect(discord.map((f) => `${f.name} ${widthOf(f.ranges)}`)).toEqual([
			"Time 42",
			"Worker ID 5",
			"Process ID 5",
			"Increment 12",
		]);
	});

	it("shows the datacenter × machine split of worker IDs only under Twitter's layout", () => {
		expect(workerIdRange(TWITTER_LAYOUT)).toBe("0–1023 (datacenter 0–31 × machine 0–31)");
		// 10 worker bits, another epoch: no datacenters (the decoder says none either).
		expect(workerIdRange({ ...TWITTER_LAYOUT, epoch: 0 })).toBe("0–1023");
		expect(workerIdRange(SONYFLAKE_LIKE)).toBe(`0–${2 ** SONYFLAKE_LIKE.workerBits - 1}`);
	});

	it("read a ULID's time and randomness, in either case", () => {
		const ulid = new UlidFactory().next(1_700_000_000_123);
		for (const id of [ulid, ulid.toLowerCase()]) {
			const { width, value } = bitsOf({ type: "ulid", id });
			expect(width).toBe(128);
			expect(toBase32(value, 26)).toBe(ulid);
			expect(fieldValue(value, byKey(fieldsOf({ type: "ulid", id }), "time").ranges)).toBe(
				1_700_000_000_123n,
			);
		}
	});

	it("read the UUIDv7 counter where the core's generator puts it", () => {
		const factory = new UuidV7Factory(undefined, () => 2 ** 30 - 2); // about to carry into rand_a
		const ids = [0, 1, 2].map(() => factory.next(1_700_000_000_000));
		const counters = ids.map((id) => {
			const fields = fieldsOf({ type: "uuidv7", id });
			const { value } = bitsOf({ type: "uuidv7", id });
			expect(fieldValue(value, byKey(fields, "time").ranges)).toBe(1_700_000_000_000n);
			expect(fieldValue(value, byKey(fields, "version").ranges)).toBe(7n);
			expect(fieldValue(value, byKey(fields, "variant").ranges)).toBe(2n);
			return fieldValue(value, byKey(fields, "counter").ranges);
		});
		expect(counters).toEqual([2n ** 30n - 2n, 2n ** 30n - 1n, 2n ** 30n]);
	});

	it("show bits and values as the page prints them", () => {
		const value = BigInt(`0x${uuidOf(0xabcn << 64n).replaceAll("-", "")}`);
		expect(binary(value, [[75, 64]])).toBe("101010111100");
		expect(
			binary(value, [
				[67, 64],
				[3, 0],
			]),
		).toBe("1100 0000");
		expect(
			widthOf([
				[75, 64],
				[61, 32],
			]),
		).toBe(42);
		expect(shownValue({ key: "x", name: "x", ranges: [[11, 0]] }, 0xabcn)).toBe("2748");
		expect(shownValue({ key: "x", name: "x", ranges: [[11, 0]], hex: true }, 0xabcn)).toBe("0xabc");
		expect(shownValue({ key: "x", name: "x", ranges: [[79, 0]] }, 1n)).toBe(
			`0x${"1".padStart(20, "0")}`,
		);
	});
});

describe("the playground's requests", () => {
	it("accepts a count from 1 to 10,000 (MAX_BATCH's default) written in digits", () => {
		expect(parseShownCount(" 5 ")).toBe(5);
		expect(parseShownCount("10000")).toBe(10_000);
		for (const bad of ["", "0", "10001", "-1", "1.5", "1e3", "10,000", "five"])
			expect(parseShownCount(bad), bad).toBeUndefined();
	});

	it("builds the generate and decode paths", () => {
		expect(generatePath("snowflake", " 7 ", 5)).toBe("/snowflake/7?count=5");
		expect(generatePath("snowflake", "", 5)).toBe("/snowflake?count=5");
		expect(generatePath("ulid", "7", 2)).toBe("/ulid?count=2");
		expect(generatePath("snowflake", "a/b", 1)).toBe("/snowflake/a%2Fb?count=1");
		expect(decodePath(" 01ARYZ6S41TSV4RRFFQ69G5FAV ")).toBe("/decode/01ARYZ6S41TSV4RRFFQ69G5FAV");
		expect(decodePath("{abc}", "discord")).toBe("/decode/%7Babc%7D?layout=discord");
	});

	it("adds a prefix and a Snowflake format where the kind takes them; builds range paths", () => {
		expect(generatePath("typeid", "", 2, { prefix: " user " })).toBe("/typeid?count=2&prefix=user");
		expect(generatePath("typeid", "", 2, { prefix: "" })).toBe("/typeid?count=2");
		expect(generatePath("snowflake", "7", 2, { prefix: "order", format: "base32" })).toBe(
			"/snowflake/7?count=2&format=base32&prefix=order",
		);
		expect(generatePath("snowflake", "", 2, { format: "decimal" })).toBe("/snowflake?count=2");
		expect(generatePath("ulid", "", 2, { prefix: "x", format: "base32" })).toBe("/ulid?count=2");
		expect(decodePath("0123456789abcdefghjkmnpqrs", undefined, "typeid")).toBe(
			"/decode/0123456789abcdefghjkmnpqrs?format=typeid",
		);
		expect(rangePath("ulid", "2026-11-01T00:00:00.000Z", "2026-11-02T00:00:00.000Z", "x")).toBe(
			"/range?kind=ulid&from=2026-11-01T00%3A00%3A00.000Z&to=2026-11-02T00%3A00%3A00.000Z",
		);
		expect(rangePath("typeid", "1", "2", "user")).toBe(
			"/range?kind=typeid&from=1&to=2&prefix=user",
		);
	});

	it("shows a TypeID's bits as its UUID's: a UUIDv7's fields when it holds one", () => {
		const typeid = {
			type: "typeid",
			id: "prefix_01h455vb4pex5vsknk084sn02q",
			uuid: "01890a5d-ac96-774b-bcce-b302099a8057",
			timestamp: 1688096058518,
		};
		expect(bitsOf(typeid)).toEqual({ width: 128, value: 0x01890a5dac96774bbcceb302099a8057n });
		expect(fieldsOf(typeid).map((f) => f.key)).toEqual([
			"time",
			"version",
			"counter",
			"variant",
			"random",
		]);
		const other = {
			type: "typeid",
			id: "prefix_0123456789abcdefghjkmnpqrs",
			uuid: "0110c853-1d09-52d8-d73e-1194e95b5f19",
		};
		expect(fieldsOf(other).map((f) => f.key)).toEqual(["other", "version", "variant"]);
	});
});

describe("sequencePath", () => {
	it("builds the status, next and create paths, leaving defaults out", () => {
		expect(sequencePath(" orders ", "status")).toBe("/sequences/orders");
		expect(sequencePath("orders", { next: 3 })).toBe("/sequences/orders/next?count=3");
		expect(
			sequencePath("orders", {
				create: { start: "", mode: "ordered", reset: "never", timeZone: " " },
			}),
		).toBe("/sequences/orders");
		expect(
			sequencePath("a/b", {
				create: { start: "1000", mode: "pooled", reset: "daily", timeZone: "Europe/London" },
			}),
		).toBe("/sequences/a%2Fb?start=1000&mode=pooled&reset=daily&timeZone=Europe%2FLondon");
	});
});
