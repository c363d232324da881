/**
 * The HTTP reader of the input contracts (./contracts/): a route's path segments, its
 * query and (POST) its JSON body turned into plain values and handed to the
 * operation's contract, which alone checks them. Query and path text becomes a
 * number for an integer field ("0" → 0), so a refusal reads as it would for a body or
 * an RPC call. What is HTTP's own is here: a body must be a JSON object of at most
 * 1 KiB sent as `application/json` (or `application/…+json`, RFC 6839); a non-empty
 * body of another type is `415 unsupported_media_type` (it would otherwise be
 * ignored and quietly answer the defaults); an empty one asks for the defaults; a
 * name given both in the query and in the body is refused.
 *
 *   .post("/ulid", readRequest(http.ulidPost), (c) => isolateIdsResponse(c, "ulid", c.req.valid("json"), ulidIds))
 */
import type { Context, MiddlewareHandler } from "hono";
import {
	type Contract,
	type ContractInput,
	type Field,
	fromText,
	readInput,
	shown,
	unknownNames,
} from "../contracts/fields";
import { limitsOf } from "../contracts/limits";
import { type ServiceError, serviceError } from "../errors";
import type { AppEnv } from "./app-env";
import { type HttpInput, openNames, queryNames } from "./http-inputs";
import { declareQuery } from "./middleware/known-query";

/**
 * Far above any valid body (`{"count": 10000, "format": "uuid"}` is 34 bytes; a lease's
 * holder label of 128 characters is at most 512 bytes of UTF-8).
 */
const MAX_BODY_BYTES = 1024;
const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;
/** The longest Content-Type echoed in an error; a longer one is described by its length. */
const MAX_ECHOED_TYPE = 100;

function notJson(type: string | undefined): ServiceError {
	const got =
		type === undefined
			? "no Content-Type"
			: type.length > MAX_ECHOED_TYPE
				? `a Content-Type of ${type.length} characters`
				: `Content-Type: ${type}`;
	return serviceError(
		"unsupported_media_type",
		`a request body must be JSON sent with 'Content-Type: application/json', such as {"count": 5} (or send no body and give the parameters in the query); got ${got}`,
	);
}

const tooLarge = () =>
	serviceError(
		"invalid_body",
		`the JSON body must be at most ${MAX_BODY_BYTES} bytes, such as {"count": 5}`,
	);

/** The body's bytes, reading no further than one past MAX_BODY_BYTES. */
async function bodyBytes(request: Request): Promise<Uint8Array | "too large"> {
	if (!request.body) return new Uint8Array();
	const reader = request.body.getReader();
	const chunks: Uint8Array[] = [];
	let read = 0;
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			read += value.byteLength;
			if (read > MAX_BODY_BYTES) return "too large";
			chunks.push(value);
		}
	} finally {
		reader.cancel().catch(() => {});
	}
	const bytes = new Uint8Array(read);
	let at = 0;
	for (const chunk of chunks) {
		bytes.set(chunk, at);
		at += chunk.byteLength;
	}
	return bytes;
}

/** The JSON body's values: none for an empty body; refused unless a JSON object. */
async function bodyValues(c: Context<AppEnv>): Promise<Record<string, unknown>> {
	const type = c.req.header("Content-Type");
	const bytes = await bodyBytes(c.req.raw);
	const text = bytes === "too large" ? undefined : new TextDecoder().decode(bytes);
	// Whitespace only (a newline, `curl -X POST` with no data) asks for the defaults.
	if (text !== undefined && text.trim() === "") return {};
	if (!JSON_TYPE.test(type ?? "")) throw notJson(type);
	if (text === undefined) throw tooLarge();
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		throw serviceError(
			"invalid_body",
			'the request body is not valid JSON; send a JSON object such as {"count": 5}, or no body',
		);
	}
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		throw serviceError(
			"invalid_body",
			`the request body must be a JSON object such as {"count": 5} (or no body); got ${shown(value)}`,
		);
	}
	return value as Record<string, unknown>;
}

