/**
 * A Snowflake generator in any process, on a worker ID leased from edge-ids. The
 * service grants a span of ticks `[from, to)` of a worker ID, stored above every
 * tick that worker ID issued or leased before; the holder issues `(w, t, s)` only
 * with `t` in a span it holds, so two holders of one worker ID can never collide,
 * whatever their clocks, pauses or lost answers. Runtime-neutral: the monotonic
 * clock, timers, randomness and the process ID are injected (src/client/ wires them).
 *
 * The holder's rules, in order of the code below:
 * - Issuing is `SnowflakeGenerator`'s, fast path included; its mark is the span's
 *   last tick (`to - 1`), and its floor the span's start or the tick after the last
 *   ID this holder issued, whichever is later: IDs strictly increase across leases.
 * - Its clock is the service's (ServerClock): the local wall clock plays no part. A
 *   renewal answered within its deadline more than a span behind the clock's reading
 *   steps it back to the service's; calls then wait (or refuse, `overloaded`) until
 *   the clock passes the last tick issued.
 * - A span that starts ahead is waited for, up to `maxWaitMs`; ticks may lead the
 *   clock by at most `maxBorrowMs` (and one tick at a span's start), as the service's do.
 * - It renews in the background when a third of the span has passed since the last
 *   grant (every 10 s under a 30 s span), each attempt with a deadline of a tenth of
 *   the span (LeaseRenewals), keeping the largest `to` granted.
 * - At `to` a call waits up to `maxWaitMs` from its own start (calls queued behind it
 *   included) for a renewal, then rejects `lease_expired`.
 * - An acquire refused with a `Retry-After` is not sent again before it runs out:
 *   calls meanwhile reject at once with the refusal's code and the seconds left.
 * - A lease the service calls lost (`lease_lost`) is replaced on the next call that
 *   needs one: a new acquire, possibly of another worker ID, above the last ID.
 * - Calls resolve in call order across a change of lease: the old generator's calls
 *   settle (or are re-queued, in order, ahead of later ones) before the new one issues.
 * - In another process than the one that acquired it (a copy with another process
 *   ID) the lease is dropped: its renewals stop, `close()` does not release it, and
 *   the first call acquires a new one.
 * - `close()` stops issuing and renewing, lets calls in flight settle, then releases.
 */

import type { SnowflakeLayout } from "../../snowflake/layout";
import { HeldLease } from "./held-lease";
import {
	acquireDeferred,
	checkedGrant,
	checkMs,
	failureCode,
	failureRetryAfter,
	holderClosed,
	type LeaseGrantFields,
	type LeaseSource,
	layoutChanged,
	leaseExpired,
	leaseLostRepeatedly,
} from "./lease-source";
import { LeaseRenewals } from "./renewals";
import { ServerClock } from "./server-clock";
import { LeaseChanges } from "./span-end-waits";

/** How long a call waits at the end of a span for a renewal, by default (the service's grace). */
export const DEFAULT_LEASE_WAIT_MS = 2_000;
/** How far ahead of the service's clock an issued tick may be, by default (its MAX_BORROW_MS). */
export const DEFAULT_LEASE_BORROW_MS = 5;
/** Leases one call may go through before it gives up with `lease_lost`. */
const MAX_LEASES_PER_CALL = 3;

export interface LeaseHolderOptions {
	source: LeaseSource;
	/** A label for people, shown by the service's lease status (e.g. a pod name). */
	holder?: string | undefined;
	/** Lease this worker ID only (default: any the service picks). */
	workerId?: number | undefined;
	/** A call's wait for a renewal at the span's end, or for a span to start. Default 2,000. */
	maxWaitMs?: number | undefined;
	/** How far a tick may lead the service's clock (borrowed time). Default 5. */
	maxBorrowMs?: number | undefined;
	/** Milliseconds from any origin, never going back (`performance.now`). */
	monotonic: () => number;
	/** Resolves after about `ms`, sooner when `signal` aborts; a caller awaits it. */
	sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
	/** Calls `callback` after `ms` in the background (keeping no process alive); returns a cancel. */
	background: (callback: () => void, ms: number) => () => void;
	/** Uniform in [0, 1): each tick's small random first sequence. Default Math.random. */
	random?: (() => number) | undefined;
	/** The current process's ID where there is one (Node's `process.pid`). */
	processId?: (() => unknown) | undefined;
}

