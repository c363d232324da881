/**
 * The time zone whose next local midnight comes soonest after a moment: what the
 * named sequences' chaos run (./sequence-chaos.ts) gives its daily sequence, so a
 * run crosses a real midnight within the hour instead of waiting for one of UTC.
 * Every IANA zone the runtime knows is a candidate, half- and three-quarter-hour
 * ones included (Asia/Kolkata, Asia/Kathmandu, Australia/Eucla, America/St_Johns).
 *
 *   soonestMidnight(Date.UTC(2026, 10, 28, 18, 0), 60_000);
 *   // { timeZone: "Asia/Kathmandu", midnightMs: Date.UTC(2026, 10, 28, 18, 15), offsetMinutes: 345 }
 *
 * Whole-hour offsets put a midnight at every full hour of UTC, the others add some
 * at :15 and :30, so the wait is under an hour; `midnightMs` is checked by
 * formatting it (a zone whose offset changes before its midnight is still right,
 * one whose midnight a DST change skips is passed over).
 */

const DAY_MS = 86_400_000;

export interface ZoneMidnight {
	timeZone: string;
	/** The first instant of the zone's next local day (Unix ms). */
	midnightMs: number;
	/** The zone's offset from UTC at that midnight, in minutes (+345 for UTC+5:45). */
	offsetMinutes: number;
}

/** Every field of a date and time, as numbers in the Gregorian calendar, hours 0-23. */
const WALL_CLOCK: Intl.DateTimeFormatOptions = Object.fromEntries([
	["calendar", "gregory"],
	["numberingSystem", "latn"],
	["hourCycle", "h23"],
	...["year", "month", "day", "hour", "minute", "second"].map((field) => [field, "numeric"]),
]);
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's wall clock at `ms`, as if it were UTC (Unix ms): its offset is the difference. */
function wallClock(timeZone: string, ms: number): number {
	let formatter = formatters.get(timeZone);
	if (!formatter) {
		formatter = new Intl.DateTimeFormat("en-US", { ...WALL_CLOCK, timeZone });
		formatters.set(timeZone, formatter);
	}
	const part: Record<string, number> = {};
	for (const { type, value } of formatter.formatToParts(ms)) part[type] = Number(value);
	const wall = Date.UTC(
		part.year ?? 0,
		(part.month ?? 1) - 1,
		part.day ?? 1,
		part.hour ?? 0,
		part.minute ?? 0,
		part.second ?? 0,
	);
	return wall + (ms % 1000);
}

/** The zone's next midnight after `afterMs`, or undefined when a DST change skips it. */
export function nextMidnightIn(timeZone: string, afterMs: number): ZoneMidnight | undefined {
	const offsetNow = wallClock(timeZone, afterMs) - afterMs;
	const localMidnight = (Math.floor((afterMs + offsetNow) / DAY_MS) + 1) * DAY_MS;
	// The offset at that midnight may differ from now's (a DST change in between).
	const candidates = [localMidnight - offsetNow];
	const offsetThen = wallClock(timeZone, candidates[0] as number) - (candidates[0] as number);
	if (offsetThen !== offsetNow) candidates.push(localMidnight - offsetThen);
	for (const midnightMs of candidates) {
		const offset = wallClock(timeZone, midnightMs) - midnightMs;
		if (midnightMs > afterMs && midnightMs + offset === localMidnight) {
			return { timeZone, midnightMs, offsetMinutes: offset / 60_000 };
		}
	}
	return undefined;
}

/**
 * Of `zones`, the one whose next midnight falls soonest after `nowMs + leadMs`
 * (the first in `zones`' order on a tie). The lead keeps the crossing out of the
 * run's start-up.
 */
export function soonestMidnight(
	nowMs: number,
	leadMs: number,
	zones: readonly string[] = Intl.supportedValuesOf("timeZone"),
): ZoneMidnight {
	if (!Number.isFinite(nowMs) || !Number.isFinite(leadMs)) {
		throw new RangeError(`soonestMidnight needs finite times; got now ${nowMs}, lead ${leadMs}`);
	}
	let best: ZoneMidnight | undefined;
	for (const timeZone of zones) {
		const next = nextMidnightIn(timeZone, nowMs + leadMs);
		if (next && (!best || next.midnightMs < best.midnightMs)) best = next;
	}
	if (!best) throw new RangeError(`no midnight found in ${zones.length} time zones`);
	return best;
}
