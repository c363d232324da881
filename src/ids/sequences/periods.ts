/**
 * Periods of sequences that start again: the date of a clock reading in the
 * sequence's time zone, cut to the reset's length, computed with
 * Intl.DateTimeFormat (so DST changes and odd offsets are the runtime's tz data,
 * not ours). Labels compare by their numbers; the rules (./counter.ts) keep the
 * later of the stored and the computed period, so a clock that steps back across
 * midnight never reopens a period.
 *
 *   periodOf(Date.UTC(2026, 10, 27, 23, 30), "daily", "UTC");              // "2026-11-27"
 *   periodOf(Date.UTC(2026, 10, 27, 23, 30), "daily", "Asia/Kathmandu");   // "2026-11-28" (UTC+5:45)
 *   periodOf(Date.UTC(2026, 10, 27), "monthly", "UTC");                    // "2026-11"
 *   periodOf(Date.UTC(2026, 10, 27), "never", "UTC");                      // null
 */
import { MAX_DATE_MS } from "../snowflake/layout";
import { SequenceRefusal } from "./refusals";
import type { SequenceReset } from "./settings";

/** One formatter per time zone: making one costs far more than formatting with it. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
	let formatter = formatters.get(timeZone);
	if (!formatter) {
		formatter = new Intl.DateTimeFormat("en-US", {
			timeZone,
			calendar: "gregory",
			numberingSystem: "latn",
			year: "numeric",
			month: "2-digit",
			day: "2-digit",
		});
		formatters.set(timeZone, formatter);
	}
	return formatter;
}

/**
 * `reading` when it is a usable clock reading (finite, in [0, year 275760]), else
 * `clock_regression` (retryable): a faulty clock dates nothing and issues nothing.
 */
export function readClock(reading: number): number {
	if (Number.isFinite(reading) && reading >= 0 && reading <= MAX_DATE_MS) return reading;
	throw new SequenceRefusal(
		"clock_regression",
		`the clock read ${reading}, not a time between 1970 and year 275760; refused as a clock that went back is; retry later`,
		1,
	);
}

/**
 * The period `ms` (Unix milliseconds) falls in, in `timeZone`: "YYYY-MM-DD" for
 * daily, "YYYY-MM" for monthly, "YYYY" for yearly, null for never. `timeZone` is
 * one `checkSequenceSettings` accepted.
 */
export function periodOf(ms: number, reset: SequenceReset, timeZone: string): string | null {
	if (reset === "never") return null;
	const parts = formatterFor(timeZone).formatToParts(readClock(ms));
	const part = (type: Intl.DateTimeFormatPartTypes) =>
		parts.find((p) => p.type === type)?.value ?? "";
	const year = part("year").padStart(4, "0");
	if (reset === "yearly") return year;
	if (reset === "monthly") return `${year}-${part("month")}`;
	return `${year}-${part("month")}-${part("day")}`;
}

/**
 * Negative when period `a` comes before `b`, 0 when they are the same, positive
 * after; null (no reset) comes before every label. By numbers, so year 10000
 * follows 9999.
 */
export function comparePeriods(a: string | null, b: string | null): number {
	if (a === b) return 0;
	if (a === null) return -1;
	if (b === null) return 1;
	const left = a.split("-").map(Number);
	const right = b.split("-").map(Number);
	for (let i = 0; i < Math.max(left.length, right.length); i++) {
		const difference = (left[i] ?? 0) - (right[i] ?? 0);
		if (difference !== 0) return difference;
	}
	return 0;
}
