/**
 * Reading one wrangler var as the Worker receives it. A quoted TOML value arrives as
 * a string; an unquoted one as its JSON value (`MAX_BATCH = 500` is the number 500,
 * `REQUEST_LOG = false` a boolean, `LEASE_MS = [1]` an array). Each reader takes the
 * types its setting can be written in and refuses any other with an `invalid_config`
 * naming the variable, what it allows and, for a value of another type, its kind
 * (never the value), so that ./config.ts can list every problem in one answer.
 * Hand-written checks, no schemas: a new isolate reads every var before its first
 * answer.
 *
 *   integerVar("MAX_BATCH", 500, 10_000, 1, 100_000);    // 500
 *   integerVar("MAX_BATCH", " 500 ", 10_000, 1, 100_000); // 500
 *   integerVar("MAX_BATCH", true, 10_000, 1, 100_000);
 *   // invalid_config: MAX_BATCH must be an integer in [1, 100000], a number or decimal digits; got a boolean
 */
import { IdError } from "../../ids/errors";

const DIGITS = /^[0-9]+$/;

/** A value's kind, for messages: "a boolean", "an array", … */
export function kindOf(raw: unknown): string {
	if (raw === null) return "null";
	if (Array.isArray(raw)) return "an array";
	const type = typeof raw;
	return type === "object" || type === "undefined" ? `an ${type}` : `a ${type}`;
}

/**
 * What a message says of a value: nothing for text and numbers (the rule says what
 * is allowed), the kind of any other. Never the value itself: a var may hold a
 * secret put in the wrong place.
 */
export function gotKind(raw: unknown): string {
	return typeof raw === "string" || typeof raw === "number" ? "" : `; got ${kindOf(raw)}`;
}

function invalid(detail: string): IdError {
	return new IdError("invalid_config", detail);
}

/** Unset, or an empty string: the setting's default applies. */
export function isUnset(raw: unknown): boolean {
	return raw === undefined || raw === "";
}

/** An integer in `[min, max]`, given as a number or as decimal digits (blanks around them allowed). */
export function integerVar(
	name: string,
	raw: unknown,
	fallback: number,
	min: number,
	max: number,
): number {
	if (isUnset(raw)) return fallback;
	let value = Number.NaN;
	if (typeof raw === "number") value = raw;
	else if (typeof raw === "string" && DIGITS.test(raw.trim())) value = Number(raw.trim());
	if (Number.isInteger(value) && value >= min && value <= max) return value;
	throw invalid(
		`${name} must be an integer in [${min}, ${max}], a number or decimal digits${gotKind(raw)}`,
	);
}

/** Text (trimmed), or undefined when unset; `rule` says what the text holds. */
export function textVar(name: string, raw: unknown, rule: string): string | undefined {
	if (isUnset(raw)) return undefined;
	if (typeof raw === "string") return raw.trim() || undefined;
	throw invalid(`${name} must be text (a quoted string): ${rule}; got ${kindOf(raw)}`);
}

/** A secret's text, or undefined when unset; a message never shows its value. */
export function secretVar(name: string, raw: unknown): string | undefined {
	if (isUnset(raw)) return undefined;
	if (typeof raw === "string") return raw;
	throw invalid(`${name} must be text (a secret's value); got ${kindOf(raw)}`);
}

/** "on" or "off", or a boolean (true: on). */
export function switchVar(name: string, raw: unknown, fallback: boolean): boolean {
	if (isUnset(raw)) return fallback;
	if (typeof raw === "boolean") return raw;
	const text = typeof raw === "string" ? raw.trim() : undefined;
	if (text === "") return fallback;
	if (text === "on" || text === "off") return text === "on";
	throw invalid(`${name} must be "on" or "off" (or true or false)${gotKind(raw)}`);
}

/** Every var the service reads: wrangler.toml's [vars] and its secrets. */
const VAR_NAMES = [
	"SNOWFLAKE_EPOCH",
	"SNOWFLAKE_TIME_BITS",
	"SNOWFLAKE_WORKER_BITS",
	"SNOWFLAKE_SEQUENCE_BITS",
	"SNOWFLAKE_TIME_UNIT_MS",
	"MAX_BATCH",
	"MAX_CLOCK_BACKWARD_MS",
	"LEASE_MS",
	"MAX_BORROW_MS",
	"MAX_WAIT_MS",
	"AUTO_WORKER_IDS",
	"WORKER_IDS",
	"AUTO_REGIONS",
	"LEASE_WORKER_IDS",
	"LEASE_SPAN_MS",
	"LEASE_GRACE_MS",
	"LEASE_ACQUIRE_LIMIT",
	"POOL_MAX_AGE_MS",
	"POOL_MAX_SIZE",
	"MAX_BLOCK_COUNT",
	"CORS_ORIGINS",
	"API_TOKEN",
	"API_TOKEN_NEXT",
	"REQUEST_LOG",
	"RATE_LIMIT_PERIOD",
	"TRUST_CF_CONNECTING_IP",
	"METRICS_SEQUENCES",
] as const;
export type VarName = (typeof VAR_NAMES)[number];
/** The vars as wrangler hands them over: strings, or JSON values when unquoted (./vars.ts). */
export type ConfigVars = Partial<Record<VarName, unknown>>;
