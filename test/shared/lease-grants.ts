/** Lease grants as the service answers them, for tests that run on the real clock (Twitter layout). */

import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";
import type { LeaseGrant } from "../../src/wire";

export const twitterLayout = new SnowflakeLayout(TWITTER_LAYOUT);

/** A grant of `workerId` for the ticks from now to `spanMs` from now. */
export function grantNow(workerId: number, leaseId: string, spanMs = 30_000): LeaseGrant {
	const now = Date.now();
	const from = twitterLayout.tickOf(now);
	const to = twitterLayout.tickOf(now + spanMs);
	return {
		workerId,
		leaseId,
		from,
		to,
		fromMs: twitterLayout.msOf(from),
		toMs: twitterLayout.msOf(to),
		serverNowMs: now,
		layout: twitterLayout.toJSON(),
	};
}

/** What the service shows of a worker ID no holder holds: no holder, no span. */
export const FREE_LEASE_VIEW = {
	state: "free",
	holder: null,
	from: null,
	to: null,
	fromMs: null,
	toMs: null,
} as const;
