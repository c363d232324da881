/** Renders a decoded ID: its fields as a list, then its bits as a strip and a table. */
import type { ForeignLayout } from "../ids/forms/foreign-layouts";
import type { LayoutConfig } from "../ids/snowflake/layout";
import {
	type BitField,
	binary,
	bitAt,
	bitsOf,
	fieldsOf,
	fieldValue,
	shownValue,
	widthOf,
} from "./bits";
import { el, relative } from "./dom";

/** `/decode/:id`'s answer: `type`, `id` and the kind's fields. */
export interface Decoded {
	type: string;
	id: string;
	timestamp?: number;
	time?: string;
	version?: number;
	[field: string]: unknown;
}

const KIND_NAMES: Record<string, string> = {
	snowflake: "Snowflake",
	ulid: "ULID",
	uuidv7: "UUIDv7",
	uuid: "UUID",
	typeid: "TypeID",
};

export function kindName(type: string, version?: number): string {
	return type === "uuid" ? `UUID (version ${version})` : (KIND_NAMES[type] ?? type);
}

const FIELD_LABELS: [string, string][] = [
	["layout", "Layout"],
	["timestamp", "Timestamp (Unix ms)"],
	["workerId", "Worker ID"],
	["datacenterId", "Datacenter ID"],
	["machineId", "Machine ID"],
	["processId", "Process ID"],
	["shardId", "Shard ID"],
	["increment", "Increment"],
	["sequence", "Sequence"],
	["randomness", "Randomness (hex)"],
	["prefix", "Prefix"],
	["base32", "Base32 text"],
	["version", "Version"],
	["uuid", "Same bits as UUID"],
	["ulid", "Same bits as ULID"],
];

/**
 * The result card; `onCopy` is called by its Copy button. A Snowflake needs `layout`
 * for its bits: the service's, or the other system's it was decoded with.
 */
export function renderDecoded(
	d: Decoded,
	layout: LayoutConfig | ForeignLayout | undefined,
	onCopy: (button: HTMLButtonElement) => void,
): HTMLElement {
	const name = kindName(d.type, d.version);
	const rows: HTMLElement[] = [
		el("dt", { text: "Kind" }),
		el("dd", { "data-field": "type", text: name }),
	];
	if (d.time && d.timestamp !== undefined) {
		rows.push(
			el("dt", { text: "Time" }),
			el("dd", { "data-field": "time" }, [
				d.time,
				" ",
				el("span", { class: "rel", text: `(${relative(d.timestamp)})` }),
			]),
		);
	}
	const known = new Set(["type", "id", "time"]);
	for (const [key, label] of FIELD_LABELS) {
		known.add(key);
		if (d[key] !== undefined)
			rows.push(el("dt", { text: label }), el("dd", { "data-field": key, text: String(d[key]) }));
	}
	for (const key of Object.keys(d)) {
		if (!known.has(key)) {
			rows.push(
				el("dt", { text: key }),
				el("dd", { "data-field": key, text: JSON.stringify(d[key]) }),
			);
		}
	}
	const copy = el("button", {
		type: "button",
		class: "secondary copy-inline",
		"aria-label": `Copy ${d.id}`,
		text: "Copy",
	});
	copy.addEventListener("click", () => onCopy(copy));
	const parts: HTMLElement[] = [
		el("div", { class: "result-head" }, [
			el("span", { class: "badge", text: name }),
			el("span", { class: "mono", id: "decoded-id", text: d.id }),
			copy,
		]),
		el("dl", { class: "fields" }, rows),
	];
	if (d.type !== "snowflake" || layout) parts.push(...bitDiagram(d, layout));
	return el("div", { class: "result" }, parts);
}

function bitDiagram(d: Decoded, layout: LayoutConfig | ForeignLayout | undefined): HTMLElement[] {
	const { width, value } = bitsOf(d);
	const fields = fieldsOf(d, layout);
	const owner: (BitField | undefined)[] = new Array(width).fill(undefined);
	for (const field of fields) {
		for (const [hi, lo] of field.ranges) for (let i = lo; i <= hi; i++) owner[i] = field;
	}
	const cells: HTMLElement[] = [];
	let previous: BitField | undefined;
	for (let i = width - 1; i >= 0; i--) {
		const field = owner[i];
		const one = bitAt(value, i) === 1n;
		cells.push(
			el("span", {
				class: `bit f-${field ? field.key : "other"}${one ? " one" : ""}${field !== previous ? " start" : ""}`,
				title: `bit ${i}${field ? ` · ${field.name}` : ""}`,
				"data-bit": i,
				text: one ? "1" : "0",
			}),
		);
		previous = field;
	}
	const summary = fields
		.filter((f) => !f.split)
		.map((f) => {
			const n = widthOf(f.ranges);
			return `${f.name} ${n}${n === 1 ? " bit" : " bits"}`;
		})
		.join(", ");
	const strip = el(
		"div",
		{
			id: "bits",
			class: `bits bits-${width}`,
			role: "img",
			"aria-label": `${width} bits, most significant first: ${summary}. The table below lists each field.`,
		},
		cells,
	);
	const rows = fields.map((field) => {
		const v = fieldValue(value, field.ranges);
		const n = widthOf(field.ranges);
		const ranges = field.ranges
			.map(([hi, lo]) => (hi === lo ? String(hi) : `${hi}–${lo}`))
			.join(", ");
		return el("tr", { class: field.sub ? "sub" : null, "data-segment": field.key }, [
			el("th", { scope: "row" }, [
				el("span", {
					class: `swatch f-${field.key}${field.split ? " split" : ""}`,
					"aria-hidden": "true",
				}),
				field.name,
				el("span", { class: "range", text: `${n === 1 ? "bit " : "bits "}${ranges} · ${n}` }),
			]),
			el("td", { class: "bin", text: binary(value, field.ranges) }),
			el("td", { class: "val" }, [
				el("span", { class: "value", text: shownValue(field, v) }),
				field.note ? el("span", { class: "note", text: field.note(v) }) : null,
			]),
		]);
	});
	const table = el(
		"div",
		{ class: "table-wrap" },
		el("table", { class: "segments" }, [
			el("caption", { class: "offscreen", text: "The fields of the ID, most significant first" }),
			el(
				"thead",
				null,
				el("tr", null, [
					el("th", { scope: "col", text: "Field" }),
					el("th", { scope: "col", class: "bin", text: "Bits" }),
					el("th", { scope: "col", text: "Value" }),
				]),
			),
			el("tbody", null, rows),
		]),
	);
	return [
		el("h3", { text: "Bits" }),
		strip,
		el("p", {
			class: "bits-caption",
			text: `Bit ${width - 1} (most significant) first, bit 0 last; hover a bit for its position.`,
		}),
		table,
	];
}