/** What a holder has done since it was made. */
export interface LeaseHolderStats {
	acquires: number;
	renewals: number;
	renewalsGranted: number;
	renewalsFailed: number;
	leasesLost: number;
	releases: number;
}

/** A call waiting for a lease: its count, the leases it went through, its promise. */
interface WaitingCall {
	count: number;
	attempts: number;
	resolve: (ids: string[]) => void;
	reject: (error: unknown) => void;
}

/** What a lease's mark store throws when the lease is gone: the call moves to the next lease. */
const LEASE_CHANGED = Object.freeze({ leaseChanged: true });

export class LeaseHolder {
	private readonly source: LeaseSource;
	private readonly maxWaitMs: number;
	private readonly maxBorrowMs: number;
	private readonly clock: ServerClock;
	private readonly options: LeaseHolderOptions;
	private readonly processId: (() => unknown) | undefined;
	private layout: SnowflakeLayout | undefined;
	private lease: HeldLease | undefined; // the current or last lease
	private usable: HeldLease | undefined; // set when calls may go straight to its generator
	private lastTick = -1; // the last tick issued under an earlier lease
	private acquiring: Promise<HeldLease> | undefined;
	/** A refused acquire's `Retry-After`: its code, and the monotonic ms it runs out. */
	private deferred: { code: string; untilMs: number } | undefined;
	private waiting: WaitingCall[] = [];
	private requeued: WaitingCall[] = []; // calls of a lost lease: ahead of the waiting ones
	private pumping = false;
	private closing: Promise<void> | undefined;
	private aborted = false;
	private readonly renewals: LeaseRenewals;
	private readonly changes: LeaseChanges;
	private readonly counts = { acquires: 0, leasesLost: 0, releases: 0 };

	constructor(options: LeaseHolderOptions) {
		this.options = options;
		this.source = options.source;
		this.maxWaitMs = checkMs("maxWaitMs", options.maxWaitMs ?? DEFAULT_LEASE_WAIT_MS);
		this.maxBorrowMs = checkMs("maxBorrowMs", options.maxBorrowMs ?? DEFAULT_LEASE_BORROW_MS);
		this.clock = new ServerClock(options.monotonic, (ms) => options.sleep(ms));
		this.processId = options.processId;
		this.changes = new LeaseChanges(options.sleep);
		this.renewals = new LeaseRenewals({
			source: this.source,
			clock: this.clock,
			monotonic: options.monotonic,
			background: options.background,
			ownsHere: (lease) => this.ownsHere(lease),
			extended: () => this.changes.changed(),
			ended: (lease) => this.lose(lease),
		});
	}

	/** Acquires the first lease; rejects with the service's refusal (`no_free_worker_id`, …). */
	async start(): Promise<void> {
		const lease = await this.acquire();
		if (!this.pumping && this.lease === lease) this.usable = lease;
	}

	/** The worker ID of the current (or last) lease; undefined before the first. */
	get workerId(): number | undefined {
		return this.lease?.workerId;
	}

	/**
	 * `count` IDs (default 1) as decimal strings, strictly increasing across calls in
	 * call order, every one inside a span this holder was granted. Rejects with
	 * `lease_expired` (no renewal at the span's end within `maxWaitMs`), `overloaded`
	 * (a span starting further ahead than that), `aborted` (closed), the acquire's
	 * refusal when a new lease is needed, and the generator's own (`invalid_count`).
	 */
	next(count = 1): Promise<string[]> {
		const lease = this.usable;
		const processId = this.processId;
		if (lease !== undefined && (processId === undefined || processId() === lease.processId)) {
			// Most single IDs: the generator's fast path, with no promise of the holder's own.
			const id = count === 1 ? lease.generator.nextNow() : undefined;
			return id === undefined ? this.issueOn(lease, count, 0) : Promise.resolve([id]);
		}
		return this.enqueue(count, 0, false);
	}

	/** Stops issuing and renewing, lets calls in flight settle, releases the lease. Never rejects. */
	close(): Promise<void> {
		this.closing ??= this.shutDown();
		return this.closing;
	}

