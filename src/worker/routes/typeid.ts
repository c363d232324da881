import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { typeidIds } from "../forms";
import { queryAndBody, typeidBody, validateBody } from "../json-body";
import { operation } from "../openapi/operation";
import { isolateIdsResponse } from "../respond";
import { typeidQuery, validate } from "../validation";

/** TypeIDs: UUIDv7s from the isolate's factory (monotonic, as /uuidv7), in TypeID form. */
export const typeidRoutes = new Hono<AppEnv>()
	.get("/typeid", validate("query", typeidQuery), (c) =>
		isolateIdsResponse(c, "typeid", c.req.valid("query"), typeidIds),
	)
	.post("/typeid", validate("query", typeidQuery), validateBody(typeidBody), (c) =>
		isolateIdsResponse(
			c,
			"typeid",
			queryAndBody(c.req.valid("query"), c.req.valid("json")),
			typeidIds,
		),
	);

const SUMMARY = "TypeIDs (UUIDv7s as prefix_ and 26 base32 characters, spec v0.3.0)";
const typeid = {
	path: "/typeid",
	tag: "ID forms and ranges",
	query: typeidQuery,
	ok: "typeidIdsSchema",
	ids: true,
	summary: SUMMARY,
} as const;

export const typeidOperations = [
	operation({ ...typeid, method: "get" }),
	operation({ ...typeid, method: "post", body: typeidBody }),
];
