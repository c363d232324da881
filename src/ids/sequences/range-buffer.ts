/**
 * Leaf's double buffer over ranges of numbers, done right: numbers are handed out
 * from the current range while the next one is fetched in the background, once
 * the current one falls below a fraction of the step. What Leaf leaves open is
 * bounded here:
 *
 * - at most one fetch in flight; a take that finds nothing waits for it at most
 *   `maxWaitMs` of the clock (then `overloaded`, retryable), and a fetch older than
 *   that is given up on (aborted) so a hung fetch never blocks the buffer;
 * - a range is used for at most `maxAgeMs` (POOL_MAX_AGE_MS) after its fetch
 *   began: a number handed out that long after another one is from a range the
 *   source issued later; the rest of an older range is dropped, and so is a range
 *   when the clock reads earlier than its fetch began (its age is unknown);
 * - numbers handed out strictly increase (per period): a range that arrives at or
 *   below what the buffer already held (a late fetch) is dropped, not used;
 * - the step follows the measured rate (./pool-step.ts); `close()` drops what is
 *   held and aborts the fetch in flight;
 * - a take larger than the largest step is fetched on its own (`direct`), at once,
 *   never queued behind a refill; what the buffer held below it is dropped (a gap),
 *   so numbers still increase;
 * - a take's wait ends early when its `signal` aborts, and every wait's timer is
 *   cancelled when the wait ends (nothing keeps a process alive after `close()`).
 *
 * Runtime-neutral (the clock and the fetch are injected), for the Worker's pooled
 * mode (segments from a sequence's object) and a process's buffer over reserved
 * ranges. One answer's numbers are consecutive and come from one range; a take
 * larger than what is left of the current range drops that rest.
 *
 *   const buffer = new RangeBuffer({
 *     fetch: async (size) => reserve("orders", size), // { first, last, period? }
 *     clock: systemClock,
 *     step: { minStep: 10, maxStep: 100_000, targetRefillMs: 500, maxAgeMs: 1000 },
 *   });
 *   const { first, count } = await buffer.take(3, (work) => ctx.waitUntil(work));
 *   buffer.close();
 */
import type { Clock } from "../clock";
import type { Background } from "../pools/id-pool";
import { boundedWait } from "./bounded-wait";
import { comparePeriods, readClock } from "./periods";
import { checkPoolStepRules, measuredRate, type PoolStepRules, stepForRate } from "./pool-step";
import {
	type FetchRange,
	type HeldRange,
	heldRange,
	isYoung,
	type NumberRange,
	type TakenNumbers,
} from "./ranges";
import { SequenceRefusal } from "./refusals";

export type { FetchRange, NumberRange, TakenNumbers };

export interface RangeBufferOptions {
	fetch: FetchRange;
	/** Fetches exactly `count` numbers for a take larger than `step.maxStep`. Default: `fetch`. */
	direct?: FetchRange;
	/** Ages and waits are read from it; `sleep` bounds a take's wait. */
	clock: Clock;
	step: PoolStepRules;
	/** Fetch the next range when the current one has less than this fraction of a step left. Default 0.5. */
	refillBelow?: number;
	/** Longest a take waits for a range, and the age at which a fetch is given up. Default 5000. */
	maxWaitMs?: number;
}

export interface RangeBufferStats {
	takes: number;
	handedOut: number;
	/** Fetches started (background ones included). */
	fetches: number;
	failedFetches: number;
	/** Fetches given up on after `maxWaitMs`. */
	lateFetches: number;
	/** Ranges that arrived below what was held, with a spare already held, or after `close()`. */
	droppedRanges: number;
	/** Numbers fetched and never handed out: expired, left over, dropped or closed. */
	wasted: bigint;
	/** The size the next fetch asks for (at least a take's count). */
	step: number;
}

interface Flight {
	startedAt: number;
	controller: AbortController;
	done: Promise<void>;
}

export class RangeBuffer {
	private readonly options: RangeBufferOptions;
	private readonly rules: PoolStepRules;
	private readonly refillBelow: number;
	private readonly maxWaitMs: number;
	private current: HeldRange | undefined;
	private spare: HeldRange | undefined;
	private flight: Flight | undefined;
	/** The highest number accepted, and its period: every range accepted lies above it. */
	private top: { period: string | null; last: bigint } | undefined;
	private closed = false;
	/**
	 * What `close()` ends: one promise per waiting take, made in that take's request. A
	 * Worker's promise settles only in the request that made it, so a take must never
	 * wait on one an earlier, ended request made (it would fail, a 500).
	 */
	private readonly closeWaits = new Set<() => void>();
	private step: number;
	private lastFetchAt: number | undefined;
	private handedSinceFetch = 0;
	private readonly counters = {
		takes: 0,
		handedOut: 0,
		fetches: 0,
		failedFetches: 0,
		lateFetches: 0,
		droppedRanges: 0,
		wasted: 0n,
	};

