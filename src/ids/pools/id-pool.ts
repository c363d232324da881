/**
 * A pool of pre-issued Snowflake IDs (Meituan Leaf's segments with a double
 * buffer, Baidu's ring buffer), runtime-neutral: the clock, the refill and the
 * direct call are injected, so the Worker (refilling from a worker ID's object)
 * and consumers (refilling from blocks over RPC or HTTP) share it.
 *
 * - What one object call issues is `IssuedRuns`: runs of one worker ID (not an
 *   API block `{ first, count }`). The pool holds each refill's runs as a block;
 *   a request takes all its IDs from one block, so they strictly increase and
 *   share a worker ID.
 * - Fresh: no ID is handed out more than `maxAgeMs` after its tick starts;
 *   older leftovers are dropped (wasted, never reissued).
 * - Adaptive: the block size doubles when a block runs out within half the
 *   freshness bound, halves when a block expires more than half unused.
 * - Ahead of need: when a block is half used, the next one is fetched in the
 *   background; at most one refill is in flight, and requests that find the
 *   pool empty await that one, for at most `refillTimeoutMs`.
 * - A count above `maxSize` goes direct; so does one above the block size
 *   (which grows to hold four such counts): held IDs are not thrown away for it.
 *   A failed or late refill falls back to direct. Direct IDs for a count the pool
 *   serves keep the freshness bound too; a bound shorter than a tick is refused.
 * The pool holds IDs only, never connections or stubs.
 *
 *   const pool = new IdPool({ now: Date.now, msOfTick, refill, direct, maxAgeMs: 1000, maxSize: 4096 });
 *   const { workerId, runs } = await pool.take(5, (work) => ctx.waitUntil(work));
 */
import { finiteReading } from "../clock";
import { describeValue, IdError } from "../errors";
import type { IdRun } from "../snowflake/generator";

/**
 * IDs one object call issued (a refill or a direct call): one worker ID's runs,
 * strictly increasing across them.
 */
export interface IssuedRuns {
	workerId: number;
	runs: IdRun[];
}

/** @deprecated The old name of `IssuedRuns`, which is not an API block `{ first, count }`. */
export type IdBlock = IssuedRuns;

export interface IdPoolOptions {
	/**
	 * Unix milliseconds now; frozen clocks are fine (the pool never waits on it). A
	 * reading that is not a finite number refuses the take (`clock_regression`): the
	 * pool cannot tell the age of what it holds by it.
	 */
	now: () => number;
	/** Unix milliseconds at which a tick starts (`layout.msOf`). */
	msOfTick: (tick: number) => number;
	/** Fetches a new block of about `size` IDs (one object call, one worker ID). */
	refill: (size: number) => Promise<IssuedRuns>;
	/** Issues `count` IDs without the pool: large counts and failed refills. */
	direct: (count: number) => Promise<IssuedRuns>;
	/** Freshness bound in ms; 0 turns the pool off (every request goes direct). */
	maxAgeMs: number;
	/** Largest block the pool asks for; larger counts go direct. */
	maxSize: number;
	/** Smallest (and first) block size. Default min(16, maxSize). */
	minSize?: number;
	/**
	 * Longest a take waits for the refill in flight before it goes direct, and the
	 * age after which later takes stop waiting for that refill. Default 5000.
	 */
	refillTimeoutMs?: number;
}

/** What `take` answers: IDs from one block or direct call, and which of the two. */
export interface TakenRuns extends IssuedRuns {
	source: "pool" | "direct";
}

export interface IdPoolStats {
	/** Requests answered (pooled or direct). */
	requests: number;
	/** Refill calls started, background ones included. */
	refills: number;
	failedRefills: number;
	/** Refills given up on after `refillTimeoutMs` (their IDs still land in the pool if they arrive). */
	lateRefills: number;
	/** Direct calls: large counts, pool off, failed refills. */
	directCalls: number;
	/** IDs dropped unused (expired or left over when a block was replaced). */
	wasted: number;
	/** The block size the next refill asks for. */
	blockSize: number;
}

/** Where the pool lets background work run on after a response (`ctx.waitUntil`). */
export type Background = (work: Promise<unknown>) => void;

interface HeldBlock {
	workerId: number;
	/** Remaining runs, oldest first; the first one is consumed from its front. */
	runs: IdRun[];
	available: number;
	size: number;
	receivedAt: number;
}

