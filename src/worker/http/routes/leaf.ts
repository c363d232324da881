/**
 * leaf-server's routes, for callers written against Meituan Leaf: the next number of a
 * named sequence (`/api/segment/get/:key`, Leaf's segment mode), one Snowflake from the
 * auto pool (`/api/snowflake/get/:key`, the key ignored as Leaf ignores it), each
 * answered as leaf-server answers (bare decimal digits, no newline, so
 * `Long.parseLong(body)` reads it), and `/decodeSnowflakeId` in Leaf's shape. Errors are
 * the service's JSON errors with their 4xx/5xx status; auth and rate limits as every
 * route's. Each reads its contract (../../contracts/leaf.ts); docs/MIGRATING.md says how
 * a Leaf deployment moves over.
 *
 *   curl localhost:8787/api/segment/get/orders          // 1001
 *   curl localhost:8787/api/snowflake/get/anything      // 1541815603606036480
 *   curl 'localhost:8787/decodeSnowflakeId?snowflakeId=1541815603606036480'
 *   // {"workerId":"7","sequenceId":"0","timestamp":"1656432000000(2022-06-28 16:00:00.000)"}
 */
import type { Context } from "hono";
import { leafOperations } from "../../on-first-use";
import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";
import { http } from "../http-inputs";
import { noteRequest } from "../middleware/request-log";
import { readRequest } from "../read-request";
import { noteAsked } from "../respond";

/** What leaf-server writes (`String.valueOf(id)`): the digits alone. Never cached. */
function digits(c: Context<AppEnv>, id: string) {
	return c.body(id, 200, {
		"Cache-Control": "no-store",
		"Content-Type": "text/plain; charset=utf-8",
	});
}

async function segment(c: Context<AppEnv>, key: string) {
	noteAsked(c, { kind: "leaf-segment", count: 1 });
	const { leafSegmentId } = await leafOperations();
	const id = await leafSegmentId(c.env, c.var.config, key, (work) =>
		c.executionCtx.waitUntil(work),
	);
	return digits(c, id);
}

async function snowflake(c: Context<AppEnv>) {
	noteAsked(c, { kind: "leaf-snowflake", count: 1 });
	const { leafSnowflakeId } = await leafOperations();
	const { id, workerId, source } = await leafSnowflakeId(c.env, c.var.config, {
		cf: c.req.raw.cf,
		background: (work) => c.executionCtx.waitUntil(work),
	});
	noteRequest(c, { workerId, source });
	return digits(c, id);
}

export const leafRoutes = routeGroup<AppEnv>()
	.get("/api/segment/get/:key", readRequest(http.leafSegment), (c) =>
		segment(c, c.req.valid("json").key),
	)
	.post("/api/segment/get/:key", readRequest(http.leafSegmentPost), (c) =>
		segment(c, c.req.valid("json").key),
	)
	.get("/api/snowflake/get/:key", readRequest(http.leafSnowflake), (c) => snowflake(c))
	.post("/api/snowflake/get/:key", readRequest(http.leafSnowflakePost), (c) => snowflake(c))
	.get("/decodeSnowflakeId", readRequest(http.leafDecode), async (c) => {
		const { leafDecode } = await leafOperations();
		return c.json(leafDecode(c.var.config, c.req.valid("json").snowflakeId));
	});
