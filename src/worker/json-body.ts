/**
 * POST generation routes take their parameters as a JSON object too
 * (`{"count": 5}`, `Content-Type: application/json`): the same names as the query,
 * with JSON types (numbers as numbers). A name given in both places, a body that is
 * not a JSON object, malformed JSON, a wrong type, an unknown name (`{"cout": 5}`
 * would otherwise quietly ask for one ID) or a body over 1 KiB is a 400 naming what
 * was wrong. A non-empty body of any other content type (a form, text, none named)
 * is `415 unsupported_media_type` naming `Content-Type: application/json`: it would
 * otherwise be ignored and quietly answer the defaults. An empty body, of any type,
 * asks for the defaults. JSON is `application/json` or any `application/…+json`
 * (RFC 6839's suffix), each with optional parameters such as `charset`.
 *
 *   .post("/ulid", validate("query", ulidQuery), validateBody(ulidBody), (c) =>
 *     idsResponse(c, ulidIds(c.env, queryAndBody(c.req.valid("query"), c.req.valid("json")))))
 */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { validator } from "hono/validator";
import { describeValue } from "../ids/errors";
import { invalidPrefix, invalidSnowflakeFormat } from "../ids/field-rules";
import type { AppEnv } from "./app-env";
import { type ServiceError, serviceError } from "./errors";
import { field, type Input, type InputOf, input, type OutputOf, type Shape } from "./input";
import { invalidHolder, invalidLeaseId, invalidLeaseWorkerId } from "./lease-input";
import { countKindOf, invalidBodyCount, invalidFormat } from "./rules";

// The descriptions are the OpenAPI document's (./openapi/); they do not validate.
const count = field.integer().optional().describe("How many (as in the query); default 1");
const prefix = field.text().optional().describe("A type prefix (as in the query)");
export const countBody = input.strictObject({ count });
export const ulidBody = input.strictObject({
	count,
	format: field.oneOf(["ulid", "uuid"]).optional().describe("ulid (default) or uuid"),
});
export const snowflakeBody = input.strictObject({
	count,
	format: field.oneOf(["decimal", "base32"]).optional().describe("decimal (default) or base32"),
	prefix,
});
export const typeidBody = input.strictObject({ count, prefix });
export const acquireLeaseBody = input.strictObject({
	holder: field
		.text()
		.optional()
		.describe(
			"A label shown by the lease's status, such as a pod name: 1-128 printable characters",
		),
	workerId: field
		.number()
		.optional()
		.describe("A worker ID of LEASE_WORKER_IDS; default: the service picks a free one"),
});
/** Renew and release take the lease's capability in the body, never in the URL. */
export const leaseIdBody = input.strictObject({
	leaseId: field
		.text()
		.describe(
			"The leaseId the acquire answered (32 characters of A-Z a-z 0-9 _ -); keep it secret",
		),
});

const NOT_AN_OBJECT = 'the request body must be a JSON object such as {"count": 5} (or no body)';

/**
 * Far above any valid body (`{"count": 10000, "format": "uuid"}` is 34 bytes; a lease's
 * holder label of 128 characters is at most 512 bytes of UTF-8).
 */
const MAX_BODY_BYTES = 1024;

const limitBody = bodyLimit({
	maxSize: MAX_BODY_BYTES,
	onError: () => {
		throw serviceError(
			"invalid_body",
			`the JSON body must be at most ${MAX_BODY_BYTES} bytes, such as {"count": 5}`,
		);
	},
});

function unknownFields(keys: readonly string[], body: Input): ServiceError {
	const allowed = Object.keys(body.shape).join(", ");
	return serviceError(
		"invalid_body",
		`unknown field${keys.length > 1 ? "s" : ""} ${keys.map((k) => JSON.stringify(k)).join(", ")} in the JSON body; allowed: ${allowed}`,
	);
}

function bodyError(c: Context<AppEnv>, field: string | undefined, got: unknown): ServiceError {
	if (field === undefined)
		return serviceError("invalid_body", `${NOT_AN_OBJECT}; got ${describeValue(got)}`);
	if (field === "format" && c.req.path.startsWith("/snowflake")) return invalidSnowflakeFormat(got);
	if (field === "format") return invalidFormat(got);
	if (field === "prefix") return invalidPrefix(got);
	if (field === "holder") return invalidHolder(got);
	if (field === "leaseId") return invalidLeaseId(got);
	if (field === "workerId") return invalidLeaseWorkerId(c.var.config, got, "rpc");
	// The blocks routes allow far larger counts than MAX_BATCH: name their bound.
	return invalidBodyCount(c.var.config, got, countKindOf(c.req.path));
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/** Bytes JSON treats as whitespace (an empty body may still carry a newline). */
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Whether a body has anything but whitespace. Reads until the first such byte, at
 * most MAX_BODY_BYTES, so a large body of another type costs nothing more.
 */
async function hasContent(request: Request): Promise<boolean> {
	if (!request.body) return false;
	const reader = request.body.getReader();
	let read = 0;
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) return false;
			if (value.some((byte: number) => !WHITESPACE.has(byte))) return true;
			read += value.byteLength;
			if (read > MAX_BODY_BYTES) return true;
		}
	} finally {
		reader.cancel().catch(() => {});
	}
}

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

/**
 * The JSON body's fields (none unless the request declares JSON; an empty body is
 * no fields), refused with the service's errors.
 */
export function validateBody<S extends Shape>(body: Input<S>) {
	const validated = validator("json", async (value, c: Context<AppEnv>) => {
		const result = body.read(value);
		if (result.ok) return result.value;
		if (result.unknown) throw unknownFields(result.unknown, body);
		const { field } = result;
		const got =
			field !== undefined && value && typeof value === "object"
				? (value as Record<string, unknown>)[field]
				: value;
		throw bodyError(c, field, got);
	}) as MiddlewareHandler<AppEnv, string, { in: { json: InputOf<S> }; out: { json: OutputOf<S> } }>;
	// `curl -X POST -H 'Content-Type: application/json'` with no data asks for the defaults.
	return (async (c, next) => {
		const type = c.req.header("Content-Type");
		if (!JSON_TYPE.test(type ?? "")) {
			if (await hasContent(c.req.raw)) throw notJson(type);
			c.req.addValidatedData("json", {});
			return next();
		}
		return limitBody(c, async () => {
			if ((await c.req.text()).trim() === "") {
				c.req.addValidatedData("json", {});
				return next();
			}
			await validated(c, next);
		});
	}) as typeof validated;
}

/** The query's and the body's fields together; a name in both is refused. */
export function queryAndBody<Q extends object, B extends object>(query: Q, body: B): Q & B {
	for (const name of Object.keys(body)) {
		if (
			(body as Record<string, unknown>)[name] !== undefined &&
			name in query &&
			(query as Record<string, unknown>)[name] !== undefined
		) {
			throw serviceError(
				name === "format"
					? "invalid_format"
					: name === "prefix"
						? "invalid_prefix"
						: "invalid_count",
				`${name} was given both in the query and in the JSON body; give it once`,
			);
		}
	}
	return { ...query, ...body };
}
