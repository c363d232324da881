import { type Context, Hono, type MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { requestId } from "hono/request-id";
import { matchedRoutes } from "hono/route";
import { METHOD_NAME_ALL } from "hono/router";
import type { RouterRoute } from "hono/types";
import type { AppEnv } from "./app-env";
import type { Config } from "./config";
import { errorResponse, serviceError } from "./errors";
import { auth } from "./middleware/auth";
import { resolveConfig } from "./middleware/config";
import { rateLimit } from "./middleware/rate-limit";
import { requestLog } from "./middleware/request-log";
import { docsRoutes } from "./routes/docs";
import { metaRoutes } from "./routes/meta";
import { pageRoutes } from "./routes/page";
import { rangeRoutes } from "./routes/range";
import { regionRoutes } from "./routes/regions";
import { snowflakeRoutes } from "./routes/snowflake";
import { statelessRoutes } from "./routes/stateless";
import { typeidRoutes } from "./routes/typeid";

/**
 * Paths that need no token even when API_TOKEN is set. (The files in public/ never
 * reach the Worker on GET and HEAD: Cloudflare serves them first, so they are public too.)
 */
const PUBLIC_PATHS = new Set(["/", "/health", "/openapi.json", "/docs"]);

// Middleware built from the config, once per config (i.e. per isolate).
const corsFor = new WeakMap<Config, MiddlewareHandler>();

const corsFromConfig: MiddlewareHandler<AppEnv> = (c, next) => {
	const { config } = c.var;
	let handler = corsFor.get(config);
	if (!handler) {
		handler = cors({
			origin: config.corsOrigins,
			allowMethods: [...new Set([...served.values()].flat()), "OPTIONS"],
			allowHeaders: ["Authorization", "Content-Type", "Accept"],
			exposeHeaders: ["Retry-After", "X-Request-Id"],
			maxAge: 86_400,
		});
		corsFor.set(config, handler);
	}
	return handler(c, next);
};

/**
 * The longest request URL served. Every valid one is under 100 characters; a longer
 * one is refused before routing and auth, so no error message echoes kilobytes of
 * input. (Before the Worker: Cloudflare's edge answers 414 above 32 KB, local workerd
 * 431 above a 64 KB request line.) Bodies are read only when they declare JSON, and
 * then at most 1 KiB of them (src/worker/json-body.ts).
 */
const MAX_URL_LENGTH = 4_096;

const urlLengthGuard: MiddlewareHandler<AppEnv> = (c, next) => {
	const length = c.req.url.length;
	if (length > MAX_URL_LENGTH) {
		throw serviceError(
			"not_found",
			`no route has a URL longer than ${MAX_URL_LENGTH} characters; this one has ${length}`,
		);
	}
	return next();
};

/**
 * Each path the routes serve, with its methods in registration order. Read from
 * the app itself, so the 405 answers, the not-found hint and CORS never drift
 * from the routes. Middleware (method ALL) is not a route.
 */
function servedMethods(routes: readonly RouterRoute[]): Map<string, string[]> {
	const served = new Map<string, string[]>();
	for (const { path, method } of routes) {
		if (method === METHOD_NAME_ALL) continue;
		const methods = served.get(path) ?? [];
		if (!methods.includes(method)) methods.push(method);
		served.set(path, methods);
	}
	return served;
}

const methodNotAllowed = (allowed: string[]) => (c: Context<AppEnv>) => {
	c.header("Allow", allowed.join(", "));
	throw serviceError(
		"method_not_allowed",
		`${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(" or ")}`,
	);
};

const base = new Hono<AppEnv>()
	.use(requestId())
	.use(requestLog())
	.use(resolveConfig())
	.use(corsFromConfig)
	.use(urlLengthGuard)
	.use(auth((path) => PUBLIC_PATHS.has(path)))
	.use(rateLimit());

/**
 * HEAD is answered by GET handlers (minus the body), so `HEAD /snowflake?count=10000`
 * would issue IDs that nobody sees. On routes that issue IDs (those that also take
 * POST) it is a 405; on read-only routes it stays what HTTP says: GET without a body.
 */
const headIssuesNothing: MiddlewareHandler<AppEnv> = (c, next) => {
	if (c.req.method !== "HEAD") return next();
	const path = matchedRoutes(c)
		.filter((route) => route.method !== METHOD_NAME_ALL)
		.at(-1)?.path;
	const allowed = path === undefined ? undefined : served.get(path);
	if (allowed?.includes("POST")) return methodNotAllowed(allowed)(c);
	return next();
};

const routes = base
	.use(headIssuesNothing)
	.route("/", pageRoutes)
	.route("/", docsRoutes)
	.route("/", metaRoutes)
	.route("/", regionRoutes)
	.route("/", snowflakeRoutes)
	.route("/", statelessRoutes)
	.route("/", typeidRoutes)
	.route("/", rangeRoutes);

const served = servedMethods(routes.routes);
const routeList = [...served.keys()].join(", ");

for (const [path, allowed] of served) {
	routes.all(path, methodNotAllowed(allowed));
}

routes.notFound((c) => {
	throw serviceError("not_found", `no route ${c.req.path}; the routes are ${routeList}`);
});
routes.onError((error, c) => errorResponse(c, error));

export const app = routes;
/** The HTTP API's type, for Hono's typed client (`hc<AppType>`). */
export type AppType = typeof routes;
