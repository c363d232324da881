import { formOperations } from "../../on-first-use";
import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";
import { http } from "../http-inputs";
import { readRequest } from "../read-request";
import { isolateIdsResponse } from "../respond";

/** TypeIDs: UUIDv7s from the isolate's factory (monotonic, as /uuidv7), in TypeID form. */
export const typeidRoutes = routeGroup<AppEnv>()
	.get("/typeid", readRequest(http.typeid), async (c) =>
		isolateIdsResponse(c, "typeid", c.req.valid("json"), (await formOperations()).typeidIds),
	)
	.post("/typeid", readRequest(http.typeidPost), async (c) =>
		isolateIdsResponse(c, "typeid", c.req.valid("json"), (await formOperations()).typeidIds),
	);
