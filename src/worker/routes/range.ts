import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { idRange } from "../forms";
import { operation } from "../openapi/operation";
import { noteAsked } from "../respond";
import { rangeQuery, validate } from "../validation";

/** The ID bounds of a time window: arithmetic only, so the answer may be cached. */
export const rangeRoutes = new Hono<AppEnv>().get("/range", validate("query", rangeQuery), (c) => {
	const query = c.req.valid("query");
	noteAsked(c, { kind: "range", workerId: query.workerId });
	return c.json(idRange(c.var.config, query));
});

export const rangeOperations = [
	operation({
		method: "get",
		path: "/range",
		summary: "The tightest [min, max] holding every ID of a kind with a time in [from, to)",
		description:
			"For range queries on an ID column: `WHERE id BETWEEN min AND max` (Snowflakes in decimal by number, every text form by text). A Snowflake's time is epoch + tick × timeUnitMs, so the window holds the ticks that start in it; `workerId` narrows the bounds to one worker ID's IDs. A window reaching past the kind's time range is cut to it; one outside it, or with from ≥ to, is 400 invalid_range.",
		tag: "ID forms and ranges",
		query: rangeQuery,
		ok: "rangeSchema",
	}),
];
