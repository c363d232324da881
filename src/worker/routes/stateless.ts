import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { countBody, queryAndBody, ulidBody, validateBody } from "../json-body";
import { operation } from "../openapi/operation";
import { ulidIds, uuidv7Ids } from "../operations";
import { isolateIdsResponse } from "../respond";
import { countQuery, ulidQuery, validate } from "../validation";

/** ULID and UUIDv7: made in the Worker itself, no shared state. */
export const statelessRoutes = new Hono<AppEnv>()
	.get("/ulid", validate("query", ulidQuery), (c) =>
		isolateIdsResponse(c, "ulid", c.req.valid("query"), ulidIds),
	)
	.post("/ulid", validate("query", ulidQuery), validateBody(ulidBody), (c) =>
		isolateIdsResponse(c, "ulid", queryAndBody(c.req.valid("query"), c.req.valid("json")), ulidIds),
	)
	.get("/uuidv7", validate("query", countQuery), (c) =>
		isolateIdsResponse(c, "uuidv7", c.req.valid("query"), uuidv7Ids),
	)
	.post("/uuidv7", validate("query", countQuery), validateBody(countBody), (c) =>
		isolateIdsResponse(
			c,
			"uuidv7",
			queryAndBody(c.req.valid("query"), c.req.valid("json")),
			uuidv7Ids,
		),
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
