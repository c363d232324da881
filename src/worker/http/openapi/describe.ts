/**
 * One OpenAPI operation per route, from the contract it reads (../http-inputs.ts, as
 * zod schemas: ./input-schemas.ts) and its answers' schemas (./schemas.ts),
 * with the error answers the service really gives it: 400 unless an HTML page (an
 * unknown parameter is one on every other route), 415 when it takes a JSON
 * body, 409 when it may meet a lease conflict, 401 unless public, 429 unless
 * exempt from rate limiting, 500 always, 503
 * when it reaches a Durable Object. Each route file exports its operations next to
 * its routes (./operation.ts); ./document.ts builds the document from them.
 *
 *   describe(operation({ method: "get", path: "/ulid", summary: "ULIDs", input: http.ulid, ok: "ulidIdsSchema", ids: true }))
 */
import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import type * as z from "zod";
import type { ServiceErrorCode } from "../../errors";
import { inputSchemas } from "./input-schemas";
import type { OperationSpec } from "./operation";
import { type AnswerSchemas, answerSchemas, errorSchema } from "./schemas";

const RETRY_AFTER = {
	"Retry-After": { description: "Seconds to wait before retrying", schema: { type: "integer" } },
} as const;

const SEQUENCE_PERIOD = {
	"Sequence-Period": {
		description:
			"The answer's period (2026-11-27, 2026-11 or 2026), for a sequence with a reset; absent without one",
		schema: { type: "string" },
	},
} as const;

function errorAnswer(
	status: number,
	description: string,
	retry = false,
	also: readonly ServiceErrorCode[] = [],
) {
	return {
		description,
		...(retry ? { headers: RETRY_AFTER } : {}),
		content: { "application/json": { schema: errorSchema(status, also) } },
	};
}

function success(spec: OperationSpec) {
	if (spec.noContent) return { description: "Done; no body" };
	if (spec.text)
		return {
			description: spec.text,
			content: { "text/plain": { schema: { type: "string" as const } } },
		};
	if (spec.html)
		return {
			description: "An HTML page",
			content: { "text/html": { schema: { type: "string" as const } } },
		};
	const content: Record<string, { schema: z.ZodType | { type: "string" } }> = {
		"application/json": { schema: answerSchemas()[spec.ok as keyof AnswerSchemas] },
	};
	if (spec.ids) content["text/plain"] = { schema: { type: "string" } };
	return {
		...(spec.period ? { headers: SEQUENCE_PERIOD } : {}),
		description: spec.ids
			? typeof spec.ids === "string"
				? spec.ids
				: "The IDs; with `Accept: text/plain`, one ID per line. Never cached."
			: spec.created
				? "Created"
				: "The answer",
		content,
	};
}

/** What every operation's description starts with. */
function heading(spec: OperationSpec) {
	return {
		method: spec.method,
		path: spec.path,
		summary: spec.summary,
		...(spec.description ? { description: spec.description } : {}),
		tags: [spec.tag],
	};
}

/** A removed route: deprecated, and every call answers 410 (after auth and the rate limit). */
function describeGone(spec: OperationSpec & { gone: string }): RouteConfig {
	return {
		...heading(spec),
		deprecated: true,
		security: [{ bearerToken: [] }],
		responses: {
			410: errorAnswer(410, `Removed: \`${spec.gone}\`, the message names the route to use`),
			401: errorAnswer(401, "API_TOKEN is set and the request has no valid bearer token"),
			429: errorAnswer(429, "Over the RATE_LIMITER budget", true),
			500: errorAnswer(500, "The deployment is misconfigured"),
		},
	};
}

/** The route's OpenAPI description. */
export function describe(spec: OperationSpec): RouteConfig {
	if (spec.gone !== undefined) return describeGone({ ...spec, gone: spec.gone });
	const { params, query, body } = spec.input ? inputSchemas(spec.input) : {};
	const hasInput = params || query || body;
	return {
		...heading(spec),
		security: spec.public ? [] : [{ bearerToken: [] }],
		request: {
			...(params ? { params } : {}),
			...(query ? { query } : {}),
			...(body
				? {
						body: {
							required: false,
							description:
								"The query's fields as a JSON object (numbers as numbers); a name may be given in one place only. Send it with `Content-Type: application/json` (parameters such as `charset`, and `application/…+json` types, are accepted); a non-empty body of another type is a 415, an empty body asks for the defaults.",
							content: { "application/json": { schema: body } },
						},
					}
				: {}),
		},
		responses: {
			[spec.created ? 201 : spec.noContent ? 204 : 200]: success(spec),
			...(spec.found ? { 200: { ...success(spec), description: spec.found } } : {}),
			// Every route but the HTML pages refuses a query parameter it does not take.
			...(spec.html && !hasInput
				? {}
				: {
						400: errorAnswer(
							400,
							hasInput
								? "A parameter or the body is invalid, or the query has a parameter this route does not take (`invalid_request`); the message names it and what is allowed"
								: "The query has a parameter (`invalid_request`): this route takes none",
						),
					}),
			...(body
				? {
						415: errorAnswer(415, "A non-empty body not declared `Content-Type: application/json`"),
					}
				: {}),
			...(spec.missing ? { 404: errorAnswer(404, spec.missing) } : {}),
			...(spec.retired ? { 410: errorAnswer(410, spec.retired) } : {}),
			...(spec.conflicts
				? {
						409: errorAnswer(
							409,
							typeof spec.conflicts === "string"
								? spec.conflicts
								: "Leases are off, the worker ID is held or leased, or the lease was lost; `no_free_worker_id` sends Retry-After",
							spec.conflicts === true,
							spec.alsoUnder409,
						),
					}
				: {}),
			...(spec.public
				? {}
				: { 401: errorAnswer(401, "API_TOKEN is set and the request has no valid bearer token") }),
			...(spec.unlimited ? {} : { 429: errorAnswer(429, "Over the RATE_LIMITER budget", true) }),
			500: errorAnswer(
				500,
				"The deployment is misconfigured, or an unexpected failure (no details)",
			),
			...(spec.objects
				? {
						503: errorAnswer(
							503,
							typeof spec.objects === "string"
								? spec.objects
								: "The worker ID's object is unavailable, overloaded or waiting out a clock regression",
							true,
						),
					}
				: {}),
		},
	};
}
