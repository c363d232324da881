import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeId } from "../../src/ids/forms/decode";
import {
	customLayout,
	DECODE_PRESETS,
	decodeForeign,
	type ForeignLayout,
} from "../../src/ids/forms/foreign-layouts";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";
import { DISCORD_EXAMPLE } from "../shared/spec-vectors";

describe("decoding other systems' IDs", () => {
	it("reads Discord's documented example (API reference, 'Snowflakes')", () => {
		expect(decodeForeign(DISCORD_EXAMPLE.id, DECODE_PRESETS.discord)).toEqual(
			DISCORD_EXAMPLE.decoded,
		);
	});

	it("answers each preset's fields in the layout's order, high bits first", () => {
		const keys = (id: string, preset: keyof typeof DECODE_PRESETS) =>
			Object.keys(decodeForeign(id, DECODE_PRESETS[preset])).slice(5);
		expect(keys("175928847299117063", "discord")).toEqual(["workerId", "processId", "increment"]);
		expect(keys("494152093532361268", "sonyflake")).toEqual(["sequence", "machineId"]);
		expect(keys("11637205501278089", "instagram")).toEqual(["shardId", "sequence"]);
		expect(keys("910499571847892992", "twitter")).toEqual([
			"workerId",
			"sequence",
			"datacenterId",
			"machineId",
		]);
	});

	it("reads Instagram's worked example (1387263000 ms, shard 1341, sequence 5001 mod 1024)", () => {
		// "Sharding & IDs at Instagram": id = ms << 23 | shard << 10 | (sequence % 1024).
		expect(decodeForeign("11637205501278089", DECODE_PRESETS.instagram)).toMatchObject({
			layout: "instagram",
			timestamp: 1314220021721 + 1387263000,
			shardId: 1341,
			sequence: 905,
		});
	});

	it("reads Sonyflake's order: time, then sequence, then machine ID", () => {
		// Sonyflake's toID: elapsed << (8 + 16) | sequence << 16 | machineID, in 10 ms since 2014-09-01.
		expect(decodeForeign("494152093532361268", DECODE_PRESETS.sonyflake)).toMatchObject({
			layout: "sonyflake",
			time: "2024-01-01T00:00:00.000Z",
			sequence: 3,
			machineId: 0x1234,
		});
	});

	it("reads Twitter's example as the service's own decoder does", () => {
		const own = decodeId("910499571847892992", new SnowflakeLayout(TWITTER_LAYOUT));
		expect(decodeForeign("910499571847892992", DECODE_PRESETS.twitter)).toEqual({
			...own,
			layout: "twitter",
		});
	});

	it("takes every field apart as BigInt shifts do, for any preset and custom layout", () => {
		const layouts: ForeignLayout[] = [
			...Object.values(DECODE_PRESETS),
			customLayout({ timeBits: 40, workerBits: 12, sequenceBits: 12, epoch: 0, timeUnitMs: 1 }),
		];
		fc.assert(
			fc.property(
				fc.constantFrom(...layouts),
				fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
				(layout, raw) => {
					const bits = layout.timeBits + layout.fields.reduce((sum, f) => sum + f.bits, 0);
					const id = raw % 2n ** BigInt(bits);
					const decoded = decodeForeign(id.toString(), layout);
					let shift = 0n;
					for (const field of [...layout.fields].reverse()) {
						const mask = (1n << BigInt(field.bits)) - 1n;
						expect(decoded[field.name]).toBe(Number((id >> shift) & mask));
						shift += BigInt(field.bits);
					}
					expect(decoded.timestamp).toBe(layout.epoch + Number(id >> shift) * layout.timeUnitMs);
				},
			),
		);
	});

	it("refuses IDs beyond the layout's bits and custom widths that are not 63 or 64", () => {
		expect(() => decodeForeign("18446744073709551616", DECODE_PRESETS.discord)).toThrow(
			/below 2\^64/,
		);
		expect(() => decodeForeign("9223372036854775808", DECODE_PRESETS.twitter)).toThrow(
			/below 2\^63/,
		);
		expect(() =>
			customLayout({ timeBits: 41, workerBits: 10, sequenceBits: 10, epoch: 0, timeUnitMs: 1 }),
		).toThrow(/= 63 or 64/);
	});

	it.each([
		["a fractional width", { timeBits: 41.5, workerBits: 10, sequenceBits: 11.5 }],
		["a negative width", { timeBits: 41, workerBits: -1, sequenceBits: 23 }],
		["no time bits", { timeBits: 0, workerBits: 31, sequenceBits: 32 }],
		["more than 53 time bits", { timeBits: 54, workerBits: 5, sequenceBits: 5 }],
		["a negative epoch", { epoch: -1 }],
		["an epoch past 8.64e15 ms", { epoch: 8.64e15 + 1 }],
		["a fractional epoch", { epoch: 0.5 }],
		["a time unit of 0", { timeUnitMs: 0 }],
		["a time unit over a day", { timeUnitMs: 86_400_001 }],
		["a fractional time unit", { timeUnitMs: 1.5 }],
	])("refuses a custom layout with %s, naming the rule and what it got", (_, change) => {
		const input = {
			timeBits: 41,
			workerBits: 10,
			sequenceBits: 12,
			epoch: 0,
			timeUnitMs: 1,
			...change,
		};
		expect(() => customLayout(input)).toThrow(
			expect.objectContaining({
				code: "invalid_layout",
				detail: expect.stringContaining(
					`got ${input.timeBits}/${input.workerBits}/${input.sequenceBits}, epoch ${input.epoch}, unit ${input.timeUnitMs}`,
				),
			}),
		);
	});

	it("builds a custom layout as time, then workerId, then sequence", () => {
		expect(
			customLayout({ timeBits: 41, workerBits: 10, sequenceBits: 12, epoch: 5, timeUnitMs: 10 }),
		).toEqual({
			name: "custom",
			epoch: 5,
			timeUnitMs: 10,
			timeBits: 41,
			fields: [
				{ name: "workerId", bits: 10 },
				{ name: "sequence", bits: 12 },
			],
		});
	});

	it.each(["", "x123", "123x", "12 3", "-1", "1".repeat(21)])(
		"refuses %j as an ID under a layout, quoting it",
		(text) => {
			expect(() => decodeForeign(text, DECODE_PRESETS.discord)).toThrow(
				expect.objectContaining({
					code: "invalid_id",
					detail: `under the discord layout an ID is 1-20 decimal digits below 2^64; got ${JSON.stringify(text)}`,
				}),
			);
		},
	);

	it("shows a long refused text cut at 40 characters", () => {
		expect(() => decodeForeign("9".repeat(40), DECODE_PRESETS.discord)).toThrow(
			expect.objectContaining({ detail: expect.stringMatching(/; got "9{40}"$/) }),
		);
		expect(() => decodeForeign("9".repeat(41), DECODE_PRESETS.discord)).toThrow(
			expect.objectContaining({ detail: expect.stringMatching(/; got "9{40}…"$/) }),
		);
	});

	it("refuses an ID whose time falls past what a Date can hold", () => {
		const far = customLayout({
			timeBits: 53,
			workerBits: 0,
			sequenceBits: 10,
			epoch: 8.64e15,
			timeUnitMs: 1,
		});
		expect(decodeForeign("0", far)).toMatchObject({ timestamp: 8.64e15, sequence: 0 });
		expect(() => decodeForeign("1024", far)).toThrow(
			expect.objectContaining({
				code: "invalid_id",
				detail: "under the custom layout this ID's time is past year 275760",
			}),
		);
	});

	it("takes a custom layout at each limit: 1 and 53 time bits, 0-bit fields, epochs 0 and 8.64e15, units 1 ms and a day", () => {
		for (const input of [
			{ timeBits: 1, workerBits: 31, sequenceBits: 32, epoch: 0, timeUnitMs: 1 },
			{ timeBits: 53, workerBits: 0, sequenceBits: 10, epoch: 8.64e15, timeUnitMs: 86_400_000 },
			{ timeBits: 53, workerBits: 11, sequenceBits: 0, epoch: 0, timeUnitMs: 1 },
		]) {
			expect(customLayout(input)).toMatchObject({ timeBits: input.timeBits, epoch: input.epoch });
		}
	});
});

