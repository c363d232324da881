import { type Context, Hono } from "hono";
import type { AppEnv } from "../app-env";
import { typeidIds } from "../forms";
import { queryAndBody, typeidBody, validateBody } from "../json-body";
import { operation } from "../openapi/describe";
import { idsResponse, noteAsked } from "../respond";
import { typeidQuery, validate } from "../validation";

/** TypeIDs: UUIDv7s from the isolate's factory (monotonic, as /uuidv7), in TypeID form. */
function typeids(c: Context<AppEnv>, input: { count?: number; prefix?: string }) {
	noteAsked(c, { kind: "typeid", count: input.count ?? 1 });
	return idsResponse(c, typeidIds(c.var.config, input));
}

export const typeidRoutes = new Hono<AppEnv>()
	.get("/typeid", validate("query", typeidQuery), (c) => typeids(c, c.req.valid("query")))
	.post("/typeid", validate("query", typeidQuery), validateBody(typeidBody), (c) =>
		typeids(c, queryAndBody(c.req.valid("query"), c.req.valid("json"))),
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
