/**
 * The playground's files (public/, with public/_headers), served by the Worker from
 * its ASSETS binding. wrangler.toml runs the Worker first (`run_worker_first`): left
 * to itself, the static layer answers every method on a file's path, so `POST /`
 * got its empty 405 with the files' headers instead of the service's JSON one.
 *
 * - `staticFiles()`, first in the app: a GET or HEAD that no route serves is a file
 *   request; the binding answers it unless it has no such file (then the app's 404).
 *   Before the request log, auth and the rate limiter, as when Cloudflare served the
 *   files before the Worker.
 * - `isFilePath(c)`, in the not-found handler: another method on a file's path is
 *   the service's `405 method_not_allowed` with `Allow: GET, HEAD`, not a 404.
 *
 *   app.use(staticFiles());
 *   app.notFound(async (c) => {
 *     if (await isFilePath(c)) methodNotAllowed(FILE_METHODS)(c);
 *     throw serviceError("not_found", …);
 *   });
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { METHOD_NAME_ALL } from "hono/router";
import type { AppEnv } from "../app-env";

/** The methods a file answers. */
export const FILE_METHODS = ["GET", "HEAD"];

/** The binding, if this deployment has one (it may drop `[assets]`). */
const filesOf = (c: Context<AppEnv>) => (c.env as Partial<Env>).ASSETS;

export function staticFiles(): MiddlewareHandler<AppEnv> {
	return async (c, next) => {
		const files = filesOf(c);
		if (!files || !FILE_METHODS.includes(c.req.method)) return next();
		if (matchedRoutes(c).some((route) => route.method !== METHOD_NAME_ALL)) return next();
		const file = await files.fetch(c.req.raw);
		if (file.status === 404) return next();
		return file;
	};
}

/**
 * Whether the static layer has a file at this request's path (asked with HEAD): then
 * a method other than GET or HEAD there is a 405, not a 404.
 */
export async function isFilePath(c: Context<AppEnv>): Promise<boolean> {
	const files = filesOf(c);
	if (!files) return false;
	const probe = await files.fetch(new Request(c.req.url, { method: "HEAD" }));
	return probe.status !== 404;
}
