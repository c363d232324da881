/**
 * A lease holder's background renewals (lease-holder.ts): one lease followed at a
 * time, renewed when a third of its span has passed since its last grant (every
 * 10 s under a 30 s span). Each attempt has a deadline of its own, a tenth of the
 * span (3 s): one that fails or outlives it counts as failed, and the next starts
 * at once, but never sooner than a thirtieth of the span after the last one
 * started. So a hung call never stops renewing, and no state renews faster than
 * that. An abandoned attempt's signal aborts (where the source takes one); its
 * answer, if it comes, is still applied: a grant only ever moves `to` on.
 *
 *   const renewals = new LeaseRenewals(host);
 *   renewals.follow(lease);   // after the acquire's grant: renews it from now on
 *   renewals.soon(lease);     // a call waits at `to`: renew now if the pace allows
 */
import type { HeldLease } from "./held-lease";
import { checkedGrant, failureCode, type LeaseSource } from "./lease-source";
import type { ServerClock } from "./server-clock";

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
	/** True while `lease` is this process's to renew (false in a copy: renewals stop). */
	ownsHere(lease: HeldLease): boolean;
	/** A grant of `lease` moved its `to` on, or the clock stepped back to the service's. */
	extended(lease: HeldLease): void;
	/** The service will not renew `lease` again. */
	ended(lease: HeldLease): void;
}

/** One renewal call: its deadline, and whether the holder gave up on it. */
interface Attempt {
	lease: HeldLease;
	deadlineAt: number;
	abandoned: boolean;
	cancel: AbortController;
}

export class LeaseRenewals {
	readonly counts: RenewalCounts = { renewals: 0, renewalsGranted: 0, renewalsFailed: 0 };
	private following: HeldLease | undefined;
	private cancelTimer: (() => void) | undefined;
	private live: Attempt | undefined; // the attempt within its deadline, if any
	private lastStartAt = Number.NEGATIVE_INFINITY;
	private dueAt = Number.POSITIVE_INFINITY; // monotonic ms of the next renewal (none while one is live)

	constructor(private readonly host: RenewalHost) {}

	/** Renews `lease` from now on (and no other): a third of its span from now. */
	follow(lease: HeldLease): void {
		this.dropLive();
		this.following = lease;
		this.dueAt = this.host.monotonic() + cadenceMs(lease);
		this.pace(lease);
	}

	stop(): void {
		this.following = undefined;
		this.dropLive();
		this.cancelTimer?.();
		this.cancelTimer = undefined;
		this.dueAt = Number.POSITIVE_INFINITY;
	}

	/** True once the next renewal (or a live one's deadline) is due: a caller renews from its own path when timers starve. */
	overdue(): boolean {
		const now = this.host.monotonic();
		return now >= (this.live?.deadlineAt ?? this.dueAt);
	}

	/** The scheduled renewal, or a live one's deadline, if due (the timer's and a starved caller's path). */
	now(lease: HeldLease): void {
		this.pace(lease);
	}

	/** A call waits at the span's end: renew now, unless one is live or went out less than the gap ago. */
	soon(lease: HeldLease): void {
		if (lease === this.following && this.live === undefined) {
			this.dueAt = Math.min(this.dueAt, this.host.monotonic());
		}
		this.pace(lease);
	}

	/** Starts what is due (abandoning a live attempt past its deadline first) and sets the timer for what comes next. */
	private pace(lease: HeldLease): void {
		if (lease !== this.following || lease.lost) return;
		if (!this.host.ownsHere(lease)) {
			this.stop(); // a copy's renewals would renew the original's lease
			return;
		}
		const now = this.host.monotonic();
		const live = this.live;
		if (live !== undefined && now >= live.deadlineAt) {
			this.abandon(live);
			this.dueAt = now; // the next attempt at once
		}
		// Stryker disable next-line ConditionalExpression: while an attempt is live, dueAt is +∞ (start sets it; nothing else writes it before the attempt ends), so no start could happen
		if (this.live === undefined) {
			const startAt = Math.max(this.dueAt, this.lastStartAt + gapMs(lease));
			if (now >= startAt) this.start(lease, now);
		}
		const wakeAt = this.live?.deadlineAt ?? Math.max(this.dueAt, this.lastStartAt + gapMs(lease));
		this.cancelTimer?.();
		// Whole ms, at least one: a fraction left by rounding would wake it again at once.
		const delayMs = Math.max(1, Math.ceil(wakeAt - now));
		this.cancelTimer = this.host.background(() => this.pace(lease), delayMs);
	}