/** The query's values: text, or an array of texts for a repeated name. */
function queryValues(c: Context<AppEnv>, input: HttpInput): Record<string, unknown> {
	const values: Record<string, unknown> = {};
	const search = c.req.url.indexOf("?");
	if (search === -1) return values;
	const { fields } = input.contract;
	const params = new URLSearchParams(c.req.url.slice(search + 1));
	for (const name of new Set(params.keys())) {
		const all = params.getAll(name);
		values[name] = fromText(fields[name], all.length === 1 ? (all[0] as string) : all);
	}
	return values;
}

/**
 * The query and path texts whose number reads differently ("007" is 7): a refusal
 * quotes what was sent; "7" and 7 are the same value, refused in the same words.
 */
function sentAsOtherText(
	input: HttpInput,
	c: Context<AppEnv>,
	query: Record<string, unknown>,
): Record<string, string> {
	const sent: Record<string, string> = {};
	const texts: [string, unknown][] = [
		...input.path.map((name): [string, unknown] => [name, c.req.param(name)]),
		...Object.keys(query)
			.filter((name) => typeof query[name] === "number")
			.map((name): [string, unknown] => [name, c.req.query(name)]),
	];
	for (const [name, text] of texts) {
		if (typeof text === "string" && /^[0-9]+$/.test(text) && String(Number(text)) !== text) {
			sent[name] = text;
		}
	}
	return sent;
}

/** What a query value is sent as, for Hono's typed client: a number's digits, or the text. */
type QueryText<T> = [T] extends [number] ? string : [T] extends [string] ? T : string;
type FieldsOf<C> = C extends Contract<infer F> ? F : never;
/** What a route's query, path and body take, as Hono's typed client sends them. */
type HttpIn<C extends Contract, P extends string, W extends string, B extends boolean> = {
	query: {
		[K in Exclude<keyof FieldsOf<C>, P | W>]?: QueryText<
			FieldsOf<C>[K] extends Field<infer T> ? T : never
		>;
	};
} & ([P] extends [never] ? unknown : { param: { [K in P]: string } }) &
	(B extends true ? { json: Partial<Omit<ContractInput<C>, P | W>> } : unknown);

/** Reads the request through `input`'s contract; `c.req.valid("json")` is the checked input. */
export function readRequest<
	C extends Contract,
	P extends string,
	W extends string,
	B extends boolean,
>(input: HttpInput<C, P, W, B>) {
	const takes = openNames(input);
	const queryTakes = queryNames(input);
	const read: MiddlewareHandler<AppEnv> = async (c, next) => {
		const limits = limitsOf(c.var.config);
		// Leases off answer so first, whatever the request sends.
		input.contract.before?.(limits);
		const query = queryValues(c, input);
		const unknownInQuery = Object.keys(query).filter((name) => !queryTakes.includes(name));
		if (unknownInQuery.length > 0) throw unknownNames(unknownInQuery, queryTakes);
		const body = input.body ? await bodyValues(c) : {};
		for (const name of Object.keys(body)) {
			if (name in query && takes.includes(name)) {
				throw serviceError(
					input.contract.fields[name]?.code ?? "invalid_request",
					`${name} was given both in the query and in the JSON body; give it once`,
				);
			}
		}
		const unknown = Object.keys(body).filter((name) => !takes.includes(name));
		if (unknown.length > 0) throw unknownNames(unknown, takes);
		const path: Record<string, unknown> = {};
		for (const name of input.path) {
			path[name] = fromText(input.contract.fields[name], c.req.param(name) ?? "");
		}
		const value = readInput(input.contract, limits, { ...query, ...body }, path, {
			takes,
			sent: sentAsOtherText(input, c, query),
		});
		c.req.addValidatedData("json", value as object);
		await next();
	};
	declareQuery(read, () => queryTakes);
	return read as MiddlewareHandler<
		AppEnv,
		string,
		{ in: HttpIn<C, P, W, B>; out: { json: ContractInput<C> } }
	>;
}