describe("UUID forms", () => {
	const layout = new SnowflakeLayout(TWITTER_LAYOUT);
	const canonical = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
	it.each([
		"017f22e279b07cc398c4dc0c0c07398f",
		"017F22E279B07CC398C4DC0C0C07398F",
		`{${canonical}}`,
		`urn:uuid:${canonical}`,
		`URN:UUID:${canonical.toUpperCase()}`,
	])("reads %s as the canonical UUID", (text) => {
		expect(decodeId(text, layout)).toMatchObject({ type: "uuidv7", id: canonical });
	});

	it.each([
		"{017f22e279b07cc398c4dc0c0c07398f",
		"urn:uuid:017f22e2",
		"017f22e279b07cc398c4dc0c0c07398",
	])("refuses %s", (text) => {
		expect(() => decodeId(text, layout)).toThrow(/invalid_id/);
	});

	it.each([
		`x${canonical}}`,
		`{${canonical}x`,
		`x${canonical}x`,
		`Xurn:uuid:${canonical.slice(1)}`,
		`{urn:uuid:${canonical}}`,
		`x${canonical.replaceAll("-", "")}`,
		`${canonical.replaceAll("-", "")}x`,
	])("reads %s as no form of UUID: the refusal lists every shape", (text) => {
		expect(() => decodeId(text, layout)).toThrow(
			expect.objectContaining({
				code: "invalid_id",
				detail: expect.stringMatching(/^id must be a Snowflake/),
			}),
		);
	});

	it("quotes a refused text as given, braces and all", () => {
		expect(() => decodeId("{abc}", layout)).toThrow(
			expect.objectContaining({
				detail: expect.stringMatching(/; got "\{abc\}" \(5 characters\)$/),
			}),
		);
	});
});