	private start(lease: HeldLease, now: number): void {
		this.counts.renewals++;
		this.lastStartAt = now;
		this.dueAt = Number.POSITIVE_INFINITY;
		const attempt: Attempt = {
			lease,
			deadlineAt: now + deadlineMs(lease),
			abandoned: false,
			cancel: new AbortController(),
		};
		this.live = attempt;
		let call: PromiseLike<unknown>;
		try {
			call = this.host.source.renewLease(lease.ref(), { signal: attempt.cancel.signal });
		} catch (error) {
			call = Promise.reject(error);
		}
		Promise.resolve(call).then(
			(answer) => this.granted(attempt, answer),
			(error: unknown) => this.failed(attempt, error),
		);
	}

	private granted(attempt: Attempt, answer: unknown): void {
		let grant: ReturnType<typeof checkedGrant>["grant"];
		try {
			grant = checkedGrant(answer as Parameters<typeof checkedGrant>[0]).grant;
		} catch (error) {
			this.failed(attempt, error);
			return;
		}
		const { lease } = attempt;
		const inTime = !attempt.abandoned;
		// Only an answer within its deadline bounds its travel time (a tenth of the span):
		// one more than a span behind the clock's reading then shows the clock is wrong.
		const steppedBack = this.host.clock.anchor(
			grant.serverNowMs,
			inTime ? lease.spanMs : Number.POSITIVE_INFINITY,
		);
		if (inTime) this.counts.renewalsGranted++;
		if (lease.extend(grant) || steppedBack) this.host.extended(lease);
		if (this.live === attempt) this.live = undefined;
		if (lease !== this.following || lease.lost || this.live !== undefined) return;
		this.dueAt = this.host.monotonic() + cadenceMs(lease);
		this.pace(lease);
	}

	private failed(attempt: Attempt, error: unknown): void {
		const { lease } = attempt;
		// A refusal that ends the lease is final whenever it comes; anything else of an
		// abandoned attempt was counted at its deadline.
		// Stryker disable next-line StringLiteral: no refusal code is "" (nor any other text outside the set)
		if (ENDS_A_LEASE.has(failureCode(error) ?? "")) {
			if (this.live === attempt) this.live = undefined;
			this.host.ended(lease);
			return;
		}
		if (attempt.abandoned) return;
		this.counts.renewalsFailed++;
		// Stryker disable next-line ConditionalExpression: an attempt not abandoned is the live one (abandon and dropLive mark every attempt they let go)
		if (this.live === attempt) this.live = undefined;
		if (lease !== this.following || lease.lost) return;
		this.dueAt = this.host.monotonic(); // at once, at the gap's pace
		this.pace(lease);
	}

	/** The live attempt passed its deadline: a failed renewal; its call is aborted where it can be. */
	private abandon(attempt: Attempt): void {
		attempt.abandoned = true;
		this.live = undefined;
		this.counts.renewalsFailed++;
		attempt.cancel.abort();
	}

	/** Forgets the live attempt of a lease no longer followed (not a failure); its answer still applies. */
	private dropLive(): void {
		const live = this.live;
		if (live === undefined) return;
		live.abandoned = true;
		this.live = undefined;
		live.cancel.abort();
	}
}

/** The least time between renewal starts (a thirtieth of the span): no flood in any state. */
function gapMs(lease: HeldLease): number {
	return Math.max(10, lease.spanMs / 30);
}

/** A renewal's own deadline: a tenth of the span (3 s under 30 s), so the next one follows in time. */
function deadlineMs(lease: HeldLease): number {
	return Math.max(gapMs(lease), lease.spanMs / 10);
}

/** The normal time from a grant to the next renewal: a third of the span. */
function cadenceMs(lease: HeldLease): number {
	return Math.max(gapMs(lease), lease.spanMs / 3);
}
