/**
 * One worker ID's issuer and lease desk together: its `SnowflakeGenerator` and its
 * lease record, under one critical section. Spans are granted, renewed and released
 * inside the generator's queue (behind calls in flight, ahead of later ones), above
 * its mark, by the rules of ./span-rules.ts; the record and the mark are persisted
 * before an answer is given; the generator refuses its own calls while a span is
 * live. Runtime-neutral: clock, storage and hash comparison are injected. A Durable
 * Object (src/worker/object/snowflake-worker.ts) is a thin adapter over it; a restart is a new
 * keeper from what was persisted.
 *
 *   const keeper = new LeaseKeeper({
 *     generator: { layout, workerId: 600, clock, maxBackwardMs: 1000, leaseMs: 1000,
 *                  restoredMark: stored.mark, persistMark: (tick) => store({ mark: tick }) },
 *     spanMs: 30_000, graceMs: 2_000,
 *     restoredLease: stored.lease,
 *     persistLease: (book) => store(book), // the record and the mark, together
 *   });
 *   const granted = await keeper.acquire({ leaseHash, holder: "pod-7" });
 *   if (granted.ok) granted.value; // { from, to, serverNowMs }
 */
import { type Clock, finiteReading } from "../clock";
import { SnowflakeGenerator, type SnowflakeGeneratorOptions } from "../snowflake/generator";
import {
	extendSpan,
	grantSpan,
	issueRefusal,
	type LeaseAsk,
	type LeaseBook,
	type LeaseRecord,
	type LeaseRefusal,
	type LeaseRuling,
	type LeaseTerms,
	type LeaseView,
	releaseSpan,
	viewOf,
} from "./span-rules";

export interface LeaseKeeperOptions {
	/** The worker ID's generator (its `admit` is the keeper's); its clock is the keeper's too. */
	generator: Omit<SnowflakeGeneratorOptions, "admit">;
	/** How far past the clock a grant or renewal reaches (LEASE_SPAN_MS). */
	spanMs: number;
	/** How long after a span's end only its holder may renew it (LEASE_GRACE_MS). */
	graceMs: number;
	/** The lease record persisted with `generator.restoredMark`, if any. */
	restoredLease: LeaseRecord | undefined;
	/**
	 * Stores the lease record and the mark together. No answer is given, and nothing
	 * above the old mark issued, before it resolves; if it throws, nothing changed.
	 */
	persistLease: (book: LeaseBook) => void | Promise<void>;
	/** Compares two lease hashes without an early exit; default: over their characters. */
	sameHash?: (a: string, b: string) => boolean;
}

/** A span granted or renewed: its ticks, and the clock reading the decision was made at. */
export interface GrantedSpan {
	from: number;
	to: number;
	/** Unix ms: the keeper's clock when it granted (a holder anchors its clock here). */
	serverNowMs: number;
}

/** A keeper's answer: a value, or a refusal (never thrown). */
export type LeaseAnswer<T> = { ok: true; value: T } | { ok: false; refusal: LeaseRefusal };

export class LeaseKeeper {
	readonly generator: SnowflakeGenerator;
	private readonly terms: LeaseTerms;
	private readonly clock: Clock;
	private readonly persistLease: LeaseKeeperOptions["persistLease"];
	private readonly sameHash: (a: string, b: string) => boolean;
	private lease: LeaseRecord | undefined;

	constructor(options: LeaseKeeperOptions) {
		const { layout, workerId, clock } = options.generator;
		this.terms = { layout, workerId, spanMs: options.spanMs, graceMs: options.graceMs };
		this.clock = clock;
		this.persistLease = options.persistLease;
		this.sameHash = options.sameHash ?? sameText;
		this.lease = options.restoredLease;
		this.generator = new SnowflakeGenerator({
			...options.generator,
			admit: (now) => issueRefusal(this.terms, this.lease, now),
		});
	}

	/** A span for `ask` if the worker ID is free (`no_free_worker_id` if not). */
	acquire(ask: LeaseAsk): Promise<LeaseAnswer<GrantedSpan>> {
		return this.decide((book, now) => grantSpan(this.terms, book, ask, now));
	}

	/** The lease whose hash is `leaseHash`, its `to` moved on (`lease_lost` if it cannot be). */
	renew(leaseHash: string): Promise<LeaseAnswer<GrantedSpan>> {
		return this.decide((book, now) => extendSpan(this.terms, book, this.matching(leaseHash), now));
	}

	/** Frees the worker ID at once; the mark stays. `lease_lost` for another lease's hash. */
	async release(leaseHash: string): Promise<LeaseAnswer<undefined>> {
		const answer = await this.decide((book) =>
			releaseSpan(this.terms, book, this.matching(leaseHash)),
		);
		return answer.ok ? { ok: true, value: undefined } : answer;
	}

	/** The worker ID's lease state now (never its hash), with the clock reading (a fault throws). */
	status(): LeaseView & { serverNowMs: number } {
		const now = finiteReading(this.clock.now());
		return { ...viewOf(this.terms, this.lease, now), serverNowMs: now };
	}

	/**
	 * Runs a rule in the generator's critical section at one clock reading, persists the
	 * book it answers (record and mark) before anything else sees it, and hands the
	 * generator the ticks up to the new mark.
	 */
	private decide(
		rule: (book: LeaseBook, now: number) => LeaseRuling,
	): Promise<LeaseAnswer<GrantedSpan>> {
		return this.generator.handOver<LeaseAnswer<GrantedSpan>>(async (mark) => {
			const now = this.clock.now();
			const ruling = rule({ mark, lease: this.lease }, now);
			if (!ruling.ok) return { value: ruling };
			const { book } = ruling;
			const changed =
				book.lease !== this.lease ||
				// Stryker disable next-line ConditionalExpression: a rule that moves the mark always makes a new lease record
				book.mark !== mark;
			if (changed) await this.persistLease(book);
			this.lease = book.lease;
			const lease = book.lease as LeaseRecord;
			return {
				value: { ok: true, value: { from: lease.from, to: lease.to, serverNowMs: now } },
				// Stryker disable next-line EqualityOperator,ConditionalExpression: a book's mark is never below the mark, and the generator's last tick is at or above the mark since the grant that set it, so through = mark changes nothing
				through: book.mark > mark ? book.mark : undefined,
			};
		});
	}

	private matching(presented: string): (stored: string) => boolean {
		return (stored) => this.sameHash(stored, presented);
	}
}

/** Equal strings, compared without an early exit (timing shows only their length). */
function sameText(a: string, b: string): boolean {
	if (a.length !== b.length) return false;
	let difference = 0;
	// Stryker disable next-line EqualityOperator: past the end both charCodeAt are NaN, and NaN ^ NaN is 0
	for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
	return difference === 0;
}