export class IdPool {
	private readonly options: IdPoolOptions;
	private readonly minSize: number;
	private size: number;
	private current: HeldBlock | undefined;
	private next: HeldBlock | undefined;
	private refilling: Promise<void> | undefined;
	/** `now()` when the refill in flight started. */
	private refillStartedAt = 0;
	private readonly refillTimeoutMs: number;
	private readonly counters = {
		requests: 0,
		refills: 0,
		failedRefills: 0,
		lateRefills: 0,
		directCalls: 0,
		wasted: 0,
	};

	constructor(options: IdPoolOptions) {
		this.options = options;
		this.minSize = Math.max(1, Math.min(options.minSize ?? 16, options.maxSize));
		this.size = this.minSize;
		this.refillTimeoutMs = options.refillTimeoutMs ?? 5000;
	}

	/** The clock; a reading that is not a finite number throws `clockFault`, so none is stored or compared. */
	private now(): number {
		return finiteReading(this.options.now());
	}

	stats(): IdPoolStats {
		return { ...this.counters, blockSize: this.size };
	}

	/**
	 * `count` IDs from one block. Waits only for the pool's one refill in flight
	 * (at most `refillTimeoutMs`) or a direct call; errors are those of
	 * `refill`/`direct`. Throws `invalid_count` when `count` is not a positive
	 * safe integer. `background` (e.g. `ctx.waitUntil`) receives every refill, so
	 * a refill outlives the request that started it and other takers can rely on it.
	 */
	async take(count: number, background?: Background): Promise<TakenRuns> {
		if (!Number.isSafeInteger(count) || count < 1) {
			throw new IdError(
				"invalid_count",
				`count must be a positive integer; got ${describeValue(count)}`,
			);
		}
		this.counters.requests++;
		const { maxAgeMs, maxSize } = this.options;
		if (maxAgeMs <= 0 || count > maxSize) return this.goDirect(count);
		this.refuseBoundBelowTick();
		if (count > this.size) {
			// Serving it from blocks sized for smaller counts would waste them: go
			// direct, and size the next blocks for this demand.
			this.size = Math.min(maxSize, count * 4);
			return this.goDirectFresh(count);
		}
		// Two refills awaited at most: concurrent takers may drain the first one.
		// Stryker disable next-line EqualityOperator: the loop ends at attempt 2 (the break below)
		for (let attempt = 0; attempt < 3; attempt++) {
			const taken = this.takeHeld(count);
			if (taken) {
				this.refillAhead(background);
				return { ...taken, source: "pool" };
			}
			if (attempt === 2) break;
			if (!(await this.awaitRefill(count, background))) break;
		}
		return this.goDirectFresh(count);
	}

	private async goDirect(count: number): Promise<TakenRuns> {
		this.counters.directCalls++;
		return { ...(await this.options.direct(count)), source: "direct" };
	}

	/**
	 * A direct call for a count the pool serves: its IDs keep the freshness bound too.
	 * A block that arrives already older (a slow call) is dropped and asked for once
	 * more; a second stale one is refused as retryable rather than handed out.
	 */
	private async goDirectFresh(count: number): Promise<TakenRuns> {
		for (let attempt = 0; ; attempt++) {
			const taken = await this.goDirect(count);
			const first = taken.runs[0];
			const oldest = this.now() - this.options.maxAgeMs;
			if (!first || this.options.msOfTick(first.tick) >= oldest) return taken;
			this.counters.wasted += count;
			if (attempt === 1) {
				throw new IdError(
					"overloaded",
					`IDs arrived older than the pool's freshness bound (${this.options.maxAgeMs} ms) twice; retry shortly`,
					1,
				);
			}
		}
	}

	/**
	 * A bound shorter than one tick cannot be kept: an ID is up to a tick old when
	 * issued. Checked per take (a consumer's pool learns its layout late).
	 */
	private refuseBoundBelowTick(): void {
		const { msOfTick, maxAgeMs } = this.options;
		const tickMs = msOfTick(1) - msOfTick(0);
		if (maxAgeMs < tickMs) {
			throw new IdError(
				"invalid_config",
				`maxAgeMs (${maxAgeMs}) must be 0 (pool off) or at least one tick (${tickMs} ms): an ID is up to a tick old when issued`,
			);
		}
	}

	/** Takes from the current block, moving to the next when it cannot serve. */
	private takeHeld(count: number): IssuedRuns | undefined {
		const now = this.now();
		for (;;) {
			const block = this.current;
			if (block) {
				this.dropStale(block, now);
				if (block.available >= count) return this.cut(block, count);
				this.retire(block, now);
			}
			if (!this.next) return undefined;
			this.current = this.next;
			this.next = undefined;
		}
	}

