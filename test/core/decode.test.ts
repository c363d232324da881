import { describe, expect, it } from "vitest";
import { decodeId } from "../../src/ids/forms/decode";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";

const twitter = new SnowflakeLayout(TWITTER_LAYOUT);

describe("decodeId", () => {
	it("splits the worker ID into datacenter and machine under Twitter's layout", () => {
		expect(decodeId("910499571847892992", twitter)).toMatchObject({
			workerId: 569,
			datacenterId: 17,
			machineId: 25,
		});
	});

	it("does not invent datacenters for another layout with 10 worker bits", () => {
		for (const other of [
			{ ...TWITTER_LAYOUT, epoch: 1420070400000 },
			{ ...TWITTER_LAYOUT, timeUnitMs: 10 },
		]) {
			const decoded = decodeId("910499571847892992", new SnowflakeLayout(other));
			expect(decoded).toMatchObject({ type: "snowflake", workerId: 569 });
			expect(decoded).not.toHaveProperty("datacenterId");
			expect(decoded).not.toHaveProperty("machineId");
		}
	});

	it("reads a version-7 UUID with the RFC variant (10) as uuidv7", () => {
		expect(decodeId("017f22e2-79b0-7cc3-98c4-dc0c0c07398f", twitter)).toMatchObject({
			type: "uuidv7",
			timestamp: 1645557742000,
		});
	});

	it.each([
		["017f22e2-79b0-7cc3-18c4-dc0c0c07398f", "NCS (0xx)"],
		["017f22e2-79b0-7cc3-c8c4-dc0c0c07398f", "Microsoft (110)"],
		["017f22e2-79b0-7cc3-e8c4-dc0c0c07398f", "reserved (111)"],
	])("reads %s (variant %s) as a plain uuid, not uuidv7", (id) => {
		expect(decodeId(id, twitter)).toEqual({
			type: "uuid",
			id,
			version: 7,
			ulid: expect.any(String),
		});
	});
});

describe("decodeId's refusals say which shape was seen", () => {
	it("a prefixed ID with a bad prefix names it as a prefixed ID", () => {
		expect(() => decodeId("User_01h455vb4pex5vsknk084sn02q", twitter)).toThrow(
			expect.objectContaining({
				code: "invalid_id",
				detail: expect.stringMatching(/^a prefixed ID's prefix \(before the last _\)/),
			}),
		);
	});

	it("a prefixed ID of neither 13 nor 26 characters after its _ says how many it has", () => {
		for (const [text, length] of [
			["user_01h455vb4pex5vsknk084sn02", 25],
			["user_01h455vb4pex5vsknk084sn02qq", 27],
		] as const) {
			expect(() => decodeId(text, twitter)).toThrow(
				expect.objectContaining({
					code: "invalid_id",
					detail: expect.stringMatching(
						new RegExp(
							`or a Snowflake in base32 \\(prefix_ and 13\\); got ${length} characters after the last _$`,
						),
					),
				}),
			);
		}
	});

	it("a text of no known shape lists every shape, and shows the text cut at 40 characters", () => {
		expect(() => decodeId("xyz", twitter)).toThrow(
			expect.objectContaining({
				code: "invalid_id",
				detail: expect.stringMatching(/^id must be a Snowflake .*; got "xyz" \(3 characters\)$/),
			}),
		);
		expect(() => decodeId("x".repeat(40), twitter)).toThrow(
			expect.objectContaining({
				detail: expect.stringMatching(/; got "x{40}" \(40 characters\)$/),
			}),
		);
		expect(() => decodeId("x".repeat(45), twitter)).toThrow(
			expect.objectContaining({
				detail: expect.stringMatching(/; got "x{40}…" \(45 characters\)$/),
			}),
		);
	});
});
