import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";
import { queryAndBody, typeidBody, validateBody } from "../json-body";
import { formOperations } from "../on-first-use";
import { isolateIdsResponse } from "../respond";
import { typeidQuery, validate } from "../validation";

/** TypeIDs: UUIDv7s from the isolate's factory (monotonic, as /uuidv7), in TypeID form. */
export const typeidRoutes = routeGroup<AppEnv>()
	.get("/typeid", validate("query", typeidQuery), async (c) =>
		isolateIdsResponse(c, "typeid", c.req.valid("query"), (await formOperations()).typeidIds),
	)
	.post("/typeid", validate("query", typeidQuery), validateBody(typeidBody), async (c) =>
		isolateIdsResponse(
			c,
			"typeid",
			queryAndBody(c.req.valid("query"), c.req.valid("json")),
			(await formOperations()).typeidIds,
		),
	);
