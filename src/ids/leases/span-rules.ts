/**
 * Worker-ID leases in ID time: the allocation rules of one worker ID's spans, as
 * pure functions of what its object stores (its mark and its lease record) and a
 * clock reading. No I/O, no clock of their own: `LeaseKeeper` (./keeper.ts)
 * runs them in the generator's critical section and persists what they answer.
 *
 * A span is a range of whole ticks `[from, to)`: its holder, and nobody else, may
 * issue IDs of this worker ID with those ticks. The rules:
 *
 * - **Acquire** (only when the worker ID is free): `from = max(mark + 1, tick(now))`,
 *   `to = max(tick(now + spanMs), from + 1)`; the new mark is `to - 1`. A `from` more
 *   than `spanMs` ahead of the clock is refused (`no_free_worker_id` with Retry-After):
 *   acquire/release churn moves the mark a tick per cycle and would otherwise push
 *   spans minutes ahead, where no holder can use them. Everything
 *   issued or granted before is at or below the old mark, so spans never overlap
 *   each other or the object's own IDs, whatever the clock did.
 * - **Renew** (the same lease, not released, and the mark still `to - 1`: nothing
 *   issued or granted above the span since): `to = max(to, tick(now + spanMs))`,
 *   granted even after `to` when nobody took the worker ID; the new mark is `to - 1`.
 *   `to` never moves back. Otherwise `lease_lost`.
 * - **Release**: the worker ID is free at once; the mark stays, so the span's unused
 *   tail is never issued again.
 * - **Free** means: never leased, released, or `now >= ms(to) + graceMs`. Until
 *   then (`held`, then `grace`) only the holder may renew, and the object issues
 *   none of its own IDs for it (`worker_id_leased`).
 *
 * The clock decides only *when* a worker ID is free and how long a span is; the
 * mark alone keeps spans apart.
 */
import { clockFault } from "../clock";
import { IdError } from "../errors";
import { MAX_DATE_MS, type SnowflakeLayout } from "../snowflake/layout";

/** What an object stores about its worker ID's last lease (never the leaseId itself). */
export interface LeaseRecord {
	/** SHA-256 of the leaseId, as the host computes it (hex): compared, never shown. */
	leaseHash: string;
	/** A label for people (`leaseStatus`), e.g. a pod name; null without one. */
	holder: string | null;
	/** The span's first tick (included). */
	from: number;
	/** The span's end tick (excluded); only renewals move it, and only forward. */
	to: number;
	/** Released by its holder: the worker ID is free at once. */
	released: boolean;
}

/** The stored state the rules read and answer: the mark and the lease record, persisted together. */
export interface LeaseBook {
	/** Every tick issued or granted is at or below it; -1 when there is none. */
	mark: number;
	lease: LeaseRecord | undefined;
}

/** The settings the rules apply (LEASE_SPAN_MS, LEASE_GRACE_MS) to one worker ID. */
export interface LeaseTerms {
	layout: SnowflakeLayout;
	workerId: number;
	/** How far past the clock a grant or renewal reaches. */
	spanMs: number;
	/** How long after `to` only the holder may renew. */
	graceMs: number;
}

/** Who asks for a span: the hash of the leaseId it will carry, and a label. */
export interface LeaseAsk {
	leaseHash: string;
	holder: string | null;
	/**
	 * Refuse (`no_free_worker_id` with `startsInMs`) instead of granting a span that
	 * starts more than this far ahead of the clock: a released span's unused tail
	 * lies ahead, and a searcher may prefer another worker ID. Default: no bound.
	 */
	maxLeadMs?: number | undefined;
}

export type LeasePhase = "held" | "grace" | "free";

/** The codes the rules refuse with (all of them service codes, src/wire/index.ts). */
export type LeaseRefusalCode =
	| "no_free_worker_id"
	| "lease_lost"
	| "worker_id_leased"
	| "layout_exhausted"
	| "invalid_config"
	| "clock_regression";

/** A refusal. `startsInMs`: the worker ID is free, but its next span would start that far ahead. */
export class LeaseRefusal extends IdError<LeaseRefusalCode> {
	constructor(
		code: LeaseRefusalCode,
		detail: string,
		retryAfterSeconds?: number,
		readonly startsInMs?: number,
	) {
		super(code, detail, retryAfterSeconds);
	}
}

/** A rule's answer: the new book to persist (and the span), or a refusal; never thrown. */
export type LeaseRuling = { ok: true; book: LeaseBook } | { ok: false; refusal: LeaseRefusal };

