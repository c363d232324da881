import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { ulidIds, uuidv7Ids } from "../operations";
import { idsResponse } from "../respond";
import { countQuery, ulidQuery, validate } from "../validation";

/** ULID and UUIDv7: made in the Worker itself, no shared state. */
export const statelessRoutes = new Hono<AppEnv>()
	.on(["GET", "POST"], "/ulid", validate("query", ulidQuery), (c) =>
		idsResponse(c, ulidIds(c.env, c.req.valid("query"))),
	)
	.on(["GET", "POST"], "/uuidv7", validate("query", countQuery), (c) =>
		idsResponse(c, uuidv7Ids(c.env, c.req.valid("query"))),
	);
