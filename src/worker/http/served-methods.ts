/**
 * The methods each path serves, read from the assembled app itself, so the 405
 * answers, the HEAD guard, the not-found hint and CORS never drift from the routes.
 *
 *   const served = servedMethods(routes.routes); // Map { "/ulid" => ["GET", "POST"], … }
 *   routes.all("/ulid", methodNotAllowed(["GET", "POST"]));
 */
import type { Context } from "hono";
import { METHOD_NAME_ALL } from "hono/router";
import type { RouterRoute } from "hono/types";
import { redactedPath } from "../contracts/lease-refusals";
import { serviceError } from "../errors";
import type { AppEnv } from "./app-env";

/**
 * Each path the routes serve, with its methods in registration order.
 * Middleware (method ALL) is not a route.
 */
export function servedMethods(routes: readonly RouterRoute[]): Map<string, string[]> {
	const served = new Map<string, string[]>();
	for (const { path, method } of routes) {
		if (method === METHOD_NAME_ALL) continue;
		const methods = served.get(path) ?? [];
		if (!methods.includes(method)) methods.push(method);
		served.set(path, methods);
	}
	return served;
}

/** A 405 naming the methods the path allows, with `Allow`. */
export const methodNotAllowed = (allowed: string[]) => (c: Context<AppEnv>) => {
	c.header("Allow", allowed.join(", "));
	throw serviceError(
		"method_not_allowed",
		`${c.req.method} is not allowed on ${redactedPath(c.req.path)}; use ${allowed.join(" or ")}`,
	);
};
