/**
 * HEAD is answered by GET handlers (minus the body), so `HEAD /snowflake?count=10000`
 * would issue IDs that nobody sees. On routes that issue IDs (those that also take
 * POST) it is a 405; on read-only routes it stays what HTTP says: GET without a body.
 * The served methods are asked for per request, so the app can pass its own once
 * assembled.
 *
 *   app.use(headIssuesNothing(() => served)); // HEAD /ulid → 405, Allow: GET, POST
 */
import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { METHOD_NAME_ALL } from "hono/router";
import type { AppEnv } from "../app-env";
import { methodNotAllowed } from "../served-methods";

export function headIssuesNothing(
	served: () => ReadonlyMap<string, string[]>,
): MiddlewareHandler<AppEnv> {
	return (c, next) => {
		if (c.req.method !== "HEAD") return next();
		const path = matchedRoutes(c)
			.filter((route) => route.method !== METHOD_NAME_ALL)
			.at(-1)?.path;
		const allowed = path === undefined ? undefined : served().get(path);
		if (allowed?.includes("POST")) return methodNotAllowed(allowed)(c);
		return next();
	};
}