/** A lease as `leaseStatus` shows it: no hash. */
export interface LeaseView {
	state: LeasePhase;
	holder: string | null;
	from: number | null;
	to: number | null;
	fromMs: number | null;
	toMs: number | null;
}

/** Where a lease stands at `now`; NaN reads as held (a faulty clock frees nothing). */
export function phaseAt(
	terms: LeaseTerms,
	lease: LeaseRecord | undefined,
	now: number,
): LeasePhase {
	if (!lease || lease.released) return "free";
	const endMs = terms.layout.msOf(lease.to);
	if (!(now >= endMs)) return "held";
	return now < endMs + terms.graceMs ? "grace" : "free";
}

/** Grants a span to `ask` if the worker ID is free; the span is the book's lease. */
export function grantSpan(
	terms: LeaseTerms,
	book: LeaseBook,
	ask: LeaseAsk,
	now: number,
): LeaseRuling {
	const { layout } = terms;
	const clockFault = checkClock(terms, now);
	if (clockFault) return refused(clockFault);
	const { lease } = book;
	if (lease && phaseAt(terms, lease, now) !== "free") {
		const waitMs = layout.msOf(lease.to) + terms.graceMs - now;
		return refused(
			new LeaseRefusal(
				"no_free_worker_id",
				`worker ID ${terms.workerId} is leased until ${iso(layout.msOf(lease.to))}, and its holder may renew for LEASE_GRACE_MS (${terms.graceMs} ms) after that; retry then, or acquire without naming a worker ID`,
				seconds(waitMs),
			),
		);
	}
	const from = Math.max(book.mark + 1, layout.tickOf(now));
	if (from >= layout.tickLimit) return refused(exhausted(terms));
	const leadMs = layout.msOf(from) - now;
	if (leadMs > terms.spanMs) return refused(tooFarAhead(terms, leadMs));
	// Stryker disable next-line ConditionalExpression: without maxLeadMs, leadMs > undefined is false as well
	if (ask.maxLeadMs !== undefined && leadMs > ask.maxLeadMs) {
		return refused(
			new LeaseRefusal(
				"no_free_worker_id",
				`worker ID ${terms.workerId} is free, but its next span starts ${leadMs} ms ahead of the clock (a released span's unused tail is never issued again)`,
				seconds(leadMs),
				leadMs,
			),
		);
	}
	const to = Math.min(layout.tickLimit, Math.max(layout.tickOf(now + terms.spanMs), from + 1));
	return {
		ok: true,
		book: {
			mark: to - 1,
			lease: { leaseHash: ask.leaseHash, holder: ask.holder, from, to, released: false },
		},
	};
}

/**
 * Moves the lease's `to` to at least `tick(now + spanMs)`, for the lease whose hash
 * `matches` says was presented: `lease_lost` when there is no such lease, it was
 * released, or anything was issued or granted above its span since.
 */
export function extendSpan(
	terms: LeaseTerms,
	book: LeaseBook,
	matches: (leaseHash: string) => boolean,
	now: number,
): LeaseRuling {
	const { layout } = terms;
	const clockFault = checkClock(terms, now);
	if (clockFault) return refused(clockFault);
	const lease = presented(terms, book, matches);
	if (lease instanceof LeaseRefusal) return refused(lease);
	if (lease.released) {
		return refused(
			lost(`this lease of worker ID ${terms.workerId} was released; acquire a new lease`),
		);
	}
	if (book.mark > lease.to - 1) {
		return refused(
			lost(
				`worker ID ${terms.workerId} issued or granted ticks above this lease's span after it ended (${iso(layout.msOf(lease.to))}); acquire a new lease`,
			),
		);
	}
	if (layout.tickOf(now) >= layout.tickLimit) return refused(exhausted(terms));
	const to = Math.min(layout.tickLimit, Math.max(lease.to, layout.tickOf(now + terms.spanMs)));
	return { ok: true, book: { mark: Math.max(book.mark, to - 1), lease: { ...lease, to } } };
}

/** Frees the worker ID at once (the mark stays); releasing a released lease again changes nothing. */
export function releaseSpan(
	terms: LeaseTerms,
	book: LeaseBook,
	matches: (leaseHash: string) => boolean,
): LeaseRuling {
	const lease = presented(terms, book, matches);
	if (lease instanceof LeaseRefusal) return refused(lease);
	if (lease.released) return { ok: true, book };
	return { ok: true, book: { ...book, lease: { ...lease, released: true } } };
}

