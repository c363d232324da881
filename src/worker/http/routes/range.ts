import { formOperations } from "../../on-first-use";
import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";
import { http } from "../http-inputs";
import { readRequest } from "../read-request";
import { noteAsked } from "../respond";

/** The ID bounds of a time window: arithmetic only, so the answer may be cached. */
export const rangeRoutes = routeGroup<AppEnv>().get(
	"/range",
	readRequest(http.range),
	async (c) => {
		const query = c.req.valid("json");
		noteAsked(c, { kind: "range", workerId: query.workerId });
		const { idRange } = await formOperations();
		return c.json(idRange(c.var.config, query));
	},
);
