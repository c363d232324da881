import { snowflakeOperations } from "../../on-first-use";
import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";
import { http } from "../http-inputs";
import { readRequest } from "../read-request";

export const metaRoutes = routeGroup<AppEnv>()
	.get("/health", (c) => c.json({ status: "ok" as const }))
	.get("/layout", (c) => c.json(c.var.config.layout.toJSON()))
	.get("/decode/:id", readRequest(http.decode), async (c) =>
		c.json((await snowflakeOperations()).decode(c.var.config, c.req.valid("json"))),
	)
	// An empty ID is an invalid ID (as over RPC), not an unknown path; it takes the same query.
	.get("/decode/", readRequest(http.decode), async (c) =>
		c.json((await snowflakeOperations()).decode(c.var.config, c.req.valid("json"))),
	);
