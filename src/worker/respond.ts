import type { Context } from "hono";
import { accepts } from "hono/accepts";

const NO_STORE = { "Cache-Control": "no-store" } as const;

function wantsText(c: Context): boolean {
	return (
		accepts(c, {
			header: "Accept",
			supports: ["application/json", "text/plain"],
			default: "application/json",
		}) === "text/plain"
	);
}

/** A generation answer: JSON, or one ID per line for `Accept: text/plain`. Never cached. */
export function idsResponse<T extends { ids: string[] }>(c: Context, body: T) {
	if (wantsText(c)) {
		return c.body(`${body.ids.join("\n")}\n`, 200, {
			...NO_STORE,
			"Content-Type": "text/plain; charset=utf-8",
		});
	}
	return c.json(body, 200, NO_STORE);
}
