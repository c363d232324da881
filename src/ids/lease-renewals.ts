/**
 * A lease holder's background renewals (lease-holder.ts): one lease followed at a
 * time, renewed when a third of the time left in its span has passed (every 10 s
 * under a 30 s span), again after a failure (a third of the time then left), never
 * closer than a thirtieth of the span, with at most two renewals in flight so a
 * hung one does not stop the next. Every answer is applied whenever it arrives,
 * late or out of order: a grant only ever moves `to` on.
 */
import type { HeldLease } from "./held-lease";
import { checkedGrant, failureCode, type LeaseSource } from "./lease-source";
import type { ServerClock } from "./server-clock";

/** Renewals in flight at once. */
const MAX_IN_FLIGHT = 2;

/**
 * Renewal refusals no retry can turn into a grant: the lease was released or taken
 * over, or the service no longer lends that worker ID (LEASE_WORKER_IDS changed, or
 * leases turned off). The holder moves to a new lease, as the service asks.
 */
const ENDS_A_LEASE = new Set([
	"lease_lost",
	"invalid_worker_id",
	"invalid_lease_id",
	"leases_disabled",
]);

export interface RenewalCounts {
	renewals: number;
	renewalsGranted: number;
	renewalsFailed: number;
}

export interface RenewalHost {
	source: LeaseSource;
	clock: ServerClock;
	monotonic: () => number;
	background: (callback: () => void, ms: number) => () => void;
	/** A grant of `lease` moved its `to` on. */
	extended(lease: HeldLease): void;
	/** The service will not renew `lease` again. */
	ended(lease: HeldLease): void;
}

export class LeaseRenewals {
	readonly counts: RenewalCounts = { renewals: 0, renewalsGranted: 0, renewalsFailed: 0 };
	private following: HeldLease | undefined;
	private cancel: (() => void) | undefined;
	private inFlight = 0;
	private lastSentAt = Number.NEGATIVE_INFINITY;
	private dueAt = Number.POSITIVE_INFINITY; // monotonic ms of the next renewal

	constructor(private readonly host: RenewalHost) {}

	/** Renews `lease` from now on (and no other). */
	follow(lease: HeldLease): void {
		this.following = lease;
		this.schedule(lease);
	}

	stop(): void {
		this.following = undefined;
		this.cancel?.();
		this.dueAt = Number.POSITIVE_INFINITY;
	}

	/** True once the next renewal is due: a caller renews from its own path when timers starve. */
	overdue(): boolean {
		return this.host.monotonic() >= this.dueAt;
	}

	/** The scheduled renewal, now. */
	now(lease: HeldLease): void {
		if (lease !== this.following || lease.lost || lease.copied) return;
		if (this.inFlight < MAX_IN_FLIGHT) void this.renew(lease);
		this.schedule(lease); // the next try, should this one fail or hang
	}

	/** A call waits at the span's end: renew now, unless one went out less than the gap ago. */
	soon(lease: HeldLease): void {
		const sinceMs = this.host.monotonic() - this.lastSentAt;
		if (sinceMs >= gapMs(lease) && this.inFlight < MAX_IN_FLIGHT) this.now(lease);
	}

	/** The next renewal: when a third of the time left in the span has passed. */
	private schedule(lease: HeldLease): void {
		this.cancel?.();
		const leftMs = lease.endMs() - this.host.clock.now();
		const delayMs = Math.max(gapMs(lease), leftMs / 3);
		this.dueAt = this.host.monotonic() + delayMs;
		this.cancel = this.host.background(() => this.now(lease), delayMs);
	}

	private async renew(lease: HeldLease): Promise<void> {
		this.counts.renewals++;
		this.inFlight++;
		this.lastSentAt = this.host.monotonic();
		try {
			const { grant } = checkedGrant(await this.host.source.renewLease(lease.ref()));
			this.host.clock.anchor(grant.serverNowMs);
			this.counts.renewalsGranted++;
			if (lease.extend(grant)) this.host.extended(lease);
			if (lease === this.following && !lease.lost) this.schedule(lease);
		} catch (error) {
			if (ENDS_A_LEASE.has(failureCode(error) ?? "")) this.host.ended(lease);
			else this.counts.renewalsFailed++;
		} finally {
			this.inFlight--;
		}
	}
}

/** The least time between renewals (a thirtieth of the span): no flood when answers fail. */
function gapMs(lease: HeldLease): number {
	return Math.max(10, lease.spanMs / 30);
}
