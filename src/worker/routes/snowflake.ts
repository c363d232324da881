import { type Context, Hono } from "hono";
import type { AppEnv } from "../app-env";
import { configFrom } from "../config";
import { countBody, queryAndBody, validateBody } from "../json-body";
import { noteRequest } from "../middleware/request-log";
import { snowflakeBlocks, snowflakeIds, snowflakeStats } from "../operations";
import { idsResponse } from "../respond";
import { countQuery, validate, workerIdParam } from "../validation";

const NO_STORE = { "Cache-Control": "no-store" } as const;

/** Snowflakes from a worker ID named, or (`workerId` undefined) from this isolate's pool. */
async function snowflakes(c: Context<AppEnv>, input: { workerId?: number; count?: number }) {
	const pooled = input.workerId === undefined && configFrom(c.env).poolMaxAgeMs > 0;
	noteRequest(c, { source: pooled ? "pool" : "direct" });
	const auto = {
		cf: c.req.raw.cf,
		background: (work: Promise<unknown>) => c.executionCtx.waitUntil(work),
	};
	return idsResponse(c, await snowflakeIds(c.env, input, auto));
}

/** Blocks `{first, count}` from one object call (never pooled). */
async function blocks(c: Context<AppEnv>, input: { workerId?: number; count?: number }) {
	return c.json(await snowflakeBlocks(c.env, input, c.req.raw.cf), 200, NO_STORE);
}

// The blocks routes come first: "blocks" is not a worker ID.
export const snowflakeRoutes = new Hono<AppEnv>()
	.get("/snowflake/blocks", validate("query", countQuery), (c) => blocks(c, c.req.valid("query")))
	.post("/snowflake/blocks", validate("query", countQuery), validateBody(countBody), (c) =>
		blocks(c, queryAndBody(c.req.valid("query"), c.req.valid("json"))),
	)
	.get(
		"/snowflake/:workerId/blocks",
		validate("param", workerIdParam),
		validate("query", countQuery),
		(c) => blocks(c, { ...c.req.valid("query"), ...c.req.valid("param") }),
	)
	.post(
		"/snowflake/:workerId/blocks",
		validate("param", workerIdParam),
		validate("query", countQuery),
		validateBody(countBody),
		(c) =>
			blocks(c, {
				...queryAndBody(c.req.valid("query"), c.req.valid("json")),
				...c.req.valid("param"),
			}),
	)
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
		return c.json(await snowflakeStats(c.env, workerId), 200, NO_STORE);
	});
