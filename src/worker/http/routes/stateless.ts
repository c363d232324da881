import { ulidIds, uuidv7Ids } from "../../operations/stateless";
import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";
import { http } from "../http-inputs";
import { readRequest } from "../read-request";
import { isolateIdsResponse } from "../respond";

/** ULID and UUIDv7: made in the Worker itself, no shared state. */
export const statelessRoutes = routeGroup<AppEnv>()
	.get("/ulid", readRequest(http.ulid), (c) =>
		isolateIdsResponse(c, "ulid", c.req.valid("json"), ulidIds),
	)
	.post("/ulid", readRequest(http.ulidPost), (c) =>
		isolateIdsResponse(c, "ulid", c.req.valid("json"), ulidIds),
	)
	.get("/uuidv7", readRequest(http.uuidv7), (c) =>
		isolateIdsResponse(c, "uuidv7", c.req.valid("json"), uuidv7Ids),
	)
	.post("/uuidv7", readRequest(http.uuidv7Post), (c) =>
		isolateIdsResponse(c, "uuidv7", c.req.valid("json"), uuidv7Ids),
	);
