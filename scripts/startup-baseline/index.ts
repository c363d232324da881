/**
 * The startup baseline of `npm run bench:startup`: a bare Hono app of two routes,
 * built by the same wrangler as the service. Not shipped.
 */
import { Hono } from "hono";

export default new Hono()
	.get("/health", (c) => c.json({ ok: true }))
	.get("/ulid", (c) => c.json({ ids: [crypto.randomUUID()] }));