/**
 * Why the object must not issue IDs of its own at `now`: its last lease's span (held,
 * in its grace, or released with its tail still ahead) has not ended plus the grace.
 * A stray call (a Worker of another version or config) thus never takes a live lease's
 * place; the mark would keep it above the span anyway.
 */
export function issueRefusal(
	terms: LeaseTerms,
	lease: LeaseRecord | undefined,
	now: number,
): LeaseRefusal | undefined {
	if (!lease) return undefined;
	const freeAtMs = terms.layout.msOf(lease.to) + terms.graceMs;
	if (now >= freeAtMs) return undefined;
	return new LeaseRefusal(
		"worker_id_leased",
		`worker ID ${terms.workerId} is for lease holders (LEASE_WORKER_IDS): the service issues none of its IDs itself, and its last span runs until ${iso(terms.layout.msOf(lease.to))}; use the auto route or a worker ID outside LEASE_WORKER_IDS`,
		Number.isFinite(now) ? seconds(freeAtMs - now) : 1,
	);
}

/** The lease as `leaseStatus` shows it (never its hash). */
export function viewOf(terms: LeaseTerms, lease: LeaseRecord | undefined, now: number): LeaseView {
	if (!lease)
		return { state: "free", holder: null, from: null, to: null, fromMs: null, toMs: null };
	const { layout } = terms;
	return {
		state: phaseAt(terms, lease, now),
		holder: lease.holder,
		from: lease.from,
		to: lease.to,
		fromMs: layout.msOf(lease.from),
		toMs: layout.msOf(lease.to),
	};
}

/** The stored lease if the presented leaseId is its own (released or not), else `lease_lost`. */
function presented(
	terms: LeaseTerms,
	book: LeaseBook,
	matches: (leaseHash: string) => boolean,
): LeaseRecord | LeaseRefusal {
	const { lease } = book;
	if (lease && matches(lease.leaseHash)) return lease;
	return lost(
		`worker ID ${terms.workerId} holds no lease with this leaseId: it was taken over after its span and grace ended, or never granted; acquire a new lease`,
	);
}

/** A clock reading no span can be measured from: not a number, or before the epoch. */
function checkClock(terms: LeaseTerms, now: number): LeaseRefusal | undefined {
	if (!Number.isFinite(now)) {
		const fault = clockFault(now);
		return new LeaseRefusal("clock_regression", fault.detail, fault.retryAfterSeconds);
	}
	if (terms.layout.tickOf(now) < 0) {
		return new LeaseRefusal(
			"invalid_config",
			`the clock (${iso(now)}) is before the Snowflake epoch (${iso(terms.layout.epoch)})`,
		);
	}
	return undefined;
}

/**
 * A free worker ID whose next span would start more than a span ahead of the clock:
 * acquired and released faster than its spans pass (each cycle moves the mark on),
 * or its object's clock stepped back. Granting it would hand a holder a span it
 * cannot use before then; refused as not free (no `startsInMs`: no search takes it),
 * until the clock is within a span of it.
 */
function tooFarAhead(terms: LeaseTerms, leadMs: number): LeaseRefusal {
	const waitSeconds = seconds(leadMs - terms.spanMs);
	return new LeaseRefusal(
		"no_free_worker_id",
		`worker ID ${terms.workerId} is free, but its next span would start ${leadMs} ms ahead of the clock, more than LEASE_SPAN_MS (${terms.spanMs} ms): it was acquired and released faster than its spans pass (a released span's unused ticks are never issued again), or its clock went back; retry in ${waitSeconds} s, or acquire without naming a worker ID`,
		waitSeconds,
	);
}

function exhausted(terms: LeaseTerms): LeaseRefusal {
	return new LeaseRefusal(
		"layout_exhausted",
		`the Snowflake layout runs out of time at ${iso(terms.layout.exhaustsAt)}: no span of worker ID ${terms.workerId} fits; configure a later epoch or more time bits`,
	);
}

function lost(detail: string): LeaseRefusal {
	return new LeaseRefusal("lease_lost", detail);
}

function refused(refusal: LeaseRefusal): { ok: false; refusal: LeaseRefusal } {
	return { ok: false, refusal };
}

/** Whole seconds until `ms` from now, at least 1 (a Retry-After). */
function seconds(ms: number): number {
	return Math.max(1, Math.ceil(ms / 1000));
}

/** ISO 8601 text of a Unix ms reading (a reading no Date holds is written as a number). */
function iso(ms: number): string {
	return Math.abs(ms) <= MAX_DATE_MS ? new Date(ms).toISOString() : String(ms);
}
