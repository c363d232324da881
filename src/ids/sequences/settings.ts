/**
 * A sequence's settings, checked once when it is created: where it starts, how it
 * issues (`ordered` from the object, `pooled` from isolate segments), when it starts
 * again (`reset`) and in which time zone its periods are dated. Equality decides the
 * idempotent create: the same settings again is a success, others `sequence_exists`.
 *
 *   const settings = checkSequenceSettings({ start: 1000, reset: "daily", timeZone: "Europe/Berlin" });
 *   // { start: 1000n, mode: "ordered", reset: "daily", timeZone: "Europe/Berlin" }
 *   sameSettings(settings, checkSequenceSettings(settingsView(settings))); // true
 *   checkSequenceSettings({ mode: "fast" }); // throws invalid_sequence_options naming mode and what is allowed
 */

import { describeValue } from "../errors";
import { readSequenceNumber } from "./numbers";
import { SequenceRefusal } from "./refusals";

export const SEQUENCE_MODES = ["ordered", "pooled"] as const;
export type SequenceMode = (typeof SEQUENCE_MODES)[number];

export const SEQUENCE_RESETS = ["never", "daily", "monthly", "yearly"] as const;
export type SequenceReset = (typeof SEQUENCE_RESETS)[number];

/** Validated settings, as the rules read them. */
export interface SequenceSettings {
	/** The first number, and the first of every new period. */
	start: bigint;
	mode: SequenceMode;
	reset: SequenceReset;
	/** An IANA time zone name as the caller wrote it (e.g. "UTC", "Asia/Kathmandu"). */
	timeZone: string;
}

/** Settings as they travel and are stored (JSON): `start` as a decimal string. */
export interface SequenceSettingsView {
	start: string;
	mode: SequenceMode;
	reset: SequenceReset;
	timeZone: string;
}

const FIELDS = ["start", "mode", "reset", "timeZone"] as const;

/** Longer than any IANA name (the longest is 32 characters). */
const MAX_TIME_ZONE_LENGTH = 64;
/** IANA names: letters, digits, `_ + - /`, starting with a letter (not an offset like "+05:30"). */
const TIME_ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]*$/;

function refused(detail: string): SequenceRefusal {
	return new SequenceRefusal("invalid_sequence_options", detail);
}

function oneOf<T extends string>(field: string, allowed: readonly T[], value: unknown): T {
	if ((allowed as readonly unknown[]).includes(value)) return value as T;
	const names = allowed.map((name) => `"${name}"`).join(", ");
	throw refused(`${field} must be one of ${names}; got ${describeValue(value)}`);
}

/**
 * `value` when it is an IANA time zone name Intl knows (matched without regard to
 * case), as the caller wrote it, else `invalid_sequence_options` naming what is
 * allowed. Kept as written because runtimes spell the same zone differently
 * (Node 24 resolves "Asia/Kathmandu" to "Asia/Katmandu"); `sameSettings` compares
 * zones by what they resolve to.
 */
export function checkTimeZone(value: unknown): string {
	if (
		typeof value === "string" &&
		value.length <= MAX_TIME_ZONE_LENGTH &&
		TIME_ZONE_NAME.test(value) &&
		resolvedZone(value) !== undefined
	) {
		return value;
	}
	throw refused(
		`timeZone must be an IANA time zone name such as "UTC", "Europe/London" or "Asia/Kathmandu"; got ${describeValue(value)}`,
	);
}

/** The zone `name` resolves to in this runtime (links and case folded), or undefined for no zone. */
function resolvedZone(name: string): string | undefined {
	try {
		return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
	} catch {
		// RangeError: a name Intl does not know.
		return undefined;
	}
}

/**
 * Settings from what a caller sent (`undefined` for all defaults): `start` an
 * integer in [0, 2^63 − 1] (default 1), `mode` (default "ordered"), `reset`
 * (default "never"), `timeZone` (default "UTC"). Unknown fields are refused.
 */
export function checkSequenceSettings(input: unknown): SequenceSettings {
	if (input === undefined || input === null) input = {};
	if (typeof input !== "object" || Array.isArray(input)) {
		throw refused(
			`the settings must be a JSON object with ${FIELDS.join(", ")}; got ${describeValue(input)}`,
		);
	}
	const fields = input as Record<string, unknown>;
	for (const field of Object.keys(fields)) {
		if (!(FIELDS as readonly string[]).includes(field)) {
			throw refused(
				`${describeValue(field)} is not a setting; the settings are ${FIELDS.join(", ")}`,
			);
		}
	}
	return {
		start: fields.start === undefined ? 1n : readSequenceNumber("start", fields.start),
		mode: fields.mode === undefined ? "ordered" : oneOf("mode", SEQUENCE_MODES, fields.mode),
		reset: fields.reset === undefined ? "never" : oneOf("reset", SEQUENCE_RESETS, fields.reset),
		timeZone: fields.timeZone === undefined ? "UTC" : checkTimeZone(fields.timeZone),
	};
}

/**
 * Whether a create with `asked` finds the sequence it made before (`stored`):
 * zones are the same when they resolve to the same zone ("utc" and "UTC",
 * "Asia/Calcutta" and "Asia/Kolkata").
 */
export function sameSettings(stored: SequenceSettings, asked: SequenceSettings): boolean {
	return (
		stored.start === asked.start &&
		stored.mode === asked.mode &&
		stored.reset === asked.reset &&
		(stored.timeZone === asked.timeZone ||
			resolvedZone(stored.timeZone) === resolvedZone(asked.timeZone))
	);
}

/** The settings as JSON carries and stores them. */
export function settingsView(settings: SequenceSettings): SequenceSettingsView {
	return { ...settings, start: `${settings.start}` };
}

/** Returned when a create names an existing sequence with other settings: the message shows the stored ones. */
export function sequenceExists(name: string, stored: SequenceSettings): SequenceRefusal {
	return new SequenceRefusal(
		"sequence_exists",
		`sequence "${name}" exists with other settings: ${JSON.stringify(settingsView(stored))}; send those settings to use it, or create a sequence with another name`,
	);
}
