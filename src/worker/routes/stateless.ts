import { type Context, Hono } from "hono";
import type { AppEnv } from "../app-env";
import { countBody, queryAndBody, ulidBody, validateBody } from "../json-body";
import { operation } from "../openapi/describe";
import { ulidIds, uuidv7Ids } from "../operations";
import { idsResponse, noteAsked } from "../respond";
import { countQuery, ulidQuery, validate } from "../validation";

/** ULIDs, with what was asked noted first (a refused count's log line names it). */
function ulids(c: Context<AppEnv>, input: { count?: number; format?: string }) {
	noteAsked(c, { kind: "ulid", count: input.count ?? 1 });
	return idsResponse(c, ulidIds(c.var.config, input));
}

function uuidv7s(c: Context<AppEnv>, input: { count?: number }) {
	noteAsked(c, { kind: "uuidv7", count: input.count ?? 1 });
	return idsResponse(c, uuidv7Ids(c.var.config, input));
}

/** ULID and UUIDv7: made in the Worker itself, no shared state. */
export const statelessRoutes = new Hono<AppEnv>()
	.get("/ulid", validate("query", ulidQuery), (c) => ulids(c, c.req.valid("query")))
	.post("/ulid", validate("query", ulidQuery), validateBody(ulidBody), (c) =>
		ulids(c, queryAndBody(c.req.valid("query"), c.req.valid("json"))),
	)
	.get("/uuidv7", validate("query", countQuery), (c) => uuidv7s(c, c.req.valid("query")))
	.post("/uuidv7", validate("query", countQuery), validateBody(countBody), (c) =>
		uuidv7s(c, queryAndBody(c.req.valid("query"), c.req.valid("json"))),
	);

const ULID_SUMMARY = "ULIDs (format=uuid: the same 128 bits as UUIDs)";
const UUIDV7_SUMMARY = "UUIDv7s";
const ulid = {
	path: "/ulid",
	tag: "ULID and UUIDv7",
	query: ulidQuery,
	ok: "ulidIdsSchema",
	ids: true,
} as const;
const uuidv7 = {
	path: "/uuidv7",
	tag: "ULID and UUIDv7",
	query: countQuery,
	ok: "uuidv7IdsSchema",
	ids: true,
} as const;

export const statelessOperations = [
	operation({ ...ulid, method: "get", summary: ULID_SUMMARY }),
	operation({ ...ulid, method: "post", summary: ULID_SUMMARY, body: ulidBody }),
	operation({ ...uuidv7, method: "get", summary: UUIDV7_SUMMARY }),
	operation({ ...uuidv7, method: "post", summary: UUIDV7_SUMMARY, body: countBody }),
];
