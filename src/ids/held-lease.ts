/**
 * One worker-ID lease as its holder keeps it: the span `[from, to)` granted so far
 * (`to` only ever grows: renewal answers may come late or out of order), the
 * generator that issues in it, and the count of that generator's calls still in
 * flight, so the holder can wait for them before it moves to another lease.
 */
import type { SnowflakeLayout } from "./layout";
import type { LeaseGrantFields } from "./lease-source";
import type { SnowflakeGenerator } from "./snowflake";

export class HeldLease {
	readonly workerId: number;
	readonly leaseId: string;
	/** The first tick this holder may issue in it: the span's start, above the holder's earlier IDs. */
	readonly floor: number;
	/** The end of the span (excluded): the largest `to` granted. */
	to: number;
	/** The service's span length as the last grant showed it (its `to` less its clock), in ms. */
	spanMs: number;
	/** Released or replaced: the service will not renew it (its span stays this holder's). */
	lost = false;
	/** Found in a process other than the one that acquired it (a fork or a restored copy). */
	copied = false;
	/** Generator calls in flight. */
	calls = 0;
	/** Set once, right after construction. */
	generator!: SnowflakeGenerator;
	private whenDrained: (() => void) | undefined;

	constructor(
		grant: LeaseGrantFields,
		readonly layout: SnowflakeLayout,
		floor: number,
		/** The process that acquired it (`undefined` where there is no process ID). */
		readonly processId: unknown,
	) {
		this.workerId = grant.workerId;
		this.leaseId = grant.leaseId;
		this.floor = floor;
		this.to = grant.to;
		this.spanMs = layout.msOf(grant.to) - grant.serverNowMs;
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
		this.spanMs = this.layout.msOf(grant.to) - grant.serverNowMs;
		if (grant.to <= this.to) return false;
		this.to = grant.to;
		return true;
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
