import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";
import { formOperations } from "../on-first-use";
import { noteAsked } from "../respond";
import { rangeQuery, validate } from "../validation";

/** The ID bounds of a time window: arithmetic only, so the answer may be cached. */
export const rangeRoutes = routeGroup<AppEnv>().get(
	"/range",
	validate("query", rangeQuery),
	async (c) => {
		const query = c.req.valid("query");
		noteAsked(c, { kind: "range", workerId: query.workerId });
		const { idRange } = await formOperations();
		return c.json(idRange(c.var.config, query));
	},
);