	/** Drops runs whose tick started more than maxAgeMs ago; shrinks on unused expiry. */
	private dropStale(block: HeldBlock, now: number): void {
		const oldest = now - this.options.maxAgeMs;
		let dropped = 0;
		for (
			let run = block.runs[0];
			run && this.options.msOfTick(run.tick) < oldest;
			run = block.runs[0]
		) {
			block.runs.shift();
			dropped += run.count;
		}
		// Stryker disable next-line ConditionalExpression: with nothing dropped, the lines below change nothing
		if (dropped === 0) return;
		block.available -= dropped;
		this.counters.wasted += dropped;
		if (dropped * 2 > block.size) this.size = Math.max(this.minSize, Math.floor(this.size / 2));
	}

	/** A block that cannot serve the next request: its leftovers are wasted. */
	private retire(block: HeldBlock, now: number): void {
		this.counters.wasted += block.available;
		// Used up (or nearly) within half the bound: demand outruns the block size.
		if (block.available * 2 < block.size && now - block.receivedAt <= this.options.maxAgeMs / 2) {
			this.size = Math.min(this.options.maxSize, this.size * 2);
		}
		this.current = undefined;
	}

	private cut(block: HeldBlock, count: number): IssuedRuns {
		const runs: IdRun[] = [];
		let wanted = count;
		for (let run = block.runs[0]; run && wanted > 0; run = block.runs[0]) {
			if (run.count <= wanted) {
				block.runs.shift();
				runs.push(run);
				wanted -= run.count;
			} else {
				runs.push({ tick: run.tick, firstSequence: run.firstSequence, count: wanted });
				block.runs[0] = {
					tick: run.tick,
					firstSequence: run.firstSequence + wanted,
					count: run.count - wanted,
				};
				wanted = 0;
			}
		}
		block.available -= count;
		return { workerId: block.workerId, runs };
	}

	/** Starts the next block in the background once the current one is half used. */
	private refillAhead(background: Background | undefined): void {
		const block = this.current;
		if (this.next || this.inFlight() || !block || block.available * 2 > block.size) return;
		this.startRefill(this.size, background).catch(() => undefined);
	}

	/** The refill in flight, unless it has run past `refillTimeoutMs` (then it is given up on). */
	private inFlight(): Promise<void> | undefined {
		if (this.refilling && this.now() - this.refillStartedAt > this.refillTimeoutMs) {
			this.giveUp(this.refilling);
		}
		return this.refilling;
	}

	private giveUp(refill: Promise<void>): void {
		if (this.refilling !== refill) return;
		this.refilling = undefined;
		this.counters.lateRefills++;
	}

	/** Awaits the refill in flight, or starts one; false when it failed or ran late. */
	private async awaitRefill(count: number, background: Background | undefined): Promise<boolean> {
		const refill = this.inFlight() ?? this.startRefill(Math.max(this.size, count), background);
		let timer: ReturnType<typeof setTimeout> | undefined;
		const late = new Promise<"late">((resolve) => {
			timer = setTimeout(() => resolve("late"), this.refillTimeoutMs);
		});
		try {
			if ((await Promise.race([refill, late])) !== "late") return true;
			this.giveUp(refill);
			return false;
			// The directive sits after `catch`: it applies to the node its comment leads.
		} catch /* Stryker disable next-line BlockStatement: an empty catch answers undefined, which the caller reads as false too */ {
			return false;
		} finally {
			// Stryker disable next-line ConditionalExpression: the executor above always sets timer
			if (timer !== undefined) clearTimeout(timer);
		}
	}

	/**
	 * The single flight: one refill per pool at a time, its block lands in `next`
	 * (also when it arrives after being given up on: its IDs are still unissued).
	 */
	private startRefill(size: number, background: Background | undefined): Promise<void> {
		const startedAt = this.now();
		this.counters.refills++;
		const refill: Promise<void> = this.options.refill(size).then(
			(block) => {
				if (this.refilling === refill) this.refilling = undefined;
				this.store(block, size);
			},
			(error: unknown) => {
				if (this.refilling === refill) this.refilling = undefined;
				this.counters.failedRefills++;
				throw error;
			},
		);
		this.refilling = refill;
		this.refillStartedAt = startedAt;
		background?.(refill.catch(() => undefined));
		return refill;
	}

	private store(block: IssuedRuns, size: number): void {
		const runs = block.runs.filter((run) => run.count > 0);
		let available = 0;
		for (const run of runs) available += run.count;
		let receivedAt: number;
		try {
			receivedAt = this.now();
		} catch (error) {
			this.counters.wasted += available; // a block of unknown age is never handed out
			throw error;
		}
		const held = { workerId: block.workerId, runs, available, size, receivedAt };
		if (this.next) this.counters.wasted += this.next.available;
		this.next = held;
	}
}
