/** Snowflakes as 13 base32 characters: round trips, order, prefixes, the route's run formatter. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeId, decodeSnowflake } from "../../src/ids/forms/decode";
import {
	formatRunsAs,
	parseSnowflakeBase32,
	snowflakeFromBase32,
	snowflakeText,
	snowflakeTextForm,
	snowflakeToBase32,
} from "../../src/ids/snowflake/base32";
import { expandBlocks } from "../../src/ids/snowflake/blocks";
import { formatRuns } from "../../src/ids/snowflake/decimal";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";
import { prefixes } from "./prefixes";

const layout = new SnowflakeLayout(TWITTER_LAYOUT);
const ids = fc.bigInt({ min: 0n, max: 2n ** 63n - 1n });

describe("base32 Snowflakes", () => {
	it("are 13 lowercase characters of TypeID's alphabet, first 0-7, and read back to the number", () => {
		fc.assert(
			fc.property(ids, (id) => {
				const text = snowflakeToBase32(id);
				expect(text).toMatch(/^[0-7][0-9a-hjkmnp-tv-z]{12}$/);
				expect(snowflakeFromBase32(text)).toBe(id);
				expect(snowflakeToBase32(id.toString())).toBe(text);
			}),
		);
	});

	it("sort as text exactly as their numbers do (decimal text does not)", () => {
		fc.assert(
			fc.property(ids, ids, (a, b) => {
				const [x, y] = [snowflakeToBase32(a), snowflakeToBase32(b)];
				expect(x < y).toBe(a < b);
				expect(x === y).toBe(a === b);
			}),
		);
		expect("999" < "1000").toBe(false); // why decimal needs padding
		expect(snowflakeToBase32(999n) < snowflakeToBase32(1000n)).toBe(true);
	});

	it("known values: the ends and a Twitter ID", () => {
		expect(snowflakeToBase32(0n)).toBe("0000000000000");
		expect(snowflakeToBase32(2n ** 63n - 1n)).toBe("7zzzzzzzzzzzz");
		expect(snowflakeToBase32(1541815603606036480n)).toBe("1asd13xh1f800");
		expect(() => snowflakeToBase32(2n ** 63n)).toThrow(
			expect.objectContaining({ code: "invalid_id" }),
		);
	});

	it("are made from decimal digits (1-19, below 2^63) or a bigint only: other text is invalid_id", () => {
		expect(snowflakeToBase32("0")).toBe("0000000000000");
		expect(snowflakeToBase32("0000000000000000012")).toBe(snowflakeToBase32(12n));
		expect(snowflakeToBase32("9223372036854775807")).toBe("7zzzzzzzzzzzz");
		// BigInt(text) reads all of these (or throws a SyntaxError); none is a Snowflake's text.
		for (const bad of [
			"",
			" 12 ",
			"12 ",
			"0x10",
			"0b1",
			"0o7",
			"1e3",
			"-1",
			"+1",
			"1.0",
			"1_000",
			"１２", // full-width digits
			"00000000000000000012", // 20 digits
			"9223372036854775808", // 2^63
		]) {
			expect(() => snowflakeToBase32(bad), JSON.stringify(bad)).toThrow(
				expect.objectContaining({
					name: "IdError",
					code: "invalid_id",
					message: expect.stringContaining(JSON.stringify(bad)),
				}),
			);
		}
		for (const bad of [-1n, 2n ** 63n]) {
			expect(() => snowflakeToBase32(bad)).toThrow(expect.objectContaining({ code: "invalid_id" }));
		}
	});

	it("decodeSnowflake and expandBlocks read decimal digits just as strictly", () => {
		for (const bad of ["", " 12", "0x10", "1e3", "-1", "+1"]) {
			expect(() => decodeSnowflake(bad, layout), JSON.stringify(bad)).toThrow(
				expect.objectContaining({ name: "IdError", code: "invalid_id" }),
			);
			expect(() => [...expandBlocks([{ first: bad, count: 2 }])], JSON.stringify(bad)).toThrow(
				expect.objectContaining({ name: "IdError", code: "invalid_id" }),
			);
		}
		expect(decodeSnowflake("0012", layout).id).toBe("12");
		expect([...expandBlocks([{ first: "0012", count: 2 }])]).toEqual(["12", "13"]);
	});

	it("are read strictly: no uppercase, no Crockford aliases, 13 characters, first 0-7", () => {
		for (const bad of [
			"1BFHK3HVK0000",
			"1bfhk3hvk000o",
			"1bfhk3hvk000",
			"1asd13xh1f8000",
			"8000000000000",
			"1bfhk3hvk-000",
		]) {
			expect(() => snowflakeFromBase32(bad)).toThrow(
				expect.objectContaining({ code: "invalid_id" }),
			);
		}
	});

	it("with a prefix: format then parse gives back the prefix and ID", () => {
		fc.assert(
			fc.property(prefixes, ids, (prefix, id) => {
				const text = snowflakeText(id, snowflakeTextForm("base32", prefix));
				expect(parseSnowflakeBase32(text)).toEqual({ id, prefix });
				// Bare base32 needs the format (it may be all digits, which reads as decimal).
				const decoded = decodeId(text, layout, prefix ? undefined : "base32");
				expect(decoded).toMatchObject({ type: "snowflake", id: id.toString(), prefix });
			}),
		);
	});
});

describe("text forms asked for", () => {
	it("decimal by default; a prefix implies base32; decimal with a prefix is invalid_prefix", () => {
		expect(snowflakeTextForm(undefined, undefined)).toEqual({ format: "decimal", prefix: "" });
		expect(snowflakeTextForm("base32", undefined)).toEqual({ format: "base32", prefix: "" });
		expect(snowflakeTextForm(undefined, "order")).toEqual({ format: "base32", prefix: "order" });
		expect(snowflakeTextForm(undefined, "")).toEqual({ format: "decimal", prefix: "" });
		expect(() => snowflakeTextForm("decimal", "order")).toThrow(
			expect.objectContaining({ code: "invalid_prefix" }),
		);
		expect(() => snowflakeTextForm("hex", undefined)).toThrow(
			expect.objectContaining({
				code: "invalid_format",
				message: expect.stringContaining('"decimal" or "base32"'),
			}),
		);
		expect(() => snowflakeTextForm("base32", "Order")).toThrow(
			expect.objectContaining({ code: "invalid_prefix" }),
		);
	});
});

describe("decode", () => {
	it("a bare all-digit text stays decimal; a bare base32 text needs format base32", () => {
		const id = 1541815603606036480n;
		expect(decodeId("1234567890123", layout)).toMatchObject({ id: "1234567890123" });
		expect(decodeId(snowflakeToBase32(id), layout, "base32")).toMatchObject({
			type: "snowflake",
			id: id.toString(),
			prefix: "",
			base32: "1asd13xh1f800",
			timestamp: 1656432460105,
			workerId: 378,
			sequence: 0,
		});
		expect(() => decodeId("1asd13xh1f800", layout)).toThrow(
			expect.objectContaining({ code: "invalid_id" }),
		);
	});
});

describe("formatRunsAs", () => {
	it("writes the same IDs as the decimal formatter, in base32, across a 30-bit boundary between runs", () => {
		// Sequences 0-4095 of worker 1023 at a tick whose low bits sit just below a 2^30 boundary.
		const runs = [
			{ tick: 255, firstSequence: 4000, count: 96 },
			{ tick: 256, firstSequence: 0, count: 4096 },
			{ tick: 257, firstSequence: 0, count: 3 },
		];
		const decimal = formatRuns(layout, 1023, runs);
		const base32 = formatRunsAs(layout, 1023, runs, { format: "base32", prefix: "" });
		expect(base32).toEqual(decimal.map((id) => snowflakeToBase32(BigInt(id))));
		const prefixed = formatRunsAs(layout, 1023, runs, { format: "base32", prefix: "order" });
		expect(prefixed).toEqual(base32.map((text) => `order_${text}`));
		expect(formatRunsAs(layout, 1023, runs, { format: "decimal", prefix: "" })).toEqual(decimal);
	});

	it("writes a run up to the last sequence of the widest sequence field (30 bits) without carrying", () => {
		// The sequence field fills the low 30 bits: a run's last ID has them all set, and
		// the next tick's run starts the high characters anew.
		const wide = new SnowflakeLayout({
			epoch: 0,
			timeBits: 33,
			workerBits: 0,
			sequenceBits: 30,
			timeUnitMs: 1000,
		});
		const runs = [
			{ tick: 5, firstSequence: 2 ** 30 - 2, count: 2 },
			{ tick: 6, firstSequence: 0, count: 1 },
		];
		const texts = formatRunsAs(wide, 0, runs, { format: "base32", prefix: "" });
		expect(texts).toEqual(["0000005zzzzzy", "0000005zzzzzz", "0000006000000"]);
		expect(texts).toEqual(formatRuns(wide, 0, runs).map((id) => snowflakeToBase32(BigInt(id))));
	});

	it("refuses a run that does not fit the layout, as the decimal formatter does", () => {
		expect(() =>
			formatRunsAs(layout, 7, [{ tick: 1, firstSequence: 4095, count: 2 }], {
				format: "base32",
				prefix: "",
			}),
		).toThrow(expect.objectContaining({ code: "internal" }));
	});
});

describe("base32 refusals, word for word", () => {
	it("name the bound, and show long text cut at 40 characters", () => {
		expect(() => snowflakeToBase32(-1n)).toThrow(
			expect.objectContaining({ detail: "a Snowflake ID must be in [0, 2^63); got -1" }),
		);
		const forty = "x".repeat(40);
		expect(() => snowflakeToBase32(forty)).toThrow(
			expect.objectContaining({ detail: expect.stringMatching(new RegExp(`got "${forty}"$`)) }),
		);
		expect(() => snowflakeToBase32(`${forty}y`)).toThrow(
			expect.objectContaining({ detail: expect.stringMatching(new RegExp(`got "${forty}…"$`)) }),
		);
		// A number is not a Snowflake's text, even one whose digits would be.
		expect(() => snowflakeToBase32(123 as unknown as string)).toThrow(
			expect.objectContaining({ code: "invalid_id", detail: expect.stringMatching(/got 123$/) }),
		);
	});

	it("say what base32 text was expected", () => {
		expect(() => snowflakeFromBase32("1bfhk3hvk000")).toThrow(
			expect.objectContaining({ detail: expect.stringContaining("a Snowflake in base32") }),
		);
		expect(() => parseSnowflakeBase32("order_1bfhk")).toThrow(
			expect.objectContaining({ detail: expect.stringContaining("Snowflake in base32") }),
		);
		expect(() => parseSnowflakeBase32("Order_1asd13xh1f800")).toThrow(
			expect.objectContaining({
				code: "invalid_id",
				detail:
					"a Snowflake in base32's prefix (before the last _) must be at most 63 characters of a-z and _, starting and ending with a letter (TypeID's ^([a-z]([a-z_]*[a-z])?)?$), and without a prefix there is no _; got \"Order\"",
			}),
		);
	});

	it("name the format asked for, quoted when it is text", () => {
		expect(() => snowflakeTextForm("hex", undefined)).toThrow(
			expect.objectContaining({
				code: "invalid_format",
				detail: expect.stringMatching(/; got "hex"$/),
			}),
		);
		expect(() => snowflakeTextForm(7, undefined)).toThrow(
			expect.objectContaining({ detail: expect.stringMatching(/; got 7$/) }),
		);
		expect(() => snowflakeTextForm("decimal", "order")).toThrow(
			expect.objectContaining({
				code: "invalid_prefix",
				detail: expect.stringMatching(/got format=decimal with prefix "order"$/),
			}),
		);
	});
});
