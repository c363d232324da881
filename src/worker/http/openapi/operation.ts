/**
 * What a route says about itself for the OpenAPI document: plain data next to the
 * route (each route file exports its operations), read by ./document.ts when the
 * document is generated (`npm run openapi`), never by the Worker at run time.
 *
 *   operation({ method: "get", path: "/ulid", summary: "ULIDs", input: http.ulid, ok: "ulidIdsSchema", ids: true })
 */
import type { ServiceErrorCode } from "../../errors";
import type { HttpInput } from "../http-inputs";
import type { AnswerSchemas } from "./schemas";

export interface OperationSpec {
	method: "get" | "post" | "put" | "delete";
	/** OpenAPI form: `/snowflake/{workerId}`. */
	path: string;
	summary: string;
	description?: string;
	tag:
		| "Snowflake"
		| "Leases"
		| "Operations"
		| "Sequences"
		| "Leaf-compatible"
		| "ULID and UUIDv7"
		| "ID forms and ranges"
		| "Decode"
		| "Service";
	/** The contract the route reads and where from (../http-inputs.ts); a JSON body is optional (a non-empty body of another Content-Type is a 415). */
	input?: HttpInput;
	/** The success answer's JSON schema, by name in ./schemas.ts (absent: `html`, `noContent` or a document). */
	ok?: keyof AnswerSchemas;
	/** Success is 201 Created (with `ok`'s body), not 200. */
	created?: boolean;
	/** With `created`: a 200 answer too (with `ok`'s body), described so. */
	found?: string;
	/** Success is 204 No Content. */
	noContent?: boolean;
	/** May answer 409 (a lease conflict, or leases off): the codes under 409; text: when, instead of the leases' wording. */
	conflicts?: boolean | string;
	/** Codes it answers under 409 though their own status is another (a create of a retired name). */
	alsoUnder409?: ServiceErrorCode[];
	/** May answer 404 with a code of its own: when. */
	missing?: string;
	/** May answer 410 (a retired sequence): when. */
	retired?: string;
	/** A generation answer: also one ID per line for `Accept: text/plain`; text: the success's description instead. */
	ids?: boolean | string;
	/** A sequence's answer: `Sequence-Period` on success for a sequence with a reset. */
	period?: boolean;
	/** Answers plain text of this kind (`/metrics`), not JSON. */
	text?: string;
	/** Answers HTML (the playground, the reference page). */
	html?: boolean;
	/** Needs no token even when API_TOKEN is set. */
	public?: boolean;
	/** Not counted by the rate limiter (`/health`). */
	unlimited?: boolean;
	/** Reaches a Durable Object, so may answer 503 with Retry-After; text: when, instead of the worker ID's wording. */
	objects?: boolean | string;
	/** A removed route kept only to refuse: deprecated, answering 410 with this code. */
	gone?: string;
}

/** A route's operation, as the document will describe it (./describe.ts). */
export function operation(spec: OperationSpec): OperationSpec {
	return spec;
}

/** A route read from the query (GET) and from a JSON body (POST): one answer either way. */
export function getAndPost(
	spec: Omit<OperationSpec, "method" | "input">,
	get: HttpInput,
	post: HttpInput,
): OperationSpec[] {
	return [
		operation({ ...spec, method: "get", input: get }),
		operation({ ...spec, method: "post", input: post }),
	];
}

/**
 * What the generated document holds in place of the package's version, filled in
 * when it is served (../routes/docs.ts): a release changes no generated file.
 */
export const VERSION_MARK = "{{package version}}";
