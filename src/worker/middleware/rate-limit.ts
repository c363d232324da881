/**
 * Rate limiting through the Workers Rate Limiting binding: a caller over its
 * budget gets `429 rate_limited` with `Retry-After`, before any Durable Object
 * is called (object calls are billed; a refused request costs one Worker call).
 *
 * The key is the caller: the bearer token when the service has one (so every
 * holder of the token shares one budget), else the client IP (`CF-Connecting-IP`).
 * A request with neither, or from a loopback address (`wrangler dev` on this
 * machine: every local caller is one address, and tests and benchmarks would
 * share its budget), is not limited; neither is an exempt path. No binding, no
 * limit; a limiter that fails lets the request through.
 *
 * Options (all optional):
 * - `limiter(c)`: the binding for this request; default `c.env.RATE_LIMITER`.
 * - `exempt(path)`: paths never limited; default `/health`.
 * - `retryAfterSeconds(c)`: the `Retry-After` sent; default RATE_LIMIT_PERIOD (10),
 *   the binding's period. The binding says neither its period nor when its window
 *   ends, so the whole period, configured alongside it, is the safe answer.
 *
 * @example
 * ```ts
 * // wrangler.toml:
 * //   [[ratelimits]]
 * //   name = "RATE_LIMITER"
 * //   namespace_id = "1001"
 * //   simple = { limit = 1000, period = 10 }
 * //   [vars]
 * //   RATE_LIMIT_PERIOD = "10"   # the same period
 * app.use(rateLimit());
 * ```
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";
import { configFrom } from "../config";
import { serviceError } from "../errors";

export interface RateLimitOptions {
	limiter?: (c: Context<AppEnv>) => RateLimit | undefined;
	exempt?: (path: string) => boolean;
	retryAfterSeconds?: (c: Context<AppEnv>) => number;
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** The caller's key, or undefined when the request is not limited. Never the raw token. */
export async function rateLimitKey(c: Context<AppEnv>): Promise<string | undefined> {
	const token = configFrom(c.env).apiToken;
	const sent = c.req.header("Authorization");
	// Only the service's own token counts (auth ran first): a made-up token must not
	// buy a fresh budget.
	if (token && sent === `Bearer ${token}`) return tokenKey(token);
	const ip = c.req.header("CF-Connecting-IP");
	if (!ip || LOOPBACK.test(ip)) return undefined;
	return `ip:${ip}`;
}

/** The token's key, hashed once per token (not per request). */
const tokenKeys = new Map<string, Promise<string>>();
function tokenKey(token: string): Promise<string> {
	let key = tokenKeys.get(token);
	if (!key) {
		key = sha256Hex(token).then((hex) => `token:${hex}`);
		tokenKeys.set(token, key);
	}
	return key;
}

async function sha256Hex(text: string): Promise<string> {
	const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
	return Array.from(new Uint8Array(digest).subarray(0, 16), (byte) =>
		byte.toString(16).padStart(2, "0"),
	).join("");
}

/** The limiter's answer; when it fails the request goes through (it guards cost, not IDs). */
async function withinLimit(limiter: RateLimit, key: string): Promise<boolean> {
	try {
		return (await limiter.limit({ key })).success;
	} catch {
		return true;
	}
}

export function rateLimit(options: RateLimitOptions = {}): MiddlewareHandler<AppEnv> {
	// Partial: a deployment may drop the binding from wrangler.toml.
	const limiterOf = options.limiter ?? ((c) => (c.env as Partial<Env>).RATE_LIMITER);
	const exempt = options.exempt ?? ((path) => path === "/health");
	const retryAfterOf = options.retryAfterSeconds ?? ((c) => configFrom(c.env).rateLimitPeriod);
	return async (c, next) => {
		const limiter = limiterOf(c);
		if (!limiter || exempt(c.req.path)) return next();
		const key = await rateLimitKey(c);
		if (key === undefined) return next();
		if (!(await withinLimit(limiter, key))) {
			const retryAfterSeconds = retryAfterOf(c);
			throw serviceError(
				"rate_limited",
				`this caller sent more requests than the service's rate limit allows; retry after ${retryAfterSeconds} s, ask in batches (count, /snowflake/blocks) or use a pool`,
				retryAfterSeconds,
			);
		}
		return next();
	};
}
