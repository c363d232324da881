/** The API paths the playground calls, built from its form values (pure, unit-tested). */

/**
 * The most IDs the page asks for and lists at once: MAX_BATCH's default, the API's
 * own limit. No route reports a deployment's MAX_BATCH; one set lower refuses a
 * larger count with `invalid_count` naming its limit, and the page shows that.
 */
export const MAX_SHOWN = 10_000;

export type GeneratedKind = "snowflake" | "ulid" | "uuidv7" | "typeid";

/** A count typed into the page: whole, from 1 to MAX_SHOWN, or undefined. */
export function parseShownCount(text: string): number | undefined {
	const trimmed = text.trim();
	if (!/^[0-9]+$/.test(trimmed)) return undefined;
	const count = Number(trimmed);
	return count >= 1 && count <= MAX_SHOWN ? count : undefined;
}

/** How generated IDs are written: a prefix (TypeID, Snowflake) and a Snowflake format. */
export interface TextChoice {
	prefix?: string;
	/** Snowflakes only: "decimal" or "base32". */
	format?: string;
}

/** `&name=value` for each non-blank value, encoded. */
function params(values: Record<string, string | undefined>): string {
	return Object.entries(values)
		.map(([name, value]) => [name, value?.trim() ?? ""])
		.filter(([, value]) => value !== "")
		.map(([name, value]) => `&${name}=${encodeURIComponent(value as string)}`)
		.join("");
}

/**
 * `/snowflake/7?count=5`, `/snowflake?count=5` (blank worker ID: the service picks),
 * `/ulid?count=5`, `/typeid?count=5&prefix=user`; a prefix and (Snowflake) format when given.
 */
export function generatePath(
	kind: GeneratedKind,
	workerId: string,
	count: number,
	text: TextChoice = {},
): string {
	const worker =
		kind === "snowflake" && workerId.trim() ? `/${encodeURIComponent(workerId.trim())}` : "";
	const prefix = kind === "snowflake" || kind === "typeid" ? text.prefix : undefined;
	const format = kind === "snowflake" && text.format !== "decimal" ? text.format : undefined;
	return `/${kind}${worker}?count=${count}${params({ format, prefix })}`;
}

/** `/range?kind=…&from=…&to=…` with a prefix (TypeID, Snowflake) when given. */
export function rangePath(kind: string, from: string, to: string, prefix = ""): string {
	const withPrefix = kind === "typeid" || kind === "snowflake" ? prefix : "";
	return `/range?kind=${encodeURIComponent(kind)}${params({ from, to, prefix: withPrefix })}`;
}

/**
 * `/decode/<id>`, and `?layout=<preset>` when a named Snowflake layout (another
 * system's) is chosen instead of the service's own; `format` (typeid, base32) reads
 * a bare TypeID or base32 Snowflake.
 */
export function decodePath(id: string, layoutPreset?: string, format?: string): string {
	const path = `/decode/${encodeURIComponent(id.trim())}`;
	const query = params({ format, layout: layoutPreset });
	return query ? `${path}?${query.slice(1)}` : path;
}

/** A sequence's settings as typed into the page (blank: the default). */
export interface SequenceChoice {
	start?: string;
	mode?: string;
	reset?: string;
	timeZone?: string;
}

/**
 * `/sequences/<name>` (status), `/sequences/<name>/next?count=3`, or with settings
 * (a create, PUT) `/sequences/<name>?mode=pooled`: defaults are left out.
 */
export function sequencePath(
	name: string,
	action: { next: number } | { create: SequenceChoice } | "status" | "retire",
): string {
	const path = `/sequences/${encodeURIComponent(name.trim())}`;
	if (action === "status" || action === "retire") return path;
	if ("next" in action) return `${path}/next?count=${action.next}`;
	const { start, mode, reset, timeZone } = action.create;
	const query = params({
		start,
		mode: mode === "ordered" ? undefined : mode,
		reset: reset === "never" ? undefined : reset,
		timeZone,
	});
	return query ? `${path}?${query.slice(1)}` : path;
}