	/** `close()` for an AbortSignal: calls reject with `aborted` at once. */
	abort(): void {
		if (this.closing === undefined) this.aborted = true;
		void this.close();
	}

	stats(): LeaseHolderStats {
		return { ...this.counts, ...this.renewals.counts };
	}

	/** The service's clock as this holder reads it (Unix ms). */
	now(): number {
		return this.clock.now();
	}

	private issueOn(lease: HeldLease, count: number, attempts: number): Promise<string[]> {
		// A loop that never yields to the event loop starves the renewal timer: about once
		// per tick (the fast path's misses) an overdue renewal goes out from here instead.
		if (this.renewals.overdue()) this.renewals.now(lease);
		lease.calls++;
		return lease.generator.next(count).then(
			(ids) => {
				lease.settled();
				return ids;
			},
			(error: unknown) => this.refused(lease, error, count, attempts),
		);
	}

	/** A generator call failed: onto the next lease if this one is gone, else the caller's error. */
	private refused(lease: HeldLease, error: unknown, count: number, attempts: number) {
		let result: Promise<string[]>;
		if (error !== LEASE_CHANGED) {
			result = Promise.reject(lease.explained(error, this.clock.now(), this.maxWaitMs));
		} else if (attempts + 1 >= MAX_LEASES_PER_CALL) {
			result = Promise.reject(leaseLostRepeatedly(attempts + 1));
		} else result = this.enqueue(count, attempts + 1, true);
		lease.settled(); // after re-queueing: the next lease waits for this
		return result;
	}

	private enqueue(count: number, attempts: number, ahead: boolean): Promise<string[]> {
		if (this.closing !== undefined) return Promise.reject(holderClosed(this.aborted));
		return new Promise<string[]>((resolve, reject) => {
			(ahead ? this.requeued : this.waiting).push({ count, attempts, resolve, reject });
			if (!this.pumping) void this.pump();
		});
	}

	/**
	 * Serves waiting calls in order: once the last lease's calls have settled and a
	 * lease is current (acquired if need be), every waiting call goes to its
	 * generator at once, in order (which serializes them); then calls go there directly.
	 */
	private async pump(): Promise<void> {
		this.pumping = true;
		this.usable = undefined;
		try {
			while (this.requeued.length + this.waiting.length > 0) {
				if (this.closing !== undefined) {
					this.rejectWaiting(holderClosed(this.aborted));
					break;
				}
				let lease = this.current();
				if (lease === undefined) {
					const last = this.lease;
					if (last !== undefined && !last.copied && last.calls > 0) await last.drained();
					try {
						lease = await this.acquire();
					} catch (error) {
						this.rejectWaiting(error);
						break;
					}
					if (this.closing !== undefined) continue;
				}
				const calls = this.requeued.concat(this.waiting);
				this.requeued = [];
				this.waiting = [];
				for (const call of calls) {
					this.issueOn(lease, call.count, call.attempts).then(call.resolve, call.reject);
				}
			}
		} finally {
			this.pumping = false;
			this.usable = this.closing === undefined ? this.current() : undefined;
		}
	}

	private rejectWaiting(error: unknown): void {
		const calls = this.requeued.concat(this.waiting);
		this.requeued = [];
		this.waiting = [];
		for (const call of calls) call.reject(error);
	}

	/** The lease calls may use: not lost, and held by this very process (else dropped as a copy). */
	private current(): HeldLease | undefined {
		const lease = this.lease;
		if (lease === undefined || lease.lost || !this.ownsHere(lease)) return undefined;
		return lease;
	}

	/** False in a process other than the one that acquired `lease` (a copy): then never again. */
	private ownsHere(lease: HeldLease): boolean {
		if (lease.copied) return false;
		if (this.processId?.() === lease.processId) return true;
		lease.copied = true; // another process's lease: never renewed nor released from here
		if (lease === this.lease) this.renewals.stop();
		return false;
	}

