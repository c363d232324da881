/**
 * One structured JSON line per request, for Workers Logs (observability is on in
 * wrangler.jsonc) or `wrangler tail`: searchable by request ID, route, status and
 * error code. Never a token, never an ID: only what describes the request.
 *
 *   {"requestId":"…","method":"GET","route":"/snowflake/:workerId","status":200,
 *    "kind":"snowflake","workerId":7,"count":3,"source":"direct","durationMs":4}
 *
 * Handlers add what only they know with `noteRequest(c, { … })` (the generation
 * answers do it in respond.ts; a pooled answer notes `source: "pool"`).
 *
 * Options (all optional):
 * - `write(line)`: where the line goes; default `console.log` (Workers Logs
 *   parses JSON lines into fields).
 * - `now()`: the clock for the duration; default `Date.now` (in production it moves
 *   only across I/O, so the duration is the time spent waiting on objects).
 * - `enabled(c)`: whether this request is logged; default the `REQUEST_LOG` var
 *   (on). Benchmarks on `wrangler dev` turn it off: there every line crosses the
 *   dev server's inspector and costs more than the request itself.
 *
 * @example
 * ```ts
 * app.use(requestId()).use(requestLog());
 * ```
 */
import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "../app-env";
import { configFrom } from "../config";
import { asServiceError, type ServiceErrorCode } from "../errors";

/** What a handler may add to its request's log line. */
export interface RequestNote {
	/** The kind of IDs answered: snowflake, snowflake-blocks, ulid, uuidv7. */
	kind?: string;
	workerId?: number;
	/** How many IDs were answered. */
	count?: number;
	/** Whether a Snowflake answer came from the isolate's pool or an object call. */
	source?: "pool" | "direct";
}

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

export function requestLog(options: RequestLogOptions = {}): MiddlewareHandler<AppEnv> {
	const write = options.write ?? ((line: string) => console.log(line));
	const now = options.now ?? Date.now;
	const enabled = options.enabled ?? ((c) => configFrom(c.env).requestLog);
	return async (c, next) => {
		if (!enabled(c)) return next();
		const started = now();
		try {
			await next();
		} finally {
			const route = routePath(c, -1);
			const line: RequestLogLine = {
				requestId: c.get("requestId"),
				method: c.req.method,
				route: route === "*" || route === "/*" ? null : route,
				status: c.res.status,
				...c.get("requestNote"),
				durationMs: now() - started,
			};
			if (c.error) line.error = asServiceError(c.error).code;
			write(JSON.stringify(line));
		}
	};
}
