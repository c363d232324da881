/**
 * Each caller's budget of lease acquires over HTTP (LEASE_ACQUIRE_LIMIT a minute):
 * every acquire holds a worker ID for a span and its grace, so without a budget of
 * its own a caller acquiring a few times a second holds all of LEASE_WORKER_IDS.
 * Over it: `429 rate_limited` with Retry-After, before any worker ID's object is asked.
 *
 * The caller is the one the rate limiter keys on (../http/middleware/rate-limit.ts: the
 * accepted token, else the client address; none, or loopback: no limit). Its budget
 * is counted in one Durable Object named for it (of the Snowflake class, as the
 * namespace's layout is): one global, exact count that LEASE_ACQUIRE_LIMIT sets
 * without a redeploy of bindings, where a Rate Limiting binding counts per
 * Cloudflare location with a limit fixed in wrangler.toml. It costs one object
 * request per acquire (an acquire already asks 1-36 objects). A counter object that
 * cannot answer lets the acquire through: the budget guards the range's capacity,
 * never IDs.
 *
 *   await spendAcquire(env, config, "token:3f…"); // throws 429 rate_limited when over
 */
import type { Config } from "../config/config";
import { serviceError } from "../errors";

/** The counter object of a caller: never a decimal name, so never a worker ID's. */
export const acquireBudgetName = (caller: string) => `lease-acquires/${caller}`;

/** Takes one acquire from `caller`'s budget, or throws `429 rate_limited` with Retry-After. */
export async function spendAcquire(
	env: Env,
	config: Config,
	caller: string | undefined,
): Promise<void> {
	const limit = config.leaseAcquireLimit;
	if (caller === undefined || limit === 0) return;
	const counter = env.SNOWFLAKE.get(env.SNOWFLAKE.idFromName(acquireBudgetName(caller)));
	let answer: Awaited<ReturnType<typeof counter.takeAcquire>>;
	try {
		answer = await counter.takeAcquire(limit);
	} catch {
		return; // an object of an earlier version, or one unreachable: not counted
	}
	if (answer.ok) return;
	throw serviceError(
		"rate_limited",
		`this caller acquired more leases than LEASE_ACQUIRE_LIMIT (${limit} a minute) allows; retry after ${answer.retryAfterSeconds} s. A process acquires once and renews its lease, and releases it when it ends`,
		answer.retryAfterSeconds,
	);
}
