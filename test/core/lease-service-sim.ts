/**
 * The service side of the lease simulation: one object per worker ID of a small
 * LEASE_WORKER_IDS range, each keeping its stored book (the mark and the lease
 * record) by the allocation rules, a server clock that tests may step either way,
 * object restarts, and an acquire that picks a free worker ID by probing.
 *
 * Every span the objects grant is logged, answered or not, so a test can check
 * that the spans of one worker ID never overlap.
 */
import { IdError } from "../../src/ids/errors";
import type { LayoutConfig, SnowflakeLayout } from "../../src/ids/layout";
import type { LeaseGrantFields } from "../../src/ids/lease-source";
import { leaseLayout } from "./lease-script";

export interface SpanRecord {
	workerId: number;
	leaseId: string;
	from: number;
	to: number;
}

interface StoredLease {
	leaseId: string;
	from: number;
	to: number;
	released: boolean;
}

interface Book {
	mark: number;
	lease: StoredLease | undefined;
}

export interface ServiceTerms {
	layout: SnowflakeLayout;
	workerIds: number[];
	spanMs: number;
	graceMs: number;
}

/** The allocation rules of one worker ID (DESIGN, "Worker-ID leases"), on its stored book. */
class LeaseObject {
	/** What storage holds: restarts keep it. */
	private book: Book = { mark: -1, lease: undefined };

	constructor(
		private readonly terms: ServiceTerms,
		readonly workerId: number,
	) {}

	free(now: number): boolean {
		const { lease } = this.book;
		return !lease || lease.released || now >= this.terms.layout.msOf(lease.to) + this.terms.graceMs;
	}

	/** How far ahead of `now` a span granted now would start. */
	leadMs(now: number): number {
		const { layout } = this.terms;
		return layout.msOf(Math.max(this.book.mark + 1, layout.tickOf(now))) - now;
	}

	grant(leaseId: string, now: number): SpanRecord {
		const { layout, spanMs } = this.terms;
		const from = Math.max(this.book.mark + 1, layout.tickOf(now));
		const to = Math.max(layout.tickOf(now + spanMs), from + 1);
		this.book = { mark: to - 1, lease: { leaseId, from, to, released: false } };
		return { workerId: this.workerId, leaseId, from, to };
	}

	renew(leaseId: string, now: number): SpanRecord {
		const lease = this.presented(leaseId);
		if (lease.released) throw lost("released");
		if (this.book.mark > lease.to - 1) throw lost("replaced");
		const to = Math.max(lease.to, this.terms.layout.tickOf(now + this.terms.spanMs));
		this.book = { mark: to - 1, lease: { ...lease, to } };
		return { workerId: this.workerId, leaseId, from: lease.from, to };
	}

	release(leaseId: string): void {
		const lease = this.presented(leaseId);
		this.book = { ...this.book, lease: { ...lease, released: true } };
	}

	private presented(leaseId: string): StoredLease {
		const { lease } = this.book;
		if (!lease || lease.leaseId !== leaseId) throw lost("not this worker ID's lease");
		return lease;
	}
}

const lost = (why: string) => new IdError<string>("lease_lost", why);

export class SimService {
	/** Added to true time: the server clock (tests step it). */
	offsetMs = 10_000_000;
	/** Every span granted (acquires and renewals), in order. */
	readonly granted: SpanRecord[] = [];
	private readonly objects = new Map<number, LeaseObject>();
	private leases = 0;
	restarts = 0;

	constructor(
		readonly terms: ServiceTerms,
		/** The layout answers name (the config the terms' layout was made from). */
		private readonly answerLayout: LayoutConfig = leaseLayout,
	) {
		for (const w of terms.workerIds) this.objects.set(w, new LeaseObject(terms, w));
	}

	/** Probes the worker IDs from a rotating start; a span that starts within 1 s of the clock first. */
	acquire(now: number, probeFrom: number, workerId?: number): LeaseGrantFields {
		const { workerIds } = this.terms;
		const order =
			workerId === undefined
				? workerIds.map((_, i) => workerIds[(probeFrom + i) % workerIds.length] as number)
				: [workerId];
		const free = order.map((w) => this.object(w)).filter((o) => o.free(now));
		const chosen = free.find((o) => o.leadMs(now) <= 1_000) ?? free[0];
		if (!chosen) throw new IdError<string>("no_free_worker_id", "every worker ID is held", 1);
		return this.answer(chosen.grant(`lease-${++this.leases}`, now), now);
	}

	renew(now: number, workerId: number, leaseId: string): LeaseGrantFields {
		return this.answer(this.object(workerId).renew(leaseId, now), now);
	}

	release(workerId: number, leaseId: string): void {
		this.object(workerId).release(leaseId);
	}

	/** The object restarts from what it stored (every answer's state is stored before it leaves). */
	restart(workerId: number): void {
		this.restarts++;
		this.object(workerId);
	}

	private object(workerId: number): LeaseObject {
		const object = this.objects.get(workerId);
		if (!object) throw new IdError<string>("invalid_worker_id", `${workerId} is not leased`);
		return object;
	}

	private answer(span: SpanRecord, now: number): LeaseGrantFields {
		this.granted.push(span);
		return { ...span, serverNowMs: now, layout: this.answerLayout };
	}
}
