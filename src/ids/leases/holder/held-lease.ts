/**
 * One worker-ID lease as its holder keeps it: the span `[from, to)` granted so far
 * (`to` only ever grows: renewal answers may come late or out of order), the
 * generator that issues in it, and the count of that generator's calls still in
 * flight, so the holder can wait for them before it moves to another lease.
 *
 * The generator's mark is the span's last tick (`to - 1`): it issues nothing past
 * it without asking `beyondSpan`, which waits for a renewal that covers the tick.
 */
import { IdError } from "../../errors";
import { SnowflakeGenerator } from "../../snowflake/generator";
import type { SnowflakeLayout } from "../../snowflake/layout";
import { type LeaseGrantFields, leaseExpired, spanAhead } from "./lease-source";
import type { ServerClock } from "./server-clock";

/** How a lease's generator runs, the same for every lease of one holder. */
export interface SpanGeneratorSettings {
	clock: ServerClock;
	/** A call's wait for a span to start (its floor ahead of the clock). */
	maxWaitMs: number;
	/** How far a tick may lead the service's clock. */
	maxBorrowMs: number;
	random: (() => number) | undefined;
	/**
	 * The generator needs tick `needed` (≥ `to`) for a call with `budgetMs` of its wait
	 * left: resolves to a mark ≥ it, or rejects.
	 */
	beyondSpan: (lease: HeldLease, needed: number, budgetMs: number) => Promise<number>;
}

export class HeldLease {
	readonly workerId: number;
	readonly leaseId: string;
	/** The first tick this holder may issue in it: the span's start, above the holder's earlier IDs. */
	readonly floor: number;
	/** The end of the span (excluded): the largest `to` granted. */
	to: number;
	/**
	 * The service's span length (its `to` less its clock, in ms) as the last grant that
	 * moved `to` on showed it: one that did not (the object's clock behind an earlier
	 * `to`) shows more than the span.
	 */
	spanMs: number;
	/** Released or replaced: the service will not renew it (its span stays this holder's). */
	lost = false;
	/** Found in a process other than the one that acquired it (a fork or a restored copy). */
	copied = false;
	/** Generator calls in flight. */
	calls = 0;
	/** How far a tick may lead the holder's clock. */
	private readonly maxBorrowMs: number;
	/** Issues in the span, from the floor up. */
	readonly generator: SnowflakeGenerator;
	private whenDrained: (() => void) | undefined;

	constructor(
		grant: LeaseGrantFields,
		readonly layout: SnowflakeLayout,
		floor: number,
		/** The process that acquired it (`undefined` where there is no process ID). */
		readonly processId: unknown,
		settings: SpanGeneratorSettings,
	) {
		this.workerId = grant.workerId;
		this.leaseId = grant.leaseId;
		this.floor = floor;
		this.maxBorrowMs = settings.maxBorrowMs;
		this.to = grant.to;
		this.spanMs = layout.msOf(grant.to) - grant.serverNowMs;
		this.generator = new SnowflakeGenerator({
			layout,
			workerId: grant.workerId,
			clock: settings.clock,
			// Nothing below the floor's tick before: it issues from the floor up (tick 0: no mark).
			restoredMark: floor > 0 ? floor - 1 : undefined,
			restoredLeaseMs: 0,
			// The holder's clock never steps back: the only wait it sees is for the floor.
			maxBackwardMs: settings.maxWaitMs,
			maxWaitMs: settings.maxWaitMs,
			maxBorrowMs: settings.maxBorrowMs,
			leaseMs: layout.timeUnitMs,
			// The span's last tick is the generator's mark; past it, a renewal must come.
			persistMark: (_tick, _leaseMs, needed, budgetMs) =>
				needed < this.to ? this.to - 1 : settings.beyondSpan(this, needed, budgetMs),
			random: settings.random,
		});
	}

	/** What renew and release name. */
	ref(): { workerId: number; leaseId: string } {
		return { workerId: this.workerId, leaseId: this.leaseId };
	}

	/** Unix ms (the service's) at which the span ends. */
	endMs(): number {
		return this.layout.msOf(this.to);
	}

	/** Applies a grant of this lease; true when it moved `to` on. Another lease's grant is ignored. */
	extend(grant: LeaseGrantFields): boolean {
		if (grant.workerId !== this.workerId || grant.leaseId !== this.leaseId) return false;
		if (grant.to <= this.to) return false;
		this.to = grant.to;
		// A clock reading at or past the `to` it came with (the object's clock read ahead)
		// tells no span: the last one is kept, so the renewal pace and deadline stay sane.
		const toldMs = this.layout.msOf(grant.to) - grant.serverNowMs;
		if (toldMs > 0) this.spanMs = toldMs;
		return true;
	}

	/**
	 * Its generator's refusal in the holder's terms, the holder's clock reading `now`:
	 * out of wait budget past `to` (queued behind a call that waited there) is
	 * `lease_expired`; a "regression" is a span that starts ahead, or a clock stepped
	 * back below the last ID (`overloaded`, with when to retry).
	 */
	explained(error: unknown, now: number, maxWaitMs: number): unknown {
		if (!(error instanceof IdError)) return error;
		if (error.code === "overloaded" && this.layout.tickOf(now) >= this.to) {
			return leaseExpired(this.workerId, this.endMs(), maxWaitMs);
		}
		if (error.code !== "clock_regression") return error;
		const last = this.lastTick();
		const next = Math.max(this.floor, last + 1);
		const aheadMs = this.layout.msOf(next) - now - this.maxBorrowMs;
		return spanAhead(this.workerId, aheadMs, maxWaitMs, last < this.floor ? "span" : "lastId");
	}

	/** The last tick its generator issued, or -1. */
	lastTick(): number {
		const last = this.generator.stats().lastTimestamp;
		return last === null ? -1 : this.layout.tickOf(last);
	}

	/** Resolves once no call of its generator is in flight. */
	drained(): Promise<void> {
		if (this.calls === 0) return Promise.resolve();
		return new Promise((resolve) => {
			const earlier = this.whenDrained;
			this.whenDrained = () => {
				earlier?.();
				resolve();
			};
		});
	}

	/** One call settled (after it was re-queued, if it was). */
	settled(): void {
		this.calls--;
		if (this.calls === 0 && this.whenDrained) {
			const wake = this.whenDrained;
			this.whenDrained = undefined;
			wake();
		}
	}
}
