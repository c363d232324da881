/** The chaos run's choice of the zone whose midnight comes soonest (scripts/load/soonest-midnight.ts). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nextMidnightIn, soonestMidnight } from "../../scripts/load/soonest-midnight";
import { periodOf } from "../../src/ids/sequences/periods";

const at = (iso: string) => Date.parse(iso);
const ODD_ZONES = [
	"Etc/GMT-5",
	"Asia/Kolkata",
	"Asia/Kathmandu",
	"Australia/Eucla",
	"America/St_Johns",
	"Pacific/Chatham",
];

describe("soonestMidnight", () => {
	it("picks half- and three-quarter-hour zones when their midnight comes first", () => {
		const now = at("2026-11-28T18:00:00Z");
		expect(soonestMidnight(now, 60_000, ODD_ZONES)).toEqual({
			timeZone: "Asia/Kathmandu",
			midnightMs: at("2026-11-28T18:15:00Z"),
			offsetMinutes: 345,
		});
		// Kathmandu's midnight inside the lead: Kolkata's (UTC+5:30) is next.
		expect(soonestMidnight(at("2026-11-28T18:14:30Z"), 60_000, ODD_ZONES)).toEqual({
			timeZone: "Asia/Kolkata",
			midnightMs: at("2026-11-28T18:30:00Z"),
			offsetMinutes: 330,
		});
		expect(soonestMidnight(at("2026-11-28T02:40:00Z"), 60_000, ODD_ZONES)).toEqual({
			timeZone: "America/St_Johns",
			midnightMs: at("2026-11-28T03:30:00Z"),
			offsetMinutes: -210,
		});
		expect(soonestMidnight(at("2026-11-28T15:00:00Z"), 60_000, ODD_ZONES).timeZone).toBe(
			"Australia/Eucla",
		);
		// Chatham keeps daylight time in November: UTC+13:45.
		expect(soonestMidnight(at("2026-11-28T10:00:00Z"), 0, ODD_ZONES)).toEqual({
			timeZone: "Pacific/Chatham",
			midnightMs: at("2026-11-28T10:15:00Z"),
			offsetMinutes: 825,
		});
	});

	it("wants a midnight strictly after now plus the lead", () => {
		expect(soonestMidnight(at("2026-11-28T23:59:00Z"), 60_000, ["UTC"]).midnightMs).toBe(
			at("2026-11-30T00:00:00Z"),
		);
		expect(soonestMidnight(at("2026-11-28T23:58:59.999Z"), 60_000, ["UTC"]).midnightMs).toBe(
			at("2026-11-29T00:00:00Z"),
		);
	});

	it("follows a DST change before the midnight, and passes over a midnight DST skips", () => {
		// London goes to UTC+1 at 01:00 UTC on 29 March 2026: its next midnight is 23:00 UTC.
		expect(nextMidnightIn("Europe/London", at("2026-03-29T00:30:00Z"))).toEqual({
			timeZone: "Europe/London",
			midnightMs: at("2026-03-29T23:00:00Z"),
			offsetMinutes: 60,
		});
		// Havana's clocks go from 00:00 to 01:00 on 8 March 2026: that day has no midnight.
		expect(nextMidnightIn("America/Havana", at("2026-03-07T12:00:00Z"))).toBeUndefined();
		expect(soonestMidnight(at("2026-03-08T04:30:00Z"), 0, ["America/Havana", "Etc/GMT+5"])).toEqual(
			{ timeZone: "Etc/GMT+5", midnightMs: at("2026-03-08T05:00:00Z"), offsetMinutes: -300 },
		);
	});

	it("refuses a clock reading that is not finite", () => {
		expect(() => soonestMidnight(Number.NaN, 0, ["UTC"])).toThrow(/finite/);
		expect(() => soonestMidnight(0, Number.POSITIVE_INFINITY, ["UTC"])).toThrow(/finite/);
	});

	it("over all zones: within the hour after the lead, where the service's period changes", () => {
		fc.assert(
			fc.property(
				fc.integer({ min: at("2026-01-01T00:00:00Z"), max: at("2027-01-01T00:00:00Z") }),
				fc.integer({ min: 0, max: 120_000 }),
				(now, lead) => {
					const { timeZone, midnightMs } = soonestMidnight(now, lead);
					expect(midnightMs).toBeGreaterThan(now + lead);
					expect(midnightMs - (now + lead)).toBeLessThanOrEqual(3_600_000);
					expect(periodOf(midnightMs, "daily", timeZone)).not.toBe(
						periodOf(midnightMs - 1, "daily", timeZone),
					);
				},
			),
			{ numRuns: 40 },
		);
	});
});
