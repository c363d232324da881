/**
 * The Snowflake routes: IDs from a worker ID this deployment picks (`/snowflake`) or
 * the one named (`/snowflake/:workerId`), as IDs or as blocks `{first, count}`, by
 * GET (query) or POST (query or JSON body), and a worker ID's object's counters
 * (`/snowflake/:workerId/stats`). Each reads its contract (../../contracts/ids.ts).
 *
 *   GET /snowflake/7?count=3         → { type: "snowflake", workerId: 7, ids: [...] }
 *   POST /snowflake/blocks {"count": 5000} → { type: "snowflake-blocks", blocks: [...] }
 */
import type { Context } from "hono";
import type { ContractInput } from "../../contracts/fields";
import type { snowflakeContract } from "../../contracts/ids";
import { snowflakeOperations } from "../../on-first-use";
import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";
import { http } from "../http-inputs";
import { noteRequest } from "../middleware/request-log";
import { readRequest } from "../read-request";
import { idsResponse, noteAsked } from "../respond";

const NO_STORE = { "Cache-Control": "no-store" } as const;

type Asked = ContractInput<typeof snowflakeContract>;

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
	.get("/snowflake/blocks", readRequest(http.blocksAuto), (c) => blocks(c, c.req.valid("json")))
	.post("/snowflake/blocks", readRequest(http.blocksAutoPost), (c) =>
		blocks(c, c.req.valid("json")),
	)
	.get("/snowflake/:workerId/blocks", readRequest(http.blocksNamed), (c) =>
		blocks(c, c.req.valid("json")),
	)
	.post("/snowflake/:workerId/blocks", readRequest(http.blocksNamedPost), (c) =>
		blocks(c, c.req.valid("json")),
	)
	.get("/snowflake", readRequest(http.snowflakeAuto), (c) => snowflakes(c, c.req.valid("json")))
	.post("/snowflake", readRequest(http.snowflakeAutoPost), (c) =>
		snowflakes(c, c.req.valid("json")),
	)
	.get("/snowflake/:workerId", readRequest(http.snowflakeNamed), (c) =>
		snowflakes(c, c.req.valid("json")),
	)
	.post("/snowflake/:workerId", readRequest(http.snowflakeNamedPost), (c) =>
		snowflakes(c, c.req.valid("json")),
	)
	.get("/snowflake/:workerId/stats", readRequest(http.stats), async (c) => {
		const { workerId } = c.req.valid("json");
		noteAsked(c, { kind: "snowflake-stats", workerId });
		const { snowflakeStats } = await snowflakeOperations();
		return c.json(await snowflakeStats(c.env, c.var.config, workerId), 200, NO_STORE);
	});
