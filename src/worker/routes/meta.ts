import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";
import { snowflakeOperations } from "../on-first-use";
import { decodeQuery, idParam, validate } from "../validation";

export const metaRoutes = routeGroup<AppEnv>()
	.get("/health", (c) => c.json({ status: "ok" as const }))
	.get("/layout", (c) => c.json(c.var.config.layout.toJSON()))
	.get("/decode/:id", validate("param", idParam), validate("query", decodeQuery), async (c) =>
		c.json(
			(await snowflakeOperations()).decode(
				c.var.config,
				c.req.valid("param").id,
				c.req.valid("query"),
			),
		),
	)
	// An empty ID is an invalid ID (as over RPC), not an unknown path; it takes the same query.
	.get("/decode/", validate("query", decodeQuery), async (c) =>
		c.json((await snowflakeOperations()).decode(c.var.config, "", c.req.valid("query"))),
	);
