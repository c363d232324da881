/**
 * Reading Snowflake-like IDs of other systems: named presets (Twitter, Discord,
 * Sonyflake, Instagram) or explicit widths. Decoding only: these may use all 64
 * bits (Discord, Instagram) and put their fields in their own order (Sonyflake:
 * sequence before machine ID), which the generator's `SnowflakeLayout` (63 bits,
 * time | worker | sequence) does not allow.
 *
 *   decodeForeign("175928847299117063", DECODE_PRESETS.discord);
 *   // { type: "snowflake", layout: "discord", timestamp: 1462015105796,
 *   //   time: "2016-04-30T11:18:25.796Z", workerId: 1, processId: 0, increment: 7, … }
 */
import { isoTime } from "../clock";
import { IdError } from "../errors";
import { PRESET_NAMES, type PresetName } from "../field-rules";
import { MAX_DATE_MS, splitTwitterWorkerId, TWITTER_LAYOUT } from "../snowflake/layout";

export { PRESET_NAMES, type PresetName };

/** A field below the time, from high bits to low. */
export interface ForeignField {
	name: string;
	bits: number;
}

/** How another system cuts its 63 or 64 bits: time first, then `fields`, high to low. */
export interface ForeignLayout {
	/** The preset's name, or "custom". */
	name: string;
	/** Unix ms at which time 0 starts. */
	epoch: number;
	timeUnitMs: number;
	timeBits: number;
	fields: readonly ForeignField[];
}

/**
 * Each system's own documentation: Twitter's Snowflake README (41 ms bits, 10-bit
 * worker, 12-bit sequence); Discord's API reference, "Snowflakes" (42 ms bits since
 * 2015, 5-bit worker, 5-bit process, 12-bit increment); Sonyflake's README (39 bits
 * of 10 ms since 2014-09-01, 8-bit sequence, then 16-bit machine ID); Instagram
 * Engineering's "Sharding & IDs at Instagram" (41 ms bits since their epoch,
 * 13-bit shard, 10-bit sequence).
 */
export const DECODE_PRESETS: Readonly<Record<PresetName, ForeignLayout>> = {
	twitter: foreignLayout("twitter", TWITTER_LAYOUT.epoch, 1, 41, { workerId: 10, sequence: 12 }),
	discord: foreignLayout("discord", 1420070400000, 1, 42, {
		workerId: 5,
		processId: 5,
		increment: 12,
	}),
	sonyflake: foreignLayout("sonyflake", 1409529600000, 10, 39, { sequence: 8, machineId: 16 }),
	instagram: foreignLayout("instagram", 1314220021721, 1, 41, { shardId: 13, sequence: 10 }),
};

/** A layout from its widths; `fields` in their order below the time, high bits first. */
function foreignLayout(
	name: string,
	epoch: number,
	timeUnitMs: number,
	timeBits: number,
	fields: Readonly<Record<string, number>>,
): ForeignLayout {
	const below = Object.entries(fields).map(([field, bits]) => ({ name: field, bits }));
	return { name, epoch, timeUnitMs, timeBits, fields: below };
}

export interface CustomLayoutInput {
	timeBits: number;
	workerBits: number;
	sequenceBits: number;
	epoch: number;
	timeUnitMs: number;
}

/**
 * Explicit widths in the Snowflake order (time | worker | sequence), 63 or 64 bits
 * in all. Throws `invalid_layout` naming what is allowed.
 */
export function customLayout(input: CustomLayoutInput): ForeignLayout {
	const { timeBits, workerBits, sequenceBits, epoch, timeUnitMs } = input;
	const total = timeBits + workerBits + sequenceBits;
	const ok =
		[timeBits, workerBits, sequenceBits].every((bits) => Number.isInteger(bits) && bits >= 0) &&
		timeBits >= 1 &&
		timeBits <= 53 &&
		(total === 63 || total === 64) &&
		Number.isSafeInteger(epoch) &&
		epoch >= 0 &&
		epoch <= MAX_DATE_MS &&
		Number.isSafeInteger(timeUnitMs) &&
		timeUnitMs >= 1 &&
		timeUnitMs <= 86_400_000;
	if (!ok) {
		throw new IdError(
			"invalid_layout",
			`a decoding layout needs timeBits (1-53) + workerBits + sequenceBits = 63 or 64, epoch in [0, 8.64e15] ms and timeUnitMs in [1, 86400000]; got ${timeBits}/${workerBits}/${sequenceBits}, epoch ${epoch}, unit ${timeUnitMs}`,
		);
	}
	return foreignLayout("custom", epoch, timeUnitMs, timeBits, {
		workerId: workerBits,
		sequence: sequenceBits,
	});
}

/** A Snowflake-like ID read under another system's layout. */
export interface DecodedForeign {
	type: "snowflake";
	id: string;
	/** The preset's name, or "custom". */
	layout: string;
	timestamp: number;
	time: string;
	/** The layout's own fields (workerId, processId, increment, machineId, shardId, sequence…). */
	[field: string]: string | number;
}

/** Decodes 1-20 decimal digits under `layout`; throws `invalid_id` when the value does not fit it. */
export function decodeForeign(text: string, layout: ForeignLayout): DecodedForeign {
	const totalBits = layout.timeBits + layout.fields.reduce((sum, field) => sum + field.bits, 0);
	if (!/^[0-9]{1,20}$/.test(text) || BigInt(text) >= 2n ** BigInt(totalBits)) {
		throw new IdError(
			"invalid_id",
			`under the ${layout.name} layout an ID is 1-20 decimal digits below 2^${totalBits}; got ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)}`,
		);
	}
	let rest = BigInt(text);
	const fromLowBits: [string, number][] = [];
	for (let i = layout.fields.length - 1; i >= 0; i--) {
		const field = layout.fields[i] as ForeignField;
		fromLowBits.push([field.name, Number(rest & ((1n << BigInt(field.bits)) - 1n))]);
		rest >>= BigInt(field.bits);
	}
	// Answered in the layout's order, high bits first, as the system documents them.
	const values: Record<string, number> = Object.fromEntries(fromLowBits.reverse());
	const timestamp = layout.epoch + Number(rest) * layout.timeUnitMs;
	if (timestamp > MAX_DATE_MS) {
		throw new IdError(
			"invalid_id",
			`under the ${layout.name} layout this ID's time is past year 275760`,
		);
	}
	const decoded: DecodedForeign = {
		type: "snowflake",
		id: BigInt(text).toString(),
		layout: layout.name,
		timestamp,
		time: isoTime(timestamp),
		...values,
	};
	if (layout.name === "twitter") Object.assign(decoded, splitTwitterWorkerId(values.workerId ?? 0));
	return decoded;
}
