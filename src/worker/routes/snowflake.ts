import { type Context, Hono } from "hono";
import type { AppEnv } from "../app-env";
import { countBody, queryAndBody, validateBody } from "../json-body";
import { snowflakeIds, snowflakeStats } from "../operations";
import { idsResponse } from "../respond";
import { countQuery, validate, workerIdParam } from "../validation";

/** Snowflakes from a worker ID picked by the service (`workerId` undefined) or named. */
async function snowflakes(c: Context<AppEnv>, input: { workerId?: number; count?: number }) {
	const cf = input.workerId === undefined ? c.req.raw.cf : undefined;
	return idsResponse(c, await snowflakeIds(c.env, input, cf));
}

export const snowflakeRoutes = new Hono<AppEnv>()
	.get("/snowflake", validate("query", countQuery), (c) => snowflakes(c, c.req.valid("query")))
	.post("/snowflake", validate("query", countQuery), validateBody(countBody), (c) =>
		snowflakes(c, queryAndBody(c.req.valid("query"), c.req.valid("json"))),
	)
	.get(
		"/snowflake/:workerId",
		validate("param", workerIdParam),
		validate("query", countQuery),
		(c) => snowflakes(c, { ...c.req.valid("query"), ...c.req.valid("param") }),
	)
	.post(
		"/snowflake/:workerId",
		validate("param", workerIdParam),
		validate("query", countQuery),
		validateBody(countBody),
		(c) =>
			snowflakes(c, {
				...queryAndBody(c.req.valid("query"), c.req.valid("json")),
				...c.req.valid("param"),
			}),
	)
	.get("/snowflake/:workerId/stats", validate("param", workerIdParam), async (c) => {
		const { workerId } = c.req.valid("param");
		return c.json(await snowflakeStats(c.env, workerId), 200, { "Cache-Control": "no-store" });
	});
