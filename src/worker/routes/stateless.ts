import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { countBody, queryAndBody, ulidBody, validateBody } from "../json-body";
import { ulidIds, uuidv7Ids } from "../operations";
import { idsResponse } from "../respond";
import { countQuery, ulidQuery, validate } from "../validation";

/** ULID and UUIDv7: made in the Worker itself, no shared state. */
export const statelessRoutes = new Hono<AppEnv>()
	.get("/ulid", validate("query", ulidQuery), (c) =>
		idsResponse(c, ulidIds(c.env, c.req.valid("query"))),
	)
	.post("/ulid", validate("query", ulidQuery), validateBody(ulidBody), (c) =>
		idsResponse(c, ulidIds(c.env, queryAndBody(c.req.valid("query"), c.req.valid("json")))),
	)
	.get("/uuidv7", validate("query", countQuery), (c) =>
		idsResponse(c, uuidv7Ids(c.env, c.req.valid("query"))),
	)
	.post("/uuidv7", validate("query", countQuery), validateBody(countBody), (c) =>
		idsResponse(c, uuidv7Ids(c.env, queryAndBody(c.req.valid("query"), c.req.valid("json")))),
	);