	/**
	 * A new lease (one acquire at a time), its generator above every ID issued so far;
	 * while a refused acquire's `Retry-After` runs, that refusal again, sending nothing.
	 */
	private acquire(): Promise<HeldLease> {
		const leftMs = (this.deferred?.untilMs ?? 0) - this.options.monotonic();
		if (this.acquiring === undefined && this.deferred !== undefined && leftMs > 0) {
			return Promise.reject(acquireDeferred(this.deferred.code, leftMs));
		}
		this.acquiring ??= this.acquireOnce().finally(() => {
			this.acquiring = undefined;
		});
		return this.acquiring;
	}

	private async acquireOnce(): Promise<HeldLease> {
		this.counts.acquires++;
		const { holder, workerId } = this.options;
		let answer: LeaseGrantFields;
		try {
			// Absent, not undefined: an RPC call carries the keys it is given.
			answer = await this.source.acquireLease({
				...(holder === undefined ? {} : { holder }),
				...(workerId === undefined ? {} : { workerId }),
			});
		} catch (error) {
			const untilMs = this.options.monotonic() + (failureRetryAfter(error) ?? 0) * 1_000;
			const code = failureCode(error) ?? "unavailable";
			if (untilMs > this.options.monotonic()) this.deferred = { code, untilMs };
			throw error;
		}
		const { grant, layout } = checkedGrant(answer);
		this.clock.anchor(grant.serverNowMs);
		if (this.layout !== undefined && this.layout.fingerprint() !== layout.fingerprint()) {
			void this.release(grant);
			throw layoutChanged(this.layout, layout);
		}
		this.layout = layout;
		const previous = this.lease;
		if (previous !== undefined) this.lastTick = Math.max(this.lastTick, previous.lastTick());
		const floor = Math.max(grant.from, this.lastTick + 1);
		const lease = new HeldLease(grant, layout, floor, this.processId?.(), {
			clock: this.clock,
			maxWaitMs: this.maxWaitMs,
			maxBorrowMs: this.maxBorrowMs,
			random: this.options.random,
			beyondSpan: (held, needed, budgetMs) => this.cover(held, needed, budgetMs),
		});
		this.lease = lease;
		if (this.closing === undefined) this.renewals.follow(lease);
		return lease;
	}

	/**
	 * The generator needs tick `needed` (≥ `to`) for a call with `budgetMs` of its wait
	 * left (counted from its start: a call queued behind another that waited here has
	 * less): wait that long at most for a renewal covering it.
	 */
	private async cover(lease: HeldLease, needed: number, budgetMs: number): Promise<number> {
		const started = this.options.monotonic();
		const waitMs = Math.min(this.maxWaitMs, budgetMs);
		for (;;) {
			if (this.closing !== undefined) throw holderClosed(this.aborted);
			if (lease !== this.lease || lease.lost || lease.copied) throw LEASE_CHANGED;
			if (needed < lease.to) return lease.to - 1;
			const waitedMs = this.options.monotonic() - started;
			if (!(waitedMs < waitMs)) {
				throw leaseExpired(lease.workerId, lease.endMs(), this.maxWaitMs);
			}
			this.renewals.soon(lease);
			await this.changes.wait(Math.ceil(waitMs - waitedMs)); // whole ms: no wake-up at once for a fraction
		}
	}

	/** The service will not renew it: calls move to a new lease once they need one. */
	private lose(lease: HeldLease): void {
		if (lease.lost) return;
		lease.lost = true;
		this.counts.leasesLost++;
		if (this.usable === lease) this.usable = undefined;
		if (lease === this.lease) this.renewals.stop();
		this.changes.changed();
	}

	private async shutDown(): Promise<void> {
		this.usable = undefined;
		this.renewals.stop();
		this.rejectWaiting(holderClosed(this.aborted));
		this.changes.changed();
		await this.acquiring?.catch(() => undefined);
		const lease = this.lease;
		if (lease === undefined || !this.ownsHere(lease)) return;
		if (lease.calls > 0) await lease.drained();
		if (!lease.lost) await this.release(lease.ref());
	}

	/** Best effort: a lease not released lapses by itself (its span plus the service's grace). */
	private async release(lease: Pick<LeaseGrantFields, "workerId" | "leaseId">): Promise<void> {
		this.counts.releases++;
		try {
			await this.source.releaseLease({ workerId: lease.workerId, leaseId: lease.leaseId });
		} catch {
			// lease_lost (released or replaced already), or no answer: it lapses.
		}
	}
}
