/**
 * The HTTP app, assembled: middleware in order, then the routes, then the 405s
 * and the not-found answer. Nothing is decided here; each piece is its own module.
 *
 * Which layer may import which is docs/ARCHITECTURE.md's layer map, the only one
 * (`npm run check` keeps it true); a request's path through these pieces is there too.
 *
 *   await app.request("/snowflake/7?count=3", {}, env); // {"type":"snowflake","workerId":7,"ids":[…]}
 */
import { requestId } from "hono/request-id";
import { redactedPath } from "../contracts/lease-refusals";
import { errorResponse, serviceError } from "../errors";
import type { AppEnv } from "./app-env";
import { serviceApp } from "./hono-apps";
import { analytics } from "./middleware/analytics";
import { auth } from "./middleware/auth";
import { corsFromConfig } from "./middleware/cors";
import { headIssuesNothing } from "./middleware/head-guard";
import { knownQueryOnly } from "./middleware/known-query";
import { rateLimit } from "./middleware/rate-limit";
import { resolveConfig } from "./middleware/request-config";
import { requestLog } from "./middleware/request-log";
import { FILE_METHODS, isFilePath, staticFiles } from "./middleware/static-files";
import { urlLengthGuard } from "./middleware/url-guard";
import { docsRoutes } from "./routes/docs";
import { leafRoutes } from "./routes/leaf";
import { leaseRoutes } from "./routes/leases";
import { metaRoutes } from "./routes/meta";
import { opsRoutes } from "./routes/ops";
import { pageRoutes } from "./routes/page";
import { rangeRoutes } from "./routes/range";
import { regionRoutes } from "./routes/regions";
import { sequenceRoutes } from "./routes/sequences";
import { snowflakeRoutes } from "./routes/snowflake";
import { statelessRoutes } from "./routes/stateless";
import { typeidRoutes } from "./routes/typeid";
import { methodNotAllowed, servedMethods } from "./served-methods";

/**
 * Paths that need no token even when API_TOKEN is set. (The files in public/ are
 * public too: ./middleware/static-files.ts serves them before auth runs.)
 */
const PUBLIC_PATHS = new Set(["/", "/monitor", "/health", "/openapi.json", "/docs"]);
/** Pages a browser navigates to: their query string is a link's, not parameters. */
const PAGES = new Set(["/", "/monitor", "/docs"]);

/**
 * The router: a trie, built as routes register. Hono's default tries a RegExpRouter on
 * the first request, which cannot take these routes and falls back to this same trie:
 * every new isolate's first request paid for both (docs/PERFORMANCE.md, "The first
 * request"). Matching is the trie's either way; Linear and Pattern routers would also
 * match `/health/` for `/health`.
 */
const base = serviceApp<AppEnv>()
	.use(staticFiles())
	.use(requestId())
	.use(requestLog())
	.use(analytics())
	.use(resolveConfig())
	.use(corsFromConfig(() => [...served.values()].flat()))
	.use(urlLengthGuard())
	.use(auth((path) => PUBLIC_PATHS.has(path)))
	.use(rateLimit());

const routes = base
	.use(headIssuesNothing(() => served))
	.use(knownQueryOnly((path) => PAGES.has(path)))
	.route("/", pageRoutes)
	.route("/", docsRoutes)
	.route("/", metaRoutes)
	.route("/", regionRoutes)
	.route("/", snowflakeRoutes)
	.route("/", leaseRoutes)
	.route("/", opsRoutes)
	.route("/", sequenceRoutes)
	.route("/", leafRoutes)
	.route("/", statelessRoutes)
	.route("/", typeidRoutes)
	.route("/", rangeRoutes);

const served = servedMethods(routes.routes);
const routeList = [...served.keys()].join(", ");

for (const [path, allowed] of served) {
	routes.all(path, methodNotAllowed(allowed));
}

routes.notFound(async (c) => {
	// GET and HEAD found no file already (staticFiles); another method on a file's path is a 405.
	if (!FILE_METHODS.includes(c.req.method) && (await isFilePath(c))) {
		methodNotAllowed(FILE_METHODS)(c);
	}
	throw serviceError(
		"not_found",
		`no route ${redactedPath(c.req.path)}; the routes are ${routeList}`,
	);
});
routes.onError((error, c) => errorResponse(c, error));

export const app = routes;
/** The HTTP API's type, for Hono's typed client (`hc<AppType>`). */
export type AppType = typeof routes;
