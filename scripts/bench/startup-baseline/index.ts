/**
 * The baseline of `npm run bench:startup` and `npm run bench:cold`: a bare Hono app
 * with the routes they time, and a bare Durable Object (SQLite-backed, one storage
 * read) for the object route, built by the same wrangler as the service. Not shipped.
 */
import { DurableObject } from "cloudflare:workers";
import { Hono } from "hono";

interface BaselineEnv {
	OBJECT: DurableObjectNamespace<BaselineObject>;
}

export class BaselineObject extends DurableObject {
	next(): number {
		const last = this.ctx.storage.kv.get<number>("last") ?? 0;
		this.ctx.storage.kv.put("last", last + 1);
		return last + 1;
	}
}

export default new Hono<{ Bindings: BaselineEnv }>()
	.get("/health", (c) => c.json({ ok: true }))
	.get("/ulid", (c) => c.json({ ids: [crypto.randomUUID()] }))
	.get("/snowflake/:workerId", async (c) => {
		const object = c.env.OBJECT.get(c.env.OBJECT.idFromName(c.req.param("workerId")));
		return c.json({ ids: [String(await object.next())] });
	});
