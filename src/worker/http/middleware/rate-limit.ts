/**
 * Rate limiting through the Workers Rate Limiting binding: a caller over its
 * budget gets `429 rate_limited` with `Retry-After`, before any Durable Object
 * is called (object calls are billed; a refused request costs one Worker call).
 *
 * The key is the caller: a token the service accepts (one budget per token, shared
 * by every holder, however auth lets it be spelled: ./auth.ts), else the client
 * address (`CF-Connecting-IP`): an IPv4 address, or an IPv6 /64 (./client-address.ts),
 * trusted only where Cloudflare sets it (TRUST_CF_CONNECTING_IP, on by default; off
 * under `wrangler dev`, which passes on any value a caller sends and cannot tell the
 * socket's address from a claimed one, so there a token-less caller has no address).
 * A request with neither, or from a loopback address (every local caller is one
 * address, and tests and benchmarks would share its budget), is not limited;
 * neither is an exempt path. No binding, no limit; a limiter that fails lets the
 * request through.
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
import { serviceError } from "../../errors";
import type { AppEnv } from "../app-env";
import { acceptedToken } from "./auth";
import { addressKey } from "./client-address";

export interface RateLimitOptions {
	limiter?: (c: Context<AppEnv>) => RateLimit | undefined;
	exempt?: (path: string) => boolean;
	retryAfterSeconds?: (c: Context<AppEnv>) => number;
}

/** The caller's key, or undefined when the request is not limited. Never the raw token. */
export async function rateLimitKey(c: Context<AppEnv>): Promise<string | undefined> {
	// Only a token the service accepts counts, however auth lets it be spelled: a
	// made-up token must not buy a fresh budget, a respelled one must not either.
	const token = await acceptedToken(c);
	if (token) return token.key;
	// Only where Cloudflare sets it: under `wrangler dev` a caller's own header would
	// buy a fresh budget per value it makes up (TRUST_CF_CONNECTING_IP off there).
	if (!c.var.config.trustClientAddress) return undefined;
	const address = c.req.header("CF-Connecting-IP");
	return address ? addressKey(address) : undefined;
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
	const retryAfterOf = options.retryAfterSeconds ?? ((c) => c.var.config.rateLimitPeriod);
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
