/** The API paths the playground calls, built from its form values (pure, unit-tested). */

/**
 * The most IDs the page asks for and lists at once: MAX_BATCH's default, the API's
 * own limit. No route reports a deployment's MAX_BATCH; one set lower refuses a
 * larger count with `invalid_count` naming its limit, and the page shows that.
 */
export const MAX_SHOWN = 10_000;

export type GeneratedKind = "snowflake" | "ulid" | "uuidv7";

/** A count typed into the page: whole, from 1 to MAX_SHOWN, or undefined. */
export function parseShownCount(text: string): number | undefined {
	const trimmed = text.trim();
	if (!/^[0-9]+$/.test(trimmed)) return undefined;
	const count = Number(trimmed);
	return count >= 1 && count <= MAX_SHOWN ? count : undefined;
}

/** `/snowflake/7?count=5`, `/snowflake?count=5` (blank worker ID: the service picks), `/ulid?count=5`. */
export function generatePath(kind: GeneratedKind, workerId: string, count: number): string {
	const worker =
		kind === "snowflake" && workerId.trim() ? `/${encodeURIComponent(workerId.trim())}` : "";
	return `/${kind}${worker}?count=${count}`;
}

/**
 * `/decode/<id>`, and `?layout=<preset>` when a named Snowflake layout (another
 * system's) is chosen instead of the service's own.
 */
export function decodePath(id: string, layoutPreset?: string): string {
	const path = `/decode/${encodeURIComponent(id.trim())}`;
	return layoutPreset ? `${path}?layout=${encodeURIComponent(layoutPreset)}` : path;
}
