/**
 * CORS for the origins CORS_ORIGINS names (`*` by default), built once per config
 * (i.e. per isolate) from hono's `cors`. The methods are asked for on first use,
 * so the app can pass the ones its routes serve after assembling them.
 *
 *   app.use(resolveConfig()).use(corsFromConfig(() => ["GET", "POST"]));
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { Config } from "../../config/config";
import type { AppEnv } from "../app-env";

export function corsFromConfig(methods: () => readonly string[]): MiddlewareHandler<AppEnv> {
	const corsFor = new WeakMap<Config, MiddlewareHandler>();
	return (c, next) => {
		const { config } = c.var;
		let handler = corsFor.get(config);
		if (!handler) {
			handler = cors({
				origin: config.corsOrigins,
				allowMethods: [...new Set(methods()), "OPTIONS"],
				allowHeaders: ["Authorization", "Content-Type", "Accept"],
				exposeHeaders: ["Retry-After", "X-Request-Id"],
				maxAge: 86_400,
			});
			corsFor.set(config, handler);
		}
		return handler(c, next);
	};
}
