/**
 * Resolves the config once per request and hands it to everything after it as
 * `c.var.config` (as hono's request-id hands on `c.var.requestId`). A config that
 * cannot be read answers `invalid_config` here, before CORS, auth or a route runs;
 * the request log, which runs before it, still logs that answer.
 *
 *   app.use(requestId()).use(requestLog()).use(resolveConfig()).use(auth(isPublic));
 */
import type { MiddlewareHandler } from "hono";
import { configFrom } from "../../config/config";
import type { AppEnv } from "../app-env";

export function resolveConfig(): MiddlewareHandler<AppEnv> {
	return (c, next) => {
		c.set("config", configFrom(c.env));
		return next();
	};
}
