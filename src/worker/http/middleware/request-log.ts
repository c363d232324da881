/**
 * One structured JSON line per request, for Workers Logs (observability is on in
 * wrangler.toml) or `wrangler tail`: searchable by request ID, route, status and
 * error code. Never a token, never an ID: only what describes the request.
 *
 *   {"requestId":"…","method":"GET","route":"/snowflake/:workerId","status":200,
 *    "kind":"snowflake","workerId":7,"count":3,"source":"direct","durationMs":4}
 *
 * Handlers add what only they know with `noteRequest(c, { … })`: what a request
 * asks for is noted before its operation runs (`noteAsked` in respond.ts, from
 * `askedNote`, which RPC calls share), so a
 * failure's line names its kind, worker ID and count too.
 *
 * Options (all optional):
 * - `write(line)`: where the line goes; default `console.log` (Workers Logs
 *   parses JSON lines into fields).
 * - `now()`: the clock for the duration; default `Date.now` (in production it moves
 *   only across I/O, so the duration is the time spent waiting on objects).
 * - `enabled(c)`: whether this request is logged, asked once it is answered;
 *   default the `REQUEST_LOG` var (on), and on when the config cannot be read (its
 *   `invalid_config` answers are what operators alert on). Benchmarks on `wrangler dev` turn it off: there every
 *   line crosses the dev server's inspector and costs more than the request itself.
 *
 * @example
 * ```ts
 * app.use(requestId()).use(requestLog());
 * ```
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { METHOD_NAME_ALL } from "hono/router";
import type { Config } from "../../config/config";
import { asServiceError, type ServiceErrorCode } from "../../errors";
import type { RequestNote } from "../../request-note";
import type { AppEnv } from "../app-env";

export interface RequestLogLine extends RequestNote {
	requestId: string | undefined;
	method: string;
	/** The route pattern (`/snowflake/:workerId`), or null when no route matched. */
	route: string | null;
	status: number;
	durationMs: number;
	error?: ServiceErrorCode;
}

export interface RequestLogOptions {
	write?: (line: string) => void;
	now?: () => number;
	enabled?: (c: Context<AppEnv>) => boolean;
}

/** Adds fields to this request's log line. */
export function noteRequest(c: Context<AppEnv>, note: RequestNote): void {
	c.set("requestNote", { ...c.get("requestNote"), ...note });
}

/**
 * The pattern of the route that answered: the first matched route of the request's
 * method (routes run in registration order, so `/snowflake/blocks` before
 * `/snowflake/:workerId`), else a catch-all for the path (a 405); null when none.
 */
export function routeOf(c: Context<AppEnv>): string | null {
	const routes = matchedRoutes(c).filter((route) => route.path !== "/*" && route.path !== "*");
	return (routes.find((route) => route.method !== METHOD_NAME_ALL) ?? routes[0])?.path ?? null;
}

export function requestLog(options: RequestLogOptions = {}): MiddlewareHandler<AppEnv> {
	const write = options.write ?? ((line: string) => console.log(line));
	const now = options.now ?? Date.now;
	const enabled = options.enabled ?? loggedByConfig;
	return async (c, next) => {
		const started = now();
		try {
			await next();
		} finally {
			if (enabled(c)) write(JSON.stringify(lineOf(c, now() - started)));
		}
	};
}

/** The line of an answered request: what it was, how it ended, what its handler noted. */
function lineOf(c: Context<AppEnv>, durationMs: number): RequestLogLine {
	const line: RequestLogLine = {
		requestId: c.get("requestId"),
		method: c.req.method,
		route: routeOf(c),
		status: c.res.status,
		...c.get("requestNote"),
		durationMs,
	};
	if (c.error) line.error = asServiceError(c.error).code;
	return line;
}

/**
 * REQUEST_LOG, read from the request's config once it is answered; on when the
 * config could not be read, so its `invalid_config` answers are logged.
 */
function loggedByConfig(c: Context<AppEnv>): boolean {
	const config: Config | undefined = c.var.config;
	return config ? config.requestLog : true;
}
