import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { configFrom } from "../config";
import { decode } from "../operations";
import { decodeQuery, idParam, validate } from "../validation";

export const metaRoutes = new Hono<AppEnv>()
	.get("/health", (c) => c.json({ status: "ok" as const }))
	.get("/layout", (c) => c.json(configFrom(c.env).layout.toJSON()))
	.get("/decode/:id", validate("param", idParam), validate("query", decodeQuery), (c) =>
		c.json(decode(c.env, c.req.valid("param").id, c.req.valid("query"))),
	)
	// An empty ID is an invalid ID (as over RPC), not an unknown path.
	.get("/decode/", (c) => c.json(decode(c.env, "")));