	constructor(options: RangeBufferOptions) {
		this.options = options;
		this.rules = checkPoolStepRules(options.step);
		this.refillBelow = options.refillBelow ?? 0.5;
		this.maxWaitMs = options.maxWaitMs ?? 5000;
		if (!(this.refillBelow > 0 && this.refillBelow <= 1)) {
			throw new RangeError(`refillBelow must be in (0, 1], got ${this.refillBelow}`);
		}
		if (!(Number.isSafeInteger(this.maxWaitMs) && this.maxWaitMs >= 1)) {
			throw new RangeError(`maxWaitMs must be a positive integer, got ${this.maxWaitMs}`);
		}
		this.step = this.rules.minStep;
	}

	stats(): RangeBufferStats {
		return { ...this.counters, step: this.step };
	}

	/**
	 * `count` consecutive numbers, larger than every number handed out before (in
	 * the same period). Waits only for the one fetch in flight, at most `maxWaitMs`;
	 * a failed fetch's error is thrown to the takes that waited for it.
	 * `background` (e.g. `ctx.waitUntil`) receives every fetch this take starts.
	 */
	async take(count = 1, background?: Background, signal?: AbortSignal): Promise<TakenNumbers> {
		if (!Number.isSafeInteger(count) || count < 1) {
			throw new SequenceRefusal("invalid_count", `count must be a positive integer; got ${count}`);
		}
		this.refuseClosed();
		signal?.throwIfAborted();
		this.counters.takes++;
		if (count > this.rules.maxStep) return this.takeOnItsOwn(count, signal);
		const began = this.now();
		// Concurrent takes may use up what a fetch brought: wait for the next, until
		// maxWaitMs has passed since this take began (the one bound, not a count of fetches).
		for (;;) {
			const now = this.now();
			const taken = this.takeHeld(count, now);
			if (taken) {
				this.refillAhead(now, background);
				return taken;
			}
			// A clock that stepped back shortens nothing it cannot measure: no wait runs past maxWaitMs.
			const left = this.maxWaitMs - Math.max(0, now - began);
			if (left <= 0) throw this.overloaded();
			const flight = this.inFlight(now) ?? this.startFetch(count, now, background);
			if ((await this.waitFor(flight.done, left, signal)) === "late") {
				this.giveUp(flight);
				throw this.overloaded();
			}
		}
	}

	/**
	 * A take above the largest step: its own fetch of exactly `count`, started at once
	 * (a refill in flight would hold the take up and serve nothing of it). Its numbers
	 * lie above everything handed out before it began; one that arrives below numbers
	 * handed out since (a refill overtook it) is dropped and fetched again, within the
	 * take's `maxWaitMs`.
	 */
	private async takeOnItsOwn(
		count: number,
		signal: AbortSignal | undefined,
	): Promise<TakenNumbers> {
		const began = this.now();
		for (;;) {
			const now = this.now();
			const left = this.maxWaitMs - Math.max(0, now - began);
			if (left <= 0) throw this.overloaded();
			const controller = new AbortController();
			this.counters.fetches++;
			let range: NumberRange | undefined;
			const fetching = (this.options.direct ?? this.options.fetch)(count, controller.signal).then(
				(arrived) => {
					range = arrived;
				},
				(error: unknown) => {
					this.counters.failedFetches++;
					throw error;
				},
			);
			let outcome: "arrived" | "late";
			try {
				outcome = await this.waitFor(fetching, left, signal);
			} finally {
				controller.abort(); // a late, closed or aborted take gives its fetch up
			}
			if (outcome === "late" || !range) {
				this.counters.lateFetches++;
				throw this.overloaded();
			}
			const taken = this.acceptOwn(range, count, now);
			if (taken) return taken;
		}
	}

	/**
	 * Waits for `work` at most `leftMs` of the clock ("late" after that), ending early
	 * when the buffer closes (`buffer_closed`) or `signal` aborts (its reason).
	 */
	private async waitFor(
		work: Promise<void>,
		leftMs: number,
		signal: AbortSignal | undefined,
	): Promise<"arrived" | "late"> {
		const outcome = await boundedWait(work, leftMs, this.options.clock, this.closeWaits, signal);
		this.refuseClosed();
		signal?.throwIfAborted();
		return outcome === "ended" ? "late" : outcome;
	}

	/** Drops what is held (counted as wasted), aborts the fetch in flight; later takes are refused. */
	close(): void {
		if (this.closed) return;
		this.closed = true;
		this.retire(this.current);
		this.retire(this.spare);
		this.current = undefined;
		this.spare = undefined;
		this.flight?.controller.abort();
		this.flight = undefined;
		for (const closeWait of this.closeWaits) closeWait();
		this.closeWaits.clear();
	}

	private now(): number {
		return readClock(this.options.clock.now());
	}

	private refuseClosed(): void {
		if (this.closed) {
			throw new SequenceRefusal("buffer_closed", "this range buffer was closed; make a new one");
		}
	}

