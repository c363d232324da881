/**
 * ISO 8601 times read exactly, for the ends of a time window. Written by hand
 * because `Date.parse` is not exact for this: it floors fractions beyond the
 * millisecond (a window's end then drops its last millisecond) and rolls impossible
 * dates over (2026-02-30 reads as March 2nd).
 *
 *   readIsoTime("2026-11-01T00:00:00.000500+00:00"); // { ms: 1793491200001 }: rounded up
 *   readIsoTime("2026-02-30");                       // { problem: "2026-02 has 28 days" }
 *
 * A fraction beyond the millisecond rounds *up*: an ID of millisecond m is at or
 * after the instant t exactly when m ≥ ⌈t⌉, so ⌈from⌉ and ⌈to⌉ bound the same IDs
 * as the instants written.
 */

/** ISO 8601 with a zone (Z or ±hh:mm), or a date alone (UTC midnight); seconds and 1-9 fraction digits optional. */
const ISO_TIME =
	/^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|([+-])(\d{2}):(\d{2})))?$/i;

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** An instant in Unix ms; or why the text names none (`problem`), or is not this shape (`undefined`). */
export type IsoReading = { ms: number } | { problem: string } | undefined;

export function readIsoTime(text: string): IsoReading {
	const parts = ISO_TIME.exec(text);
	if (!parts) return undefined;
	const [, year, month, day, hour = "00", minute = "00", second = "00", fraction = ""] = parts;
	const [sign, offsetHour = "00", offsetMinute = "00"] = parts.slice(8);
	const problem =
		dateProblem(Number(year), Number(month), Number(day), year as string) ??
		timeProblem(hour, minute, second, fraction) ??
		(Number(offsetHour) > 23 || Number(offsetMinute) > 59
			? `offset ${sign}${offsetHour}:${offsetMinute} is not one (hours 00-23, minutes 00-59)`
			: undefined);
	if (problem) return { problem };
	// setUTCFullYear, not Date.UTC: Date.UTC reads the years 0-99 as 1900-1999.
	const midnight = new Date(0).setUTCFullYear(Number(year), Number(month) - 1, Number(day));
	const nanos = fraction.padEnd(9, "0");
	const roundUp = /[1-9]/.test(nanos.slice(3)) ? 1 : 0;
	const offsetMs =
		(sign === "-" ? -1 : 1) * (Number(offsetHour) * HOUR_MS + Number(offsetMinute) * MINUTE_MS);
	const ms =
		midnight +
		Number(hour) * HOUR_MS +
		Number(minute) * MINUTE_MS +
		Number(second) * 1000 +
		Number(nanos.slice(0, 3)) +
		roundUp -
		offsetMs;
	return { ms };
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function dateProblem(
	year: number,
	month: number,
	day: number,
	yearText: string,
): string | undefined {
	if (month < 1 || month > 12) return `month ${pad(month)} does not exist`;
	const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
	const days = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number);
	if (day === 0) return "day 00 does not exist";
	if (day > days) return `${yearText}-${pad(month)} has ${days} days`;
	return undefined;
}

function timeProblem(
	hour: string,
	minute: string,
	second: string,
	fraction: string,
): string | undefined {
	if (hour === "24") {
		// The end of a day (ISO 8601-1:2004, and ECMAScript): 24:00 exactly, nothing past it.
		return minute === "00" && second === "00" && !/[1-9]/.test(fraction)
			? undefined
			: "hour 24 is only 24:00:00, the end of the day";
	}
	if (Number(hour) > 23)
		return `hour ${hour} does not exist (00-23, or 24:00 for the end of a day)`;
	if (Number(minute) > 59) return `minute ${minute} does not exist (00-59)`;
	if (Number(second) > 59)
		return `second ${second} is not read (00-59; leap seconds are not counted in Unix time)`;
	return undefined;
}

const pad = (n: number) => String(n).padStart(2, "0");
