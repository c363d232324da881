import type { Context, TypedResponse } from "hono";
import { accepts } from "hono/accepts";
import type { SequenceNumbers, SequenceRange, SequenceStatus } from "../../wire";
import type { Config } from "../config/config";
import { askedNote, type RequestKind } from "../request-note";
import type { AppEnv } from "./app-env";
import { noteRequest } from "./middleware/request-log";

const NO_STORE = { "Cache-Control": "no-store" } as const;

/**
 * `Accept` values that can only mean JSON, answered without parsing the header:
 * none, the any-type wildcard most HTTP clients send (a wildcard matches neither
 * type, so the default applies) and JSON itself. One parser less for a new
 * isolate's first answer to wait for.
 */
const JSON_ACCEPTS = new Set([undefined, "", "*/*", "application/json"]);

function wantsText(c: Context): boolean {
	if (JSON_ACCEPTS.has(c.req.header("Accept"))) return false;
	return (
		accepts(c, {
			header: "Accept",
			supports: ["application/json", "text/plain"],
			default: "application/json",
		}) === "text/plain"
	);
}

/**
 * The body as JSON, with the IDs joined rather than stringified one by one: IDs
 * are digits, Crockford base32 or hex and hyphens, so none needs escaping.
 */
function idsJson(body: { ids: string[] }): string {
	const { ids, ...head } = body;
	const fields = JSON.stringify(head);
	const list = ids.length === 0 ? "[]" : `["${ids.join('","')}"]`;
	return `${fields.slice(0, -1)}${fields.length > 2 ? "," : ""}"ids":${list}}`;
}

/**
 * Notes what a request asks for before its operation runs, so a failure's log
 * line still names the kind, the worker ID (when named) and the count.
 */
export function noteAsked(
	c: Context<AppEnv>,
	asked: { kind: RequestKind; workerId?: unknown; count?: unknown },
): void {
	noteRequest(c, askedNote(asked.kind, asked));
}

/**
 * IDs the isolate makes itself (ULID, UUIDv7, TypeID): what was asked is noted
 * first (a refused count's log line names it), then `make`'s answer.
 */
export function isolateIdsResponse<
	I extends { count?: number },
	T extends { type: RequestKind; ids: string[] },
>(c: Context<AppEnv>, kind: RequestKind, input: I, make: (config: Config, input: I) => T) {
	noteAsked(c, { kind, count: input.count ?? 1 });
	return idsResponse(c, make(c.var.config, input));
}

/** A generation answer: JSON, or one ID per line for `Accept: text/plain`. Never cached. */
export function idsResponse<T extends { type: RequestKind; ids: string[]; workerId?: number }>(
	c: Context<AppEnv>,
	body: T,
): Response & TypedResponse<T, 200, "json"> {
	noteRequest(c, { kind: body.type, count: body.ids.length, workerId: body.workerId });
	// Both answers are typed as the JSON one, so hono/client knows the body's shape
	// (the text form is the same answer, negotiated by `Accept`).
	if (wantsText(c)) {
		return c.body(`${body.ids.join("\n")}\n`, 200, {
			...NO_STORE,
			"Content-Type": "text/plain; charset=utf-8",
		}) as unknown as Response & TypedResponse<T, 200, "json">;
	}
	return c.body(idsJson(body), 200, {
		...NO_STORE,
		"Content-Type": "application/json",
	}) as unknown as Response & TypedResponse<T, 200, "json">;
}

/**
 * The headers of a sequence's answer: never cached, and for a sequence with a reset
 * `Sequence-Period: 2026-11-27`, its period, on every answer (JSON and text alike).
 */
function sequenceHeaders(period: string | null | undefined): Record<string, string> {
	return period ? { ...NO_STORE, "Sequence-Period": period } : NO_STORE;
}

function textAnswer<T>(c: Context<AppEnv>, text: string, headers: Record<string, string>) {
	return c.body(text, 200, {
		...headers,
		"Content-Type": "text/plain; charset=utf-8",
	}) as unknown as Response & TypedResponse<T, 200, "json">;
}

/** A sequence's numbers: JSON, or one number per line for `Accept: text/plain`. */
export function sequenceNumbersResponse(
	c: Context<AppEnv>,
	body: SequenceNumbers,
): Response & TypedResponse<SequenceNumbers, 200, "json"> {
	noteRequest(c, { kind: "sequence", count: body.count });
	const headers = sequenceHeaders(body.period);
	if (wantsText(c)) return textAnswer(c, `${body.numbers.join("\n")}\n`, headers);
	return c.json(body, 200, headers);
}

/** A reserved range: JSON, or `first last` on one line for `Accept: text/plain`. */
export function sequenceRangeResponse(
	c: Context<AppEnv>,
	body: SequenceRange,
): Response & TypedResponse<SequenceRange, 200, "json"> {
	const headers = sequenceHeaders(body.period);
	if (wantsText(c)) return textAnswer(c, `${body.first} ${body.last}\n`, headers);
	return c.json(body, 200, headers);
}

/** A sequence's status (create, status, advance): JSON, with its period's header. */
export function sequenceStatusResponse<S extends 200 | 201>(
	c: Context<AppEnv>,
	body: SequenceStatus,
	status: S,
) {
	return c.json(body, status, sequenceHeaders(body.period));
}