	private overloaded(): SequenceRefusal {
		return new SequenceRefusal(
			"overloaded",
			`no range of numbers arrived within ${this.maxWaitMs} ms; retry shortly`,
			1,
		);
	}

	/** From the current range if it is fresh and holds `count`; else the spare becomes current. */
	private takeHeld(count: number, now: number): TakenNumbers | undefined {
		for (;;) {
			const range = this.current;
			if (range) {
				const fresh = isYoung(now - range.fetchedFrom, this.rules.maxAgeMs);
				if (fresh && range.last - range.next + 1n >= BigInt(count)) return this.cut(range, count);
				this.retire(range);
				this.current = undefined;
			}
			if (!this.spare) return undefined;
			this.current = this.spare;
			this.spare = undefined;
		}
	}

	private cut(range: HeldRange, count: number): TakenNumbers {
		const first = range.next;
		const last = first + BigInt(count) - 1n;
		range.next = last + 1n;
		this.counters.handedOut += count;
		this.handedSinceFetch += count;
		return { first, last, count, period: range.period };
	}

	private retire(range: HeldRange | undefined): void {
		if (range) this.counters.wasted += range.last - range.next + 1n;
	}

	/** Starts the next range once the current one has less than `refillBelow` of a step left. */
	private refillAhead(now: number, background: Background | undefined): void {
		if (this.spare || this.inFlight(now)) return;
		const range = this.current;
		const threshold = BigInt(Math.ceil(this.refillBelow * this.step));
		if (range && range.last - range.next + 1n >= threshold) return;
		this.startFetch(1, now, background);
	}

	/** The fetch in flight, unless it began `maxWaitMs` ago or more (then it is given up on). */
	private inFlight(now: number): Flight | undefined {
		const flight = this.flight;
		if (flight && !isYoung(now - flight.startedAt, this.maxWaitMs)) this.giveUp(flight);
		return this.flight;
	}

	private giveUp(flight: Flight): void {
		if (this.flight !== flight) return;
		this.flight = undefined;
		flight.controller.abort();
		this.counters.lateFetches++;
	}

	private startFetch(count: number, now: number, background: Background | undefined): Flight {
		// The rate since the last fetch decides this one's size (the first: the smallest).
		if (this.lastFetchAt !== undefined) {
			this.step = stepForRate(
				this.rules,
				measuredRate(this.handedSinceFetch, now - this.lastFetchAt),
			);
		}
		this.lastFetchAt = now;
		this.handedSinceFetch = 0;
		const flight: Flight = {
			startedAt: now,
			controller: new AbortController(),
			done: Promise.resolve(),
		};
		this.flight = flight;
		this.counters.fetches++;
		flight.done = this.fetchInto(flight, Math.max(count, this.step));
		// Marked handled here: a background fetch's failure reaches only the takes that wait for it.
		const settled = flight.done.catch(() => undefined);
		background?.(settled);
		return flight;
	}

	private async fetchInto(flight: Flight, size: number): Promise<void> {
		try {
			this.accept(await this.options.fetch(size, flight.controller.signal), flight.startedAt);
		} catch (error) {
			this.counters.failedFetches++;
			throw error;
		} finally {
			if (this.flight === flight) this.flight = undefined;
		}
	}

	/** A range that arrived: held if it lies above everything held before, else dropped. */
	private accept(range: NumberRange, fetchedFrom: number): void {
		const held = heldRange(range, fetchedFrom);
		if (this.closed || !this.isAboveTop(held.period, held.next) || (this.current && this.spare)) {
			this.counters.droppedRanges++;
			this.retire(held);
			return;
		}
		this.top = { period: held.period, last: held.last };
		if (this.current) this.spare = held;
		else this.current = held;
	}

	/**
	 * A take's own range: its first `count` numbers handed out, the rest held; what
	 * was held before lies below it and is dropped. Undefined (dropped) when it lies
	 * at or below numbers already handed out.
	 */
	private acceptOwn(
		range: NumberRange,
		count: number,
		fetchedFrom: number,
	): TakenNumbers | undefined {
		const held = heldRange(range, fetchedFrom);
		if (held.last - held.next + 1n < BigInt(count)) {
			throw new SequenceRefusal(
				"internal",
				`a direct fetch must hold the ${count} numbers asked for; got ${held.next}..${held.last}`,
			);
		}
		if (!this.isAboveTop(held.period, held.next)) {
			this.counters.droppedRanges++;
			this.retire(held);
			return undefined;
		}
		this.retire(this.current);
		this.retire(this.spare);
		this.spare = undefined;
		this.top = { period: held.period, last: held.last };
		const taken = this.cut(held, count);
		this.current = held.next <= held.last ? held : undefined;
		return taken;
	}

	private isAboveTop(period: string | null, first: bigint): boolean {
		const top = this.top;
		if (!top) return true;
		const order = comparePeriods(period, top.period);
		return order > 0 || (order === 0 && first > top.last);
	}
}
