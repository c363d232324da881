import { describe, expect, it } from "vitest";
import { comparePeriods, periodOf, readClock } from "../../../src/ids/sequences/periods";

const at = (iso: string) => Date.parse(iso);

describe("periodOf", () => {
	it("dates a reading in UTC for each reset, and none for never", () => {
		const ms = at("2026-11-27T23:59:59.999Z");
		expect(periodOf(ms, "daily", "UTC")).toBe("2026-11-27");
		expect(periodOf(ms, "monthly", "UTC")).toBe("2026-11");
		expect(periodOf(ms, "yearly", "UTC")).toBe("2026");
		expect(periodOf(ms, "never", "UTC")).toBeNull();
		expect(periodOf(ms + 1, "daily", "UTC")).toBe("2026-11-28");
	});

	it("turns over at the ends of months, leap days and years", () => {
		const cases: [string, "daily" | "monthly" | "yearly", string][] = [
			["2026-01-31T23:59:59.999Z", "monthly", "2026-01"],
			["2026-02-01T00:00:00.000Z", "monthly", "2026-02"],
			["2028-02-29T12:00:00.000Z", "daily", "2028-02-29"],
			["2028-03-01T00:00:00.000Z", "daily", "2028-03-01"],
			["2026-12-31T23:59:59.999Z", "yearly", "2026"],
			["2027-01-01T00:00:00.000Z", "yearly", "2027"],
			["2026-12-31T23:59:59.999Z", "monthly", "2026-12"],
			["2027-01-01T00:00:00.000Z", "daily", "2027-01-01"],
		];
		for (const [iso, reset, period] of cases) expect(periodOf(at(iso), reset, "UTC")).toBe(period);
	});

	it("follows each zone's midnight across DST changes", () => {
		const cases: [string, string, string][] = [
			// New York springs forward on 2026-03-08: that day's midnight was -5, the next one's is -4.
			["America/New_York", "2026-03-09T03:59:59.999Z", "2026-03-08"],
			["America/New_York", "2026-03-09T04:00:00.000Z", "2026-03-09"],
			// ... and falls back on 2026-11-01 (a 25-hour day): the next midnight is at -5 again.
			["America/New_York", "2026-11-02T04:59:59.999Z", "2026-11-01"],
			["America/New_York", "2026-11-02T05:00:00.000Z", "2026-11-02"],
			// London: BST from 2026-03-29 (midnight of the 30th is 23:00 UTC), GMT from 2026-10-25.
			["Europe/London", "2026-03-29T22:59:59.999Z", "2026-03-29"],
			["Europe/London", "2026-03-29T23:00:00.000Z", "2026-03-30"],
			["Europe/London", "2026-10-24T22:59:59.999Z", "2026-10-24"],
			["Europe/London", "2026-10-24T23:00:00.000Z", "2026-10-25"],
			["Europe/London", "2026-10-25T23:59:59.999Z", "2026-10-25"],
			["Europe/London", "2026-10-26T00:00:00.000Z", "2026-10-26"],
			// Lord Howe moves 30 minutes: +10:30 until 2026-10-04, +11 after.
			["Australia/Lord_Howe", "2026-10-03T13:29:59.999Z", "2026-10-03"],
			["Australia/Lord_Howe", "2026-10-03T13:30:00.000Z", "2026-10-04"],
			["Australia/Lord_Howe", "2026-10-04T12:59:59.999Z", "2026-10-04"],
			["Australia/Lord_Howe", "2026-10-04T13:00:00.000Z", "2026-10-05"],
			// Kathmandu is +5:45 all year.
			["Asia/Kathmandu", "2026-11-27T18:14:59.999Z", "2026-11-27"],
			["Asia/Kathmandu", "2026-11-27T18:15:00.000Z", "2026-11-28"],
			// Samoa skipped 2011-12-30 when it crossed the date line: that period never exists.
			["Pacific/Apia", "2011-12-30T09:59:59.999Z", "2011-12-29"],
			["Pacific/Apia", "2011-12-30T10:00:00.000Z", "2011-12-31"],
		];
		for (const [zone, iso, period] of cases) {
			expect([zone, iso, periodOf(at(iso), "daily", zone)]).toEqual([zone, iso, period]);
		}
	});

	it("starts a year and a month at the zone's midnight, not UTC's", () => {
		// Lord Howe is at +11 in its summer: 2027 starts there at 13:00 UTC on 2026-12-31.
		expect(periodOf(at("2026-12-31T12:59:59.999Z"), "yearly", "Australia/Lord_Howe")).toBe("2026");
		expect(periodOf(at("2026-12-31T13:00:00.000Z"), "yearly", "Australia/Lord_Howe")).toBe("2027");
		expect(periodOf(at("2026-12-01T04:59:59.999Z"), "monthly", "America/New_York")).toBe("2026-11");
		expect(periodOf(at("2026-12-01T05:00:00.000Z"), "monthly", "America/New_York")).toBe("2026-12");
	});

	it("refuses a clock reading that is no time (retryable), whatever the reset", () => {
		for (const reading of [Number.NaN, Number.POSITIVE_INFINITY, -1, 8.64e15 + 1]) {
			expect(() => periodOf(reading, "daily", "UTC")).toThrow(
				expect.objectContaining({ code: "clock_regression", retryAfterSeconds: 1 }),
			);
			expect(() => readClock(reading)).toThrow(`the clock read ${reading}, not a time`);
		}
		expect(periodOf(0, "daily", "UTC")).toBe("1970-01-01");
		expect(periodOf(8.64e15, "yearly", "UTC")).toBe("275760");
	});
});

describe("comparePeriods", () => {
	it("orders labels by their numbers, with no period before all", () => {
		expect(comparePeriods("2026-11-27", "2026-11-28")).toBeLessThan(0);
		expect(comparePeriods("2026-12-01", "2026-11-30")).toBeGreaterThan(0);
		expect(comparePeriods("2026-11", "2026-11")).toBe(0);
		expect(comparePeriods("9999", "10000")).toBeLessThan(0);
		expect(comparePeriods(null, "2026")).toBeLessThan(0);
		expect(comparePeriods("2026", null)).toBeGreaterThan(0);
		expect(comparePeriods(null, null)).toBe(0);
	});
});
