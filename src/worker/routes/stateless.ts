import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";
import { ulidIds, uuidv7Ids } from "../isolate-ids";
import { countBody, queryAndBody, ulidBody, validateBody } from "../json-body";
import { isolateIdsResponse } from "../respond";
import { countQuery, ulidQuery, validate } from "../validation";

/** ULID and UUIDv7: made in the Worker itself, no shared state. */
export const statelessRoutes = routeGroup<AppEnv>()
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
