/**
 * One Workers Analytics Engine data point per request, when an `ANALYTICS` dataset
 * is bound (wrangler.toml's commented `[[analytics_engine_datasets]]`): written after
 * the answer, without awaiting (`writeDataPoint` only queues it), and a dataset that
 * throws never fails the request. The fields, in the order docs/OPERATIONS.md's SQL
 * reads them:
 *
 *   index1: the route pattern (`/snowflake/:workerId`; `unmatched` when none)
 *   blob1: the route, blob2: the error code ("" on success), blob3: the colo,
 *   blob4: the kind (snowflake, lease, …), blob5: the method
 *   double1: the status, double2: the worker ID (-1 without one), double3: the count
 *   (0 without one), double4: the wait in ms (the time spent on objects: Date.now()
 *   moves only across I/O in a deployed Worker)
 *
 * @example
 * ```ts
 * app.use(requestLog()).use(analytics());
 * ```
 */
import type { MiddlewareHandler } from "hono";
import { asServiceError } from "../../errors";
import type { AppEnv } from "../app-env";
import { routeOf } from "./request-log";

export function analytics(now: () => number = Date.now): MiddlewareHandler<AppEnv> {
	return async (c, next) => {
		const dataset = (c.env as Partial<Env>).ANALYTICS;
		if (!dataset) return next();
		const started = now();
		try {
			await next();
		} finally {
			const note = c.get("requestNote") ?? {};
			const route = routeOf(c) ?? "unmatched";
			const colo = (c.req.raw.cf as { colo?: unknown } | undefined)?.colo;
			try {
				dataset.writeDataPoint({
					indexes: [route],
					blobs: [
						route,
						c.error ? asServiceError(c.error).code : "",
						typeof colo === "string" ? colo : "",
						note.kind ?? "",
						c.req.method,
					],
					doubles: [c.res.status, note.workerId ?? -1, note.count ?? 0, now() - started],
				});
			} catch {
				// Analytics is a view: a dataset that refuses a point costs the point only.
			}
		}
	};
}
