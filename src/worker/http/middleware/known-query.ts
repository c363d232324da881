/**
 * Refuses a query parameter the matched route does not take (`/ulid?cuont=3` would
 * otherwise answer one ULID), in the words the contracts use for a name an operation
 * does not take (../../contracts/fields.ts). What a route takes is read from its own
 * reader (`readRequest(…)` registers its names here), so a route added later is
 * covered with no code of its own; a route without one takes no query parameters. Pages a browser navigates to
 * (`exempt`) keep ignoring theirs: there a query string is a link's decoration.
 *
 *   app.use(knownQueryOnly((path) => path === "/docs"));
 *   // GET /ulid?cuont=3 → 400 invalid_request: 'unknown parameter "cuont"; it takes count, format'
 */
import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { METHOD_NAME_ALL } from "hono/router";
import { unknownNames } from "../../contracts/fields";
import type { AppEnv } from "../app-env";

/** The query names each query validator accepts, keyed by the validator itself. */
const acceptedBy = new WeakMap<object, () => readonly string[]>();

/** Records that `validator` (a route handler) accepts `names()` in the query. */
export function declareQuery(validator: object, names: () => readonly string[]): void {
	acceptedBy.set(validator, names);
}

/**
 * The query names the request's route takes, or undefined when no route (only
 * middleware or a 405 catch-all) matched. Routes run in registration order, so the
 * first route of the request's method answers (`/snowflake/blocks` before
 * `/snowflake/:workerId`): only its handlers count.
 */
function acceptedNames(
	routes: ReturnType<typeof matchedRoutes>,
): { names: readonly string[] } | undefined {
	const own = routes.filter((route) => route.method !== METHOD_NAME_ALL);
	const first = own[0];
	if (!first) return undefined;
	for (const route of own) {
		if (route.path !== first.path) continue;
		const names = acceptedBy.get(route.handler);
		if (names) return { names: names() };
	}
	return { names: [] };
}

export function knownQueryOnly(exempt: (path: string) => boolean): MiddlewareHandler<AppEnv> {
	return (c, next) => {
		// Most requests have no query, or only parameters the route takes: no parse then.
		const search = c.req.url.indexOf("?");
		if (search === -1 || exempt(c.req.path)) return next();
		const route = acceptedNames(matchedRoutes(c));
		if (!route) return next();
		const sent = new Set(new URLSearchParams(c.req.url.slice(search + 1)).keys());
		const unknown = [...sent].filter((name) => !route.names.includes(name));
		if (unknown.length === 0) return next();
		throw unknownNames(unknown, route.names);
	};
}
