/**
 * CORS for the origins CORS_ORIGINS names (`*` by default), built once per config
 * (i.e. per isolate). Preflights (`OPTIONS`) are hono's `cors`; on every other
 * request the same headers are set on the answer once it is made. (hono's `cors`
 * sets them before the route runs, which makes Hono build a stand-in response and
 * then copy the route's into a third: a fifth of a small request's CPU time here.)
 * The methods are asked for on first use, so the app can pass the ones its routes
 * serve after assembling them.
 *
 *   app.use(resolveConfig()).use(corsFromConfig(() => ["GET", "POST"]));
 */
import type { Context, MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { Config } from "../../config/config";
import type { AppEnv } from "../app-env";

const ALLOW_HEADERS = ["Authorization", "Content-Type", "Accept"];
const EXPOSE_HEADERS = ["Retry-After", "X-Request-Id", "Sequence-Period"];
/** The header's value, joined once rather than on every request. */
const EXPOSED = EXPOSE_HEADERS.join(",");

interface CorsFor {
	preflight: MiddlewareHandler;
	/** The allowed origin to answer `origin` with, or null. */
	allowOrigin(origin: string): string | null;
	/** Whether the answer depends on the request's origin (not `*`): `Vary: Origin`. */
	varies: boolean;
}

function corsFor(config: Config, methods: readonly string[]): CorsFor {
	const origins = config.corsOrigins;
	return {
		preflight: cors({
			origin: origins,
			allowMethods: [...new Set(methods), "OPTIONS"],
			allowHeaders: ALLOW_HEADERS,
			exposeHeaders: EXPOSE_HEADERS,
			maxAge: 86_400,
		}),
		allowOrigin:
			origins === "*" ? () => "*" : (origin) => (origins.includes(origin) ? origin : null),
		varies: origins !== "*",
	};
}

/** Sets `name` on the answer; an answer with immutable headers is copied first. */
function setHeader(c: Context<AppEnv>, name: string, value: string, append = false): void {
	try {
		if (append) c.res.headers.append(name, value);
		else c.res.headers.set(name, value);
	} catch {
		c.res = new Response(c.res.body, c.res);
		setHeader(c, name, value, append);
	}
}

export function corsFromConfig(methods: () => readonly string[]): MiddlewareHandler<AppEnv> {
	const built = new WeakMap<Config, CorsFor>();
	return async (c, next) => {
		const { config } = c.var;
		let own = built.get(config);
		if (!own) {
			own = corsFor(config, methods());
			built.set(config, own);
		}
		if (c.req.method === "OPTIONS") return own.preflight(c, next);
		await next();
		const allowOrigin = own.allowOrigin(c.req.header("origin") ?? "");
		if (allowOrigin) setHeader(c, "Access-Control-Allow-Origin", allowOrigin);
		setHeader(c, "Access-Control-Expose-Headers", EXPOSED);
		if (own.varies) setHeader(c, "Vary", "Origin", true);
	};
}
