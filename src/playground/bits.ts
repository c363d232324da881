/**
 * Which bits of an ID hold which field: pure functions over the ID's value, with
 * the layouts taken from the ID core (no DOM), so they are unit-tested in Node.
 */
import type { ForeignLayout } from "../ids/forms/foreign-layouts";
import { ulidToUuid } from "../ids/forms/ulid";
import { COUNTER_LOW_BITS } from "../ids/forms/uuidv7";
import { type LayoutConfig, SnowflakeLayout, TWITTER_LAYOUT } from "../ids/snowflake/layout";

/** Inclusive bit positions, most significant first: `[hi, lo]`. */
export type BitRange = readonly [hi: number, lo: number];

export interface BitField {
	key: string;
	name: string;
	ranges: BitRange[];
	/** A field shown again by its parts (the Twitter worker ID). */
	split?: boolean;
	/** A part of the previous field. */
	sub?: boolean;
	/** Shown in hexadecimal. */
	hex?: boolean;
	note?: (value: bigint) => string;
}

/**
 * The worker IDs a layout allows, as the layout panel shows them: with Twitter's
 * datacenter × machine split only under Twitter's own layout (as the decoder does).
 */
export function workerIdRange(layout: LayoutConfig): string {
	const l = new SnowflakeLayout(layout);
	const half = 2 ** (l.workerBits / 2) - 1;
	const split = l.hasDatacenterSplit ? ` (datacenter 0–${half} × machine 0–${half})` : "";
	return `0–${l.maxWorkerId}${split}`;
}

/** What `/decode/:id` answers, as far as the bit view needs it. */
export interface DecodedForBits {
	type: string;
	id: string;
	/** A TypeID's UUID (its bits). */
	uuid?: unknown;
	/** Present when a TypeID holds a UUIDv7. */
	timestamp?: number;
}

export function iso(ms: number): string {
	const date = new Date(ms);
	return Number.isNaN(date.getTime()) ? "(out of range)" : date.toISOString();
}

/** The ID's bits as one unsigned integer. */
export function bitsOf(decoded: DecodedForBits): { width: 64 | 128; value: bigint } {
	if (decoded.type === "snowflake") return { width: 64, value: BigInt(decoded.id) };
	const uuid =
		decoded.type === "ulid"
			? ulidToUuid(decoded.id.toUpperCase())
			: decoded.type === "typeid"
				? String(decoded.uuid)
				: decoded.id;
	return { width: 128, value: BigInt(`0x${uuid.replace(/-/g, "")}`) };
}

const msNote = (v: bigint) => `ms since 1970 → ${iso(Number(v))}`;

const SIGN: BitField = { key: "sign", name: "Sign", ranges: [[63, 63]], note: () => "always 0" };

/** A Snowflake time field's note: `epoch + this = … ms → ISO time`. */
function tickNote(epoch: number, timeUnitMs: number): (v: bigint) => string {
	return (v) => {
		const ms = epoch + Number(v) * timeUnitMs;
		const how = timeUnitMs === 1 ? "epoch + this" : `epoch + this × ${timeUnitMs} ms`;
		return `${how} = ${ms} ms → ${iso(ms)}`;
	};
}

/** The fields of a Snowflake under `config`, sign bit first. */
function snowflakeFields(config: LayoutConfig): BitField[] {
	const layout = new SnowflakeLayout(config);
	const s = layout.sequenceBits;
	const w = layout.workerBits;
	const fields: BitField[] = [
		SIGN,
		{
			key: "time",
			name: "Time",
			ranges: [[62, s + w]],
			note: tickNote(layout.epoch, layout.timeUnitMs),
		},
	];
	if (w > 0) {
		const split = layout.hasDatacenterSplit;
		fields.push({ key: "worker", name: "Worker ID", ranges: [[s + w - 1, s]], split });
		if (split) {
			const half = w / 2;
			fields.push(
				{ key: "datacenter", name: "Datacenter", ranges: [[s + w - 1, s + half]], sub: true },
				{ key: "machine", name: "Machine", ranges: [[s + half - 1, s]], sub: true },
			);
		}
	}
	fields.push({ key: "sequence", name: "Sequence", ranges: [[s - 1, 0]] });
	return fields;
}

/**
 * The fields of another system's Snowflake-like ID (a decoding layout), high bits
 * first: a sign bit when they fill 63 bits, then time, then the layout's own fields
 * (`processId` is keyed `process` and named "Process ID").
 */
