import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { snowflakeIds, snowflakeStats } from "../operations";
import { idsResponse } from "../respond";
import { countQuery, validate, workerIdParam } from "../validation";

export const snowflakeRoutes = new Hono<AppEnv>()
	.on(["GET", "POST"], "/snowflake", validate("query", countQuery), async (c) => {
		const { count } = c.req.valid("query");
		return idsResponse(c, await snowflakeIds(c.env, { count }, c.req.raw.cf));
	})
	.on(
		["GET", "POST"],
		"/snowflake/:workerId",
		validate("param", workerIdParam),
		validate("query", countQuery),
		async (c) => {
			const { workerId } = c.req.valid("param");
			const { count } = c.req.valid("query");
			return idsResponse(c, await snowflakeIds(c.env, { workerId, count }));
		},
	)
	.get("/snowflake/:workerId/stats", validate("param", workerIdParam), async (c) => {
		const { workerId } = c.req.valid("param");
		return c.json(await snowflakeStats(c.env, workerId), 200, { "Cache-Control": "no-store" });
	});
