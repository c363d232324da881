/**
 * The ID bounds of a time window, for range queries on an ID column: every ID of a
 * kind whose time lies in `[from, to)` lies in `[min, max]` — by number for decimal
 * Snowflakes, by text for the others (base32 Snowflakes, ULIDs, UUIDv7s and TypeIDs
 * sort as text the way their numbers do) — and the bounds are the tightest the
 * format allows: `min` and `max` are themselves possible IDs of the window.
 *
 *   idBounds({ kind: "ulid", from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z" });
 *   // { min: "01JZ…0000000000000000", max: "01JZ…ZZZZZZZZZZZZZZZZ" }
 *   // SELECT … WHERE id BETWEEN min AND max
 *
 * A Snowflake's time is `epoch + tick × timeUnitMs`: with a 10 ms tick the window
 * holds the ticks that *start* in it. Borrowed time changes nothing here: an ID's
 * time is the tick it carries, whenever it was issued.
 */

import { describeValue, IdError } from "../errors";
import { BOUNDS_KINDS, type BoundsKind, TIME_RULE } from "../field-rules";
import { encodeTime, MAX_TIMESTAMP_MS } from "../forms/crockford";
import { checkPrefix, typeIdSuffix, withPrefix } from "../forms/typeid";
import { parseUuid } from "../forms/uuid";
import { type SnowflakeFormat, snowflakeText, snowflakeTextForm } from "../snowflake/base32";
import { MAX_DATE_MS, type SnowflakeLayout } from "../snowflake/layout";
import { readIsoTime } from "./iso-time";

export { BOUNDS_KINDS, type BoundsKind, TIME_RULE };

/** A time: Unix milliseconds, a Date, or text (decimal Unix ms, or ISO 8601 with a zone). */
export type TimeInput = number | Date | string;

export interface IdBoundsOptions {
	kind: BoundsKind;
	/** The window's start, included. */
	from: TimeInput;
	/** The window's end, excluded. */
	to: TimeInput;
	/** kind snowflake: the layout the IDs were issued under (required). */
	layout?: SnowflakeLayout;
	/** kind snowflake: only this worker ID's IDs (narrower bounds). */
	workerId?: number;
	/** kind snowflake: decimal (default) or base32 bounds. */
	format?: SnowflakeFormat;
	/** kind typeid (and snowflake, implying base32): the IDs' prefix. */
	prefix?: string;
}

export interface IdBounds {
	min: string;
	max: string;
	/** The window's start and end as read (Unix ms). */
	fromMs: number;
	toMs: number;
}

/**
 * Reads one end of a window as Unix ms (ISO text exactly: `readIsoTime`); throws
 * `invalid_range` naming `name`, the value, what is wrong with it where that is known,
 * and the forms accepted.
 */
export function readTime(name: string, value: unknown): number {
	let ms = Number.NaN;
	let problem: string | undefined;
	if (typeof value === "number") ms = value;
	else if (value instanceof Date) ms = value.getTime();
	else if (typeof value === "string" && /^[0-9]{1,16}$/.test(value)) ms = Number(value);
	else if (typeof value === "string") {
		const read = readIsoTime(value);
		if (read && "ms" in read) ms = read.ms;
		else if (read) problem = read.problem;
		// A + sent unencoded in a query string arrives as a space.
		else if (/\d \d{2}:\d{2}$/.test(value)) problem = "a + in a query string is written %2B";
	}
	if (Number.isSafeInteger(ms) && Math.abs(ms) <= MAX_DATE_MS) return ms;
	const why = problem ? ` (${problem})` : "";
	throw new IdError(
		"invalid_range",
		`${name} must be ${TIME_RULE}; got ${describeValue(value)}${why}`,
	);
}

function invalidRange(detail: string): IdError {
	return new IdError("invalid_range", detail);
}

/** ⌈a / b⌉ for integers (b > 0), exact for |a| < 2^53. */
function ceilDiv(a: number, b: number): number {
	let q = Math.floor(a / b);
	// Stryker disable next-line EqualityOperator: with <=, the loop below takes the extra step back
	while (q * b < a) q++;
	// Stryker disable next-line all: a / b is never rounded up to an integer below 2^53 (|a| ≤ 8.64e15), so this never runs
	while ((q - 1) * b >= a) q--;
	return q;
}

/**
 * The tightest `[min, max]` holding every ID of `options.kind` with a time in
 * `[from, to)`. Throws `invalid_range` for an unreadable or reversed window or
 * one the kind's time range does not reach (a window reaching past either end is
 * cut to it), `invalid_prefix`, `invalid_format` or `invalid_worker_id` for
 * options the kind does not take.
 */