export function foreignFields(layout: ForeignLayout): BitField[] {
	// Twitter's preset is Twitter's layout: shown with its datacenter × machine split.
	if (layout.name === "twitter") return snowflakeFields(TWITTER_LAYOUT);
	const total = layout.fields.reduce((sum, field) => sum + field.bits, layout.timeBits);
	let next = total - 1;
	const take = (bits: number): BitRange => {
		const range: BitRange = [next, next - bits + 1];
		next -= bits;
		return range;
	};
	const fields: BitField[] = total === 63 ? [SIGN] : [];
	fields.push({
		key: "time",
		name: "Time",
		ranges: [take(layout.timeBits)],
		note: tickNote(layout.epoch, layout.timeUnitMs),
	});
	for (const field of layout.fields) {
		if (field.bits === 0) continue;
		fields.push({
			key: field.name.replace(/Id$/, ""),
			name: field.name.replace(/Id$/, " ID").replace(/^./, (c) => c.toUpperCase()),
			ranges: [take(field.bits)],
		});
	}
	return fields;
}

const VERSION: BitField = { key: "version", name: "Version", ranges: [[79, 76]] };
const VARIANT: BitField = {
	key: "variant",
	name: "Variant",
	ranges: [[63, 62]],
	note: (v) => (v === 2n ? "binary 10: RFC 9562" : "not the RFC 9562 variant"),
};

/**
 * The fields of a decoded ID; a Snowflake needs the layout it was made with: the
 * service's, or the decoding layout it was read with (another system's).
 */
export function fieldsOf(
	decoded: DecodedForBits,
	layout?: LayoutConfig | ForeignLayout,
): BitField[] {
	if (decoded.type === "snowflake") {
		if (!layout) throw new Error("a Snowflake's fields depend on its layout");
		return "fields" in layout ? foreignFields(layout) : snowflakeFields(layout);
	}
	if (decoded.type === "ulid") {
		return [
			{ key: "time", name: "Time", ranges: [[127, 80]], note: msNote },
			{ key: "random", name: "Randomness", ranges: [[79, 0]], hex: true },
		];
	}
	// A TypeID's bits are its UUID's: a UUIDv7's fields when it is one.
	if (decoded.type === "uuidv7" || (decoded.type === "typeid" && decoded.timestamp !== undefined)) {
		const counterLow = 61 - COUNTER_LOW_BITS + 1;
		return [
			{ key: "time", name: "Time", ranges: [[127, 80]], note: msNote },
			VERSION,
			{
				key: "counter",
				name: "Counter",
				ranges: [
					[75, 64],
					[61, counterLow],
				],
				note: () => `rand_a (12 bits) + top ${COUNTER_LOW_BITS} bits of rand_b`,
			},
			VARIANT,
			{ key: "random", name: "Random", ranges: [[counterLow - 1, 0]], hex: true },
		];
	}
	return [
		{
			key: "other",
			name: "Other bits",
			ranges: [
				[127, 80],
				[75, 64],
				[61, 0],
			],
			hex: true,
		},
		VERSION,
		VARIANT,
	];
}

export function bitAt(value: bigint, i: number): 0n | 1n {
	return ((value >> BigInt(i)) & 1n) as 0n | 1n;
}

/** The field's bits, concatenated in order, as one number. */
export function fieldValue(value: bigint, ranges: readonly BitRange[]): bigint {
	let result = 0n;
	for (const [hi, lo] of ranges) {
		const n = BigInt(hi - lo + 1);
		result = (result << n) | ((value >> BigInt(lo)) & ((1n << n) - 1n));
	}
	return result;
}

export function widthOf(ranges: readonly BitRange[]): number {
	return ranges.reduce((sum, [hi, lo]) => sum + hi - lo + 1, 0);
}

/** The field's bits as 0s and 1s, a space between ranges. */
export function binary(value: bigint, ranges: readonly BitRange[]): string {
	return ranges
		.map(([hi, lo]) => {
			let s = "";
			for (let i = hi; i >= lo; i--) s += bitAt(value, i) ? "1" : "0";
			return s;
		})
		.join(" ");
}

/** A field's value as shown: decimal, or hex when asked or beyond 2^53. */
export function shownValue(field: BitField, value: bigint): string {
	const n = widthOf(field.ranges);
	return field.hex || n > 53
		? `0x${value.toString(16).padStart(Math.ceil(n / 4), "0")}`
		: String(value);
}
