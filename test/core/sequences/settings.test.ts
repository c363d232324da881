import { describe, expect, it } from "vitest";
import { checkSequenceName } from "../../../src/ids/sequences/names";
import { MAX_SEQUENCE_NUMBER, readSequenceNumber } from "../../../src/ids/sequences/numbers";
import {
	checkSequenceSettings,
	checkTimeZone,
	sameSettings,
	sequenceExists,
	settingsView,
} from "../../../src/ids/sequences/settings";

const NAME_RULE =
	"invalid_sequence_name: a sequence name is 1-64 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit; got ";

describe("checkSequenceName", () => {
	it("takes 1-64 characters of A-Z a-z 0-9 . _ - starting with a letter or digit", () => {
		for (const name of ["a", "7", "orders", "Orders.eu_2026-11", "x".repeat(64), "0.-_"]) {
			expect(checkSequenceName(name)).toBe(name);
		}
	});

	it("refuses anything else, saying what is allowed", () => {
		const refused: [unknown, string][] = [
			["", '""'],
			["x".repeat(65), `"${"x".repeat(64)}…"`],
			[".hidden", '".hidden"'],
			["-a", '"-a"'],
			["_a", '"_a"'],
			["a/b", '"a/b"'],
			["a b", '"a b"'],
			["orders\n", '"orders\\n"'],
			["ördrs", '"ördrs"'],
			[7, "7"],
			[undefined, "undefined"],
		];
		for (const [name, shown] of refused) {
			expect(() => checkSequenceName(name)).toThrow(`${NAME_RULE}${shown}`);
		}
	});

	it("repeats at most 64 characters of a refused name", () => {
		expect(() => checkSequenceName("y".repeat(1000))).toThrow(`${NAME_RULE}"${"y".repeat(64)}…"`);
	});
});

describe("readSequenceNumber", () => {
	it("reads safe integers, bigints and decimal strings in [0, 2^63 - 1]", () => {
		expect(readSequenceNumber("to", 0)).toBe(0n);
		expect(readSequenceNumber("to", 1000)).toBe(1000n);
		expect(readSequenceNumber("to", "9007199254740993")).toBe(9007199254740993n);
		expect(readSequenceNumber("to", "9223372036854775807")).toBe(MAX_SEQUENCE_NUMBER);
		expect(readSequenceNumber("to", MAX_SEQUENCE_NUMBER)).toBe(MAX_SEQUENCE_NUMBER);
	});

	it("refuses the rest, naming the field", () => {
		const rule =
			"invalid_sequence_options: to must be an integer in [0, 9223372036854775807] (above 2^53 written as a decimal string); got ";
		const refused: [unknown, string][] = [
			[-1, "-1"],
			[1.5, "1.5"],
			[2 ** 53, "9007199254740992"],
			["9223372036854775808", '"9223372036854775808"'],
			[MAX_SEQUENCE_NUMBER + 1n, "a bigint 9223372036854775808n"],
			[-1n, "a bigint -1n"],
			["01", '"01"'],
			["1e3", '"1e3"'],
			[" 1", '" 1"'],
			[null, "null"],
			[{}, "an object"],
		];
		for (const [value, shown] of refused) {
			expect(() => readSequenceNumber("to", value)).toThrow(`${rule}${shown}`);
		}
	});
});

describe("checkSequenceSettings", () => {
	it("fills the defaults", () => {
		const defaults = { start: 1n, mode: "ordered", reset: "never", timeZone: "UTC" };
		expect(checkSequenceSettings(undefined)).toEqual(defaults);
		expect(checkSequenceSettings({})).toEqual(defaults);
	});

	it("takes every setting, keeping the zone as written", () => {
		expect(
			checkSequenceSettings({
				start: "0",
				mode: "pooled",
				reset: "monthly",
				timeZone: "Asia/Kathmandu",
			}),
		).toEqual({ start: 0n, mode: "pooled", reset: "monthly", timeZone: "Asia/Kathmandu" });
		for (const zone of [
			"Australia/Lord_Howe",
			"Etc/GMT+5",
			"utc",
			"europe/london",
			"Asia/Calcutta",
		]) {
			expect(checkTimeZone(zone)).toBe(zone);
		}
	});

	it("refuses a bad setting, naming it and what is allowed", () => {
		const refused: [unknown, string][] = [
			[{ mode: "fast" }, 'mode must be one of "ordered", "pooled"; got "fast"'],
			[
				{ reset: "hourly" },
				'reset must be one of "never", "daily", "monthly", "yearly"; got "hourly"',
			],
			[{ reset: null }, 'reset must be one of "never", "daily", "monthly", "yearly"; got null'],
			[{ start: -1 }, "start must be an integer in [0, 9223372036854775807]"],
			[{ start: "1.0" }, "start must be an integer in [0, 9223372036854775807]"],
			[{ step: 10 }, '"step" is not a setting; the settings are start, mode, reset, timeZone'],
			[
				"daily",
				'the settings must be a JSON object with start, mode, reset, timeZone; got "daily"',
			],
			[
				[1],
				"the settings must be a JSON object with start, mode, reset, timeZone; got an array of 1 item",
			],
		];
		for (const [input, detail] of refused) {
			expect(() => checkSequenceSettings(input)).toThrow(`invalid_sequence_options: ${detail}`);
		}
	});

	it("refuses a zone that is not an IANA name Intl knows (offsets included)", () => {
		for (const zone of ["Mars/Olympus_Mons", "+05:30", "-0800", "", "UTC ", 5, "A".repeat(65)]) {
			expect(() => checkSequenceSettings({ timeZone: zone })).toThrow(
				'invalid_sequence_options: timeZone must be an IANA time zone name such as "UTC", "Europe/London" or "Asia/Kathmandu"; got ',
			);
		}
	});

	it("finds the same settings the same, from what was stored and asked again", () => {
		const stored = checkSequenceSettings({ start: 5, reset: "daily", timeZone: "Europe/London" });
		expect(sameSettings(stored, checkSequenceSettings(settingsView(stored)))).toBe(true);
		expect(
			sameSettings(
				stored,
				checkSequenceSettings({ start: "5", reset: "daily", timeZone: "europe/london" }),
			),
		).toBe(true);
		for (const other of [
			{ start: 6, reset: "daily", timeZone: "Europe/London" },
			{ start: 5, reset: "monthly", timeZone: "Europe/London" },
			{ start: 5, reset: "daily", timeZone: "UTC" },
			{ start: 5, reset: "daily", timeZone: "Europe/London", mode: "pooled" },
		]) {
			expect(sameSettings(stored, checkSequenceSettings(other))).toBe(false);
		}
	});

	it("shows the stored settings when a create asks for others", () => {
		const stored = checkSequenceSettings({ start: 1000, reset: "yearly" });
		expect(sequenceExists("invoices", stored)).toMatchObject({
			code: "sequence_exists",
			message:
				'sequence_exists: sequence "invoices" exists with other settings: {"start":"1000","mode":"ordered","reset":"yearly","timeZone":"UTC"}; send those settings to use it, or create a sequence with another name',
		});
	});
});
