import { type Context, Hono } from "hono";
import type { AppEnv } from "../app-env";
import { queryAndBody, snowflakeBody, validateBody } from "../json-body";
import { noteRequest } from "../middleware/request-log";
import { operation } from "../openapi/operation";
import { snowflakeBlocks, snowflakeIds, snowflakeStats } from "../operations";
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
	const { body, source } = await snowflakeIds(c.env, c.var.config, input, auto);
	noteRequest(c, { source });
	return idsResponse(c, body);
}

/** Blocks `{first, count}` from one object call (never pooled). */
async function blocks(c: Context<AppEnv>, input: Asked) {
	noteAsked(c, { kind: "snowflake-blocks", ...input, count: input.count ?? 1 });
	noteRequest(c, { source: "direct" });
	const answer = await snowflakeBlocks(c.env, c.var.config, input, c.req.raw.cf);
	noteRequest(c, { workerId: answer.workerId });
	return c.json(answer, 200, NO_STORE);
}

// The blocks routes come first: "blocks" is not a worker ID.
export const snowflakeRoutes = new Hono<AppEnv>()
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
		return c.json(await snowflakeStats(c.env, c.var.config, workerId), 200, NO_STORE);
	});

const tag = "Snowflake";
const auto = { tag, objects: true, query: snowflakeQuery } as const;
/** A named worker ID may be leased to holders: 409 worker_id_leased. */
const named = { ...auto, params: workerIdParam, conflicts: true } as const;
const ids = { ok: "snowflakeIdsSchema", ids: true } as const;
const runs = { ok: "blocksSchema" } as const;
const AUTO =
	"Snowflakes from a worker ID this deployment picks (near the caller, from a per-isolate pool)";
const NAMED = "Snowflakes from one worker ID, strictly increasing";
const BLOCKS =
	"Blocks of consecutive Snowflakes ({first, count}) from one object call, never pooled";
const NAMED_BLOCKS = "Blocks of consecutive Snowflakes from one worker ID";

export const snowflakeOperations = [
	operation({ ...auto, ...runs, method: "get", path: "/snowflake/blocks", summary: BLOCKS }),
	operation({
		...auto,
		...runs,
		method: "post",
		path: "/snowflake/blocks",
		summary: BLOCKS,
		body: snowflakeBody,
	}),
	operation({
		...named,
		...runs,
		method: "get",
		path: "/snowflake/{workerId}/blocks",
		summary: NAMED_BLOCKS,
	}),
	operation({
		...named,
		...runs,
		method: "post",
		path: "/snowflake/{workerId}/blocks",
		summary: NAMED_BLOCKS,
		body: snowflakeBody,
	}),
	operation({ ...auto, ...ids, method: "get", path: "/snowflake", summary: AUTO }),
	operation({
		...auto,
		...ids,
		method: "post",
		path: "/snowflake",
		summary: AUTO,
		body: snowflakeBody,
	}),
	operation({ ...named, ...ids, method: "get", path: "/snowflake/{workerId}", summary: NAMED }),
	operation({
		...named,
		...ids,
		method: "post",
		path: "/snowflake/{workerId}",
		summary: NAMED,
		body: snowflakeBody,
	}),
	operation({
		tag,
		objects: true,
		params: workerIdParam,
		ok: "statsSchema",
		method: "get",
		path: "/snowflake/{workerId}/stats",
		summary: "Counters of one worker ID's object (they survive restarts)",
	}),
];
