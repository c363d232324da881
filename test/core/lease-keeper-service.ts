/**
 * The service side of the lease simulation, made of the service's own core: one
 * `LeaseKeeper` (src/ids/leases/keeper.ts, the allocation rules of
 * src/ids/leases/span-rules.ts) per worker ID of a small LEASE_WORKER_IDS range, each
 * over an in-memory store that a restart boots a new keeper from, as an object's
 * storage; an acquire without a worker ID runs the service's own search
 * (src/worker/operations/lease-search.ts). Only the Worker's wrapping is left out: leaseIds
 * are plain names, stored as themselves instead of their SHA-256.
 *
 * The clock is the simulation's true time plus `offsetMs`, which tests step either
 * way. Every span a keeper stores is logged (answered or not), so a test can check
 * that the spans of one worker ID never overlap.
 */
import type { Clock } from "../../src/ids/clock";
import { IdError } from "../../src/ids/errors";
import type { LeaseGrantFields } from "../../src/ids/leases/holder/lease-source";
import { type GrantedSpan, type LeaseAnswer, LeaseKeeper } from "../../src/ids/leases/keeper";
import type { LeaseRecord } from "../../src/ids/leases/span-rules";
import type { LayoutConfig, SnowflakeLayout } from "../../src/ids/snowflake/layout";
import { searchFreeWorkerId } from "../../src/worker/operations/lease-search";
import type { SimTime } from "./lease-sim";

export interface SpanRecord {
	workerId: number;
	leaseId: string;
	from: number;
	to: number;
}

export interface ServiceTerms {
	layout: SnowflakeLayout;
	workerIds: number[];
	spanMs: number;
	graceMs: number;
}

/** What an object stores: its mark and its lease record. Restarts keep it. */
interface Store {
	mark: number | undefined;
	lease: LeaseRecord | undefined;
}

export class KeeperService {
	/** Added to true time: the objects' clock (tests step it). */
	offsetMs = 10_000_000;
	/** Every span stored (acquires and renewals), in order. */
	readonly granted: SpanRecord[] = [];
	restarts = 0;
	private readonly stores = new Map<number, Store>();
	private readonly keepers = new Map<number, LeaseKeeper>();
	private readonly clock: Clock;
	private leases = 0;

	constructor(
		readonly terms: ServiceTerms,
		time: SimTime,
		/** The layout answers name (the config the terms' layout was made from). */
		private readonly answerLayout: LayoutConfig,
	) {
		this.clock = {
			now: () => time.now + this.offsetMs,
			// A keeper's generator waits only for IDs of its own, which nobody asks for here.
			sleep: () => Promise.reject(new Error("the simulated objects issue no IDs of their own")),
		};
		for (const workerId of terms.workerIds) {
			this.stores.set(workerId, { mark: undefined, lease: undefined });
			this.restart(workerId);
		}
		this.restarts = 0;
	}

	/**
	 * A span of the worker ID named, or the service's search over the range from a
	 * rotating start (a fixed order keeps a run repeatable).
	 */
	async acquire(probeFrom: number, workerId?: number): Promise<LeaseGrantFields> {
		const leaseId = `lease-${++this.leases}`;
		const ask = (w: number, maxLeadMs: number | undefined) =>
			this.keeper(w).acquire({ leaseHash: leaseId, holder: null, maxLeadMs });
		if (workerId !== undefined)
			return this.answer(workerId, leaseId, await ask(workerId, undefined));
		const { workerIds } = this.terms;
		const candidates = workerIds.map(
			(_, i) => workerIds[(probeFrom + i) % workerIds.length] as number,
		);
		const outcome = await searchFreeWorkerId(
			candidates,
			async (w, maxLeadMs) => {
				const answer = await ask(w, maxLeadMs);
				if (answer.ok) return answer;
				const { code, retryAfterSeconds, startsInMs } = answer.refusal;
				return { ok: false, code, retryAfterSeconds, startsInMs };
			},
			(refusal) => {
				throw new IdError<string>(refusal.code, "refused", refusal.retryAfterSeconds);
			},
		);
		if (!outcome.found)
			throw new IdError<string>("no_free_worker_id", "every worker ID is held", 1);
		return this.answer(outcome.workerId, leaseId, { ok: true, value: outcome.value });
	}

	async renew(workerId: number, leaseId: string): Promise<LeaseGrantFields> {
		return this.answer(workerId, leaseId, await this.keeper(workerId).renew(leaseId));
	}

	async release(workerId: number, leaseId: string): Promise<void> {
		const answer = await this.keeper(workerId).release(leaseId);
		if (!answer.ok) throw answer.refusal;
	}

	/** The object restarts: a new keeper from what it stored (every answer is stored before it leaves). */
	restart(workerId: number): void {
		const store = this.store(workerId);
		this.restarts++;
		this.keepers.set(
			workerId,
			new LeaseKeeper({
				generator: {
					layout: this.terms.layout,
					workerId,
					clock: this.clock,
					maxBackwardMs: 1_000,
					leaseMs: 1_000,
					restoredMark: store.mark,
					persistMark: (tick) => {
						store.mark = tick;
					},
				},
				spanMs: this.terms.spanMs,
				graceMs: this.terms.graceMs,
				restoredLease: store.lease,
				persistLease: (book) => {
					store.mark = book.mark;
					store.lease = book.lease;
					const { leaseHash, from, to } = book.lease as LeaseRecord;
					this.granted.push({ workerId, leaseId: leaseHash, from, to });
				},
			}),
		);
	}

	private keeper(workerId: number): LeaseKeeper {
		const keeper = this.keepers.get(workerId);
		if (!keeper) throw new IdError<string>("invalid_worker_id", `${workerId} is not leased`);
		return keeper;
	}

	private store(workerId: number): Store {
		const store = this.stores.get(workerId);
		if (!store) throw new IdError<string>("invalid_worker_id", `${workerId} is not leased`);
		return store;
	}

	private answer(
		workerId: number,
		leaseId: string,
		answer: LeaseAnswer<GrantedSpan>,
	): LeaseGrantFields {
		if (!answer.ok) throw answer.refusal;
		const { from, to, serverNowMs } = answer.value;
		return { workerId, leaseId, from, to, serverNowMs, layout: this.answerLayout };
	}
}