export function idBounds(options: IdBoundsOptions): IdBounds {
	const { kind } = options;
	if (!BOUNDS_KINDS.includes(kind)) {
		throw invalidRange(
			`kind must be one of ${BOUNDS_KINDS.join(", ")}; got ${describeValue(kind)}`,
		);
	}
	const fromMs = readTime("from", options.from);
	const toMs = readTime("to", options.to);
	if (fromMs >= toMs) {
		throw invalidRange(
			`from must be before to (the window is [from, to)); got from ${new Date(fromMs).toISOString()}, to ${new Date(toMs).toISOString()}`,
		);
	}
	if (kind !== "snowflake") {
		if (options.workerId !== undefined) {
			throw new IdError(
				"invalid_worker_id",
				`workerId applies to kind=snowflake only; got kind=${kind}`,
			);
		}
		if (options.format !== undefined) {
			throw new IdError(
				"invalid_format",
				`format applies to kind=snowflake only; got kind=${kind}`,
			);
		}
	}
	if ((kind === "ulid" || kind === "uuidv7") && options.prefix !== undefined) {
		throw new IdError(
			"invalid_prefix",
			`prefix applies to kind=typeid and kind=snowflake only; got kind=${kind}`,
		);
	}
	const window = { fromMs, toMs };
	if (kind === "snowflake") return { ...snowflakeBounds(options, fromMs, toMs), ...window };
	const { first, last } = millisecondsIn(kind, fromMs, toMs);
	if (kind === "ulid") {
		return {
			min: `${encodeTime(first)}${"0".repeat(16)}`,
			max: `${encodeTime(last)}${"Z".repeat(16)}`,
			...window,
		};
	}
	const min = uuidv7Bound(first, "7000-8000-000000000000");
	const max = uuidv7Bound(last, "7fff-bfff-ffffffffffff");
	if (kind === "uuidv7") return { min, max, ...window };
	const prefix = checkPrefix(options.prefix) ?? "";
	return {
		min: withPrefix(prefix, typeIdSuffix(parseUuid(min).bytes)),
		max: withPrefix(prefix, typeIdSuffix(parseUuid(max).bytes)),
		...window,
	};
}

/** The first and last millisecond of `[from, to)` a 48-bit time can hold. */
function millisecondsIn(kind: string, fromMs: number, toMs: number) {
	const first = Math.max(0, fromMs);
	const last = Math.min(MAX_TIMESTAMP_MS, toMs - 1);
	if (first > last) {
		throw invalidRange(
			`a ${kind}'s time is a 48-bit Unix millisecond count, from 1970-01-01T00:00:00.000Z to 10889-08-02T05:31:50.655Z; the window [${new Date(fromMs).toISOString()}, ${new Date(toMs).toISOString()}) lies outside it`,
		);
	}
	return { first, last };
}

/** A UUIDv7 with time `ms` and the rest as given (`ver+rand_a`-`var+rand_b`-…). */
function uuidv7Bound(ms: number, rest: string): string {
	const hex = ms.toString(16).padStart(12, "0");
	return `${hex.slice(0, 8)}-${hex.slice(8)}-${rest}`;
}

function snowflakeBounds(options: IdBoundsOptions, fromMs: number, toMs: number) {
	const { layout, workerId } = options;
	if (!layout) throw new IdError("invalid_config", "kind=snowflake needs the layout its IDs use");
	const form = snowflakeTextForm(options.format, options.prefix);
	if (
		workerId !== undefined &&
		!(Number.isInteger(workerId) && workerId >= 0 && workerId <= layout.maxWorkerId)
	) {
		throw new IdError(
			"invalid_worker_id",
			`workerId must be an integer in [0, ${layout.maxWorkerId}] (the layout's worker field); got ${describeValue(workerId)}`,
		);
	}
	// The ticks that start in [from, to), cut to the layout's [0, tickLimit).
	const firstTick = Math.max(0, ceilDiv(fromMs - layout.epoch, layout.timeUnitMs));
	const lastTick = Math.min(
		layout.tickLimit - 1,
		ceilDiv(toMs - layout.epoch, layout.timeUnitMs) - 1,
	);
	if (firstTick > lastTick) {
		const starts =
			layout.timeUnitMs > 1
				? ` (a tick starts every ${layout.timeUnitMs} ms from the epoch; none starts in this window)`
				: "";
		throw invalidRange(
			`the layout's IDs carry times from ${new Date(layout.epoch).toISOString()} (its epoch) until ${new Date(layout.exhaustsAt).toISOString()}${starts}; the window [${new Date(fromMs).toISOString()}, ${new Date(toMs).toISOString()}) holds none`,
		);
	}
	const min = layout.compose({ tick: firstTick, workerId: workerId ?? 0, sequence: 0 });
	const max = layout.compose({
		tick: lastTick,
		workerId: workerId ?? layout.maxWorkerId,
		sequence: layout.maxSequence,
	});
	return { min: snowflakeText(min, form), max: snowflakeText(max, form) };
}
