import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";
import { queryAndBody, snowflakeBody, validateBody } from "../json-body";
import { noteRequest } from "../middleware/request-log";
import { snowflakeOperations } from "../on-first-use";
import { idsResponse, noteAsked } from "../respond";
import { snowflakeQuery, validate, workerIdParam } from "../validation";

const NO_STORE = { "Cache-Control": "no-store" } as const;

type Asked = { workerId?: number; count?: number; format?: string; prefix?: string };

/** Snowflakes from a worker ID named, or (`workerId` undefined) from this isolate's pool. */
async function snowflakes(c: Context<AppEnv>, input: Asked) {
	noteAsked(c, { kind: "snowflake", ...input, count: input.count ?? 1 });
	// A named worker ID is one object call (noted before it, so a failure's line says
	// so too); an auto request says how it was served once it is.
	if (input.workerId !== undefined) noteRequest(c, { source: "direct" });
	const auto = {
		cf: c.req.raw.cf,
		background: (work: Promise<unknown>) => c.executionCtx.waitUntil(work),
	};
	const { snowflakeIds } = await snowflakeOperations();
	const { body, source } = await snowflakeIds(c.env, c.var.config, input, auto);
	noteRequest(c, { source });
	return idsResponse(c, body);
}

/** Blocks `{first, count}` from one object call (never pooled). */
async function blocks(c: Context<AppEnv>, input: Asked) {
	noteAsked(c, { kind: "snowflake-blocks", ...input, count: input.count ?? 1 });
	noteRequest(c, { source: "direct" });
	const { snowflakeBlocks } = await snowflakeOperations();
	const answer = await snowflakeBlocks(c.env, c.var.config, input, c.req.raw.cf);
	noteRequest(c, { workerId: answer.workerId });
	return c.json(answer, 200, NO_STORE);
}

// The blocks routes come first: "blocks" is not a worker ID.
export const snowflakeRoutes = routeGroup<AppEnv>()
	.get("/snowflake/blocks", validate("query", snowflakeQuery), (c) =>
		blocks(c, c.req.valid("query")),
	)
	.post("/snowflake/blocks", validate("query", snowflakeQuery), validateBody(snowflakeBody), (c) =>
		blocks(c, queryAndBody(c.req.valid("query"), c.req.valid("json"))),
	)
	.get(
		"/snowflake/:workerId/blocks",
		validate("param", workerIdParam),
		validate("query", snowflakeQuery),
		(c) => blocks(c, { ...c.req.valid("query"), ...c.req.valid("param") }),
	)
	.post(
		"/snowflake/:workerId/blocks",
		validate("param", workerIdParam),
		validate("query", snowflakeQuery),
		validateBody(snowflakeBody),
		(c) =>
			blocks(c, {
				...queryAndBody(c.req.valid("query"), c.req.valid("json")),
				...c.req.valid("param"),
			}),
	)
	.get("/snowflake", validate("query", snowflakeQuery), (c) => snowflakes(c, c.req.valid("query")))
	.post("/snowflake", validate("query", snowflakeQuery), validateBody(snowflakeBody), (c) =>
		snowflakes(c, queryAndBody(c.req.valid("query"), c.req.valid("json"))),
	)
	.get(
		"/snowflake/:workerId",
		validate("param", workerIdParam),
		validate("query", snowflakeQuery),
		(c) => snowflakes(c, { ...c.req.valid("query"), ...c.req.valid("param") }),
	)
	.post(
		"/snowflake/:workerId",
		validate("param", workerIdParam),
		validate("query", snowflakeQuery),
		validateBody(snowflakeBody),
		(c) =>
			snowflakes(c, {
				...queryAndBody(c.req.valid("query"), c.req.valid("json")),
				...c.req.valid("param"),
			}),
	)
	.get("/snowflake/:workerId/stats", validate("param", workerIdParam), async (c) => {
		const { workerId } = c.req.valid("param");
		noteAsked(c, { kind: "snowflake-stats", workerId });
		const { snowflakeStats } = await snowflakeOperations();
		return c.json(await snowflakeStats(c.env, c.var.config, workerId), 200, NO_STORE);
	});
