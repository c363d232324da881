/**
 * The Snowflake worker ID's Durable Object (`SnowflakeWorker`, binding SNOWFLAKE, one
 * per worker ID): issues its IDs, grants and renews its leases, counts its minutes.
 * A thin adapter: the rules are the core's (LeaseKeeper), the records
 * ./worker-id-storage.ts's; refusals cross as values (./object-answers.ts).
 *
 *   const stub = env.SNOWFLAKE.get(env.SNOWFLAKE.idFromName("7"));
 *   await stub.issue(7, 3); // { ok: true, runs: [{ tick, firstSequence: 0, count: 3 }], layout }
 */
import { DurableObject } from "cloudflare:workers";
import type { Clock } from "../../ids/clock";
import { IdError } from "../../ids/errors";
import type { AcquireBucket } from "../../ids/leases/acquire-budget";
import type { GrantedSpan, LeaseAnswer, LeaseKeeper } from "../../ids/leases/keeper";
import type { LeaseAsk } from "../../ids/leases/span-rules";
import { objectConfigFrom } from "../config/config";
import { catalogWrite, tellCatalog } from "./catalog-calls";
import type { ObjectHistory } from "./history";
import {
	NAMESPACE_LAYOUT_NAME,
	namespaceLayoutMismatch,
	namespaceLayoutUnreachable,
	storedLayoutMismatch,
	storedNamespaceMismatch,
} from "./layout-guard";
import { sameLeaseHash } from "./lease-secret";
import type { WorkerIdMinutes } from "./minutes";
import { objectFailure as failure } from "./object-answers";
import { objectModules } from "./object-parts";
import type {
	AcquireBudgetResult,
	HistoryResult,
	IssueResult,
	LeaseStatusResult,
	ReleaseResult,
	SpanResult,
	StatsResult,
} from "./object-protocol";
import { StoreSoon } from "./store-soon";
import type { WorkerIdStorage } from "./worker-id-storage";
import { workersClock } from "./workers-clock";

/** Counts left unstored by a call are stored this long after it (one write for all that follow). */
const STORE_COUNTS_MS = 1_000;

/**
 * One instance per Snowflake worker ID (named by it), the only place that worker
 * ID's `lastTimestamp` and `sequence` live. Cloudflare runs at most one live
 * instance per name, so no two generators ever share a worker ID; should two run on
 * one storage anyway (two dev servers), the older one stops at its next mark.
 *
 * Storage holds the layout fingerprint and a high-water mark lease: a tick that
 * every issued ID, and every span leased to a holder, is at or below. A restarted
 * instance issues and grants only above it. The rules are the core's
 * (`LeaseKeeper`, src/ids/leases/keeper.ts), the records and their guarded writes
 * ./worker-id-storage.ts's; this class starts a life from storage and answers calls.
 */
export class SnowflakeWorker extends DurableObject<Env> {
	/** The time source; tests replace it (runInDurableObject) to drive the clock. */
	clock: Clock = workersClock;
	private keeper: LeaseKeeper | undefined;
	private starting: Promise<LeaseKeeper> | undefined;
	/** The fingerprint of the layout this instance issues under (set with the generator). */
	// Stryker disable next-line StringLiteral: every answer that shows it comes after keeperFor, which sets it
	private fingerprint = "";
	/** This life's records (set with the generator). */
	private storage: WorkerIdStorage | undefined;
	/** A caller's lease acquires, in an object named for the caller (never a worker ID's). */
	private acquireBucket: AcquireBucket | undefined;
	/**
	 * The time calls are counted in minutes by (the history): apart from `clock`, so
	 * counting never takes a reading a test scripted for the generator. Tests replace it.
	 */
	minuteClock: () => number = () => Date.now();
	/** This life's counts by minute (set with the generator). */
	private minutes: WorkerIdMinutes | undefined;
	private historyRows: ObjectHistory | undefined;
	/** Counts a call left unstored are stored a second later, one write for all of that second. */
	private readonly countsSoon = new StoreSoon(STORE_COUNTS_MS, () => this.storeCounts(), {
		object: "SnowflakeWorker",
		name: this.ctx.id.name,
	});

	async issue(workerId: number, count: number): Promise<IssueResult> {
		try {
			const { generator } = await this.keeperFor(workerId);
			this.minutes?.enter(generator.stats());
			const runs = await generator.nextRuns(count);
			return { ok: true, runs, layout: this.fingerprint };
		} catch (error) {
			const refusal = failure(error);
			this.minutes?.refused(refusal.code);
			return refusal;
		} finally {
			// The call that wrote a mark stored the stats mid-way, before its own counts:
			// store them once more now (one write per mark write). What is left unstored
			// (other calls' counts, refusals) is stored within STORE_COUNTS_MS, by one
			// write for all of it; a store that finds nothing moved writes nothing.
			if (this.storage?.markWritten) this.storeStats();
			this.countsSoon.request();
		}
	}

	async stats(workerId: number): Promise<StatsResult> {
		try {
			const keeper = await this.keeperFor(workerId);
			const storage = this.storage as WorkerIdStorage; // set with the keeper
			const { lastTimestamp, ...counters } = keeper.generator.stats();
			// A count a caller sees must survive a restart: store it before answering (the
			// output gate holds the answer until it is durable). Counts nobody read are
			// stored within a second (countsSoon): only a crash loses them.
			if (storage.countsMoved(counters)) this.storeStats();
			if (storage.superseded) throw storage.superseded;
			const shown = lastTimestamp ?? storage.storedLastTimestamp;
			return {
				ok: true,
				stats: { workerId, ...counters, lastTimestamp: shown, since: storage.since },
			};
		} catch (error) {
			return failure(error);
		}
	}

	/** A span for a holder, if the worker ID is free (`no_free_worker_id` if not); the catalog is told. */
	async acquireLease(workerId: number, ask: LeaseAsk): Promise<SpanResult> {
		const result = await this.spanAnswer(workerId, (keeper) => keeper.acquire(ask));
		if (result.ok && this.keeper) {
			const { layout } = this.keeper.generator;
			const { from, to, serverNowMs } = result.span;
			const note = {
				workerId,
				holder: ask.holder,
				fromMs: layout.msOf(from),
				toMs: layout.msOf(to),
				spanMs: objectConfigFrom(this.env).leaseSpanMs,
				acquiredAtMs: serverNowMs,
			};
			tellCatalog(this.ctx, this.env, "noteLease", (catalog) => catalog.noteLease(note));
			this.minutes?.leaseGranted();
		}
		return result;
	}

	/** The lease whose leaseId hashes to `leaseHash`, its span moved on; else `lease_lost`. */
	async renewLease(workerId: number, leaseHash: string): Promise<SpanResult> {
		return this.spanAnswer(workerId, (keeper) => keeper.renew(leaseHash));
	}

	/** Frees the worker ID at once (the mark stays above the span); else `lease_lost`. */
	async releaseLease(workerId: number, leaseHash: string): Promise<ReleaseResult> {
		try {
			const keeper = await this.keeperFor(workerId);
			const answer = await keeper.release(leaseHash);
			if (!answer.ok) return failure(answer.refusal);
			const fromMs = keeper.status().fromMs ?? 0;
			tellCatalog(this.ctx, this.env, "dropLease", (c) => c.dropLease(workerId, fromMs));
			// The tell may fail: the next minute's alarm reports the lease gone either way.
			this.minutes?.leaseReleased();
			return { ok: true };
		} catch (error) {
			return failure(error);
		}
	}

	/** The worker ID's lease state (never its hash), at the object's clock. */
	async leaseStatus(workerId: number): Promise<LeaseStatusResult> {
		try {
			const status = (await this.keeperFor(workerId)).status();
			return { ok: true, status, layout: this.fingerprint };
		} catch (error) {
			return failure(error);
		}
	}

	/**
	 * The worker ID's minutes from `sinceMs` on: its stored rows and the open minute,
	 * this life's as it stands, or (a life that has not issued yet, as after an idle
	 * spell's eviction) as the last life stored it. Reading writes nothing.
	 */
	async history(workerId: number, sinceMs: number): Promise<HistoryResult> {
		const { ObjectHistory, mergeMinutes, storedOpenMinute, storedCounters } = await objectModules();
		this.historyRows ??= new ObjectHistory(this.ctx.storage.sql);
		const { keeper, minutes } = this;
		const live = keeper?.generator.workerId === workerId ? minutes : undefined;
		const unsaved =
			live && keeper
				? live.unsaved(keeper.generator.stats())
				: storedOpenMinute(this.ctx.storage, storedCounters(this.ctx.storage), sinceMs);
		return {
			ok: true,
			minutes: mergeMinutes([...this.historyRows.read(sinceMs), ...unsaved], sinceMs),
		};
	}

	/**
	 * Just past a minute's end (./minutes.ts): stores the minutes closed and
	 * pushes them, the counts and the lease's state to the catalog. Never throws: a
	 * failed push is logged, and the minutes stay in this object's own history.
	 */
	override async alarm(): Promise<void> {
		const name = this.ctx.id.name ?? "";
		if (!/^[0-9]+$/.test(name)) return; // the namespace's layout object counts nothing
		const workerId = Number(name);
		try {
			const keeper = await this.keeperFor(workerId);
			const storage = this.storage as WorkerIdStorage; // set with the keeper
			// Counts are stored before they are reported: a later life never reports less.
			this.storeCounts();
			const stats = keeper.generator.stats();
			const { leaseSpanMs } = objectConfigFrom(this.env);
			const minutes = this.minutes;
			const report = minutes?.close(workerId, stats, keeper.status(), storage, leaseSpanMs);
			if (!report || !minutes) return;
			minutes.reported(
				report,
				await catalogWrite(this.env, "report", (catalog) => catalog.report(report)),
			);
		} catch (error) {
			console.error(
				JSON.stringify({
					object: "SnowflakeWorker",
					workerId,
					event: "minute_alarm_failed",
					message: error instanceof Error ? error.message : String(error),
				}),
			);
		}
	}

	private async spanAnswer(
		workerId: number,
		decide: (keeper: LeaseKeeper) => Promise<LeaseAnswer<GrantedSpan>>,
	): Promise<SpanResult> {
		try {
			const answer = await decide(await this.keeperFor(workerId));
			return answer.ok
				? { ok: true, span: answer.value, layout: this.fingerprint }
				: failure(answer.refusal);
		} catch (error) {
			return failure(error);
		}
	}

	/** Stores the counters as they are now, with the stored mark and lease. */
	private storeStats(): void {
		if (this.keeper) this.storage?.storeStats(this.keeper.generator.stats());
	}

	/** Stores the counts and the open minute's refusals, where they moved since last stored. */
	private storeCounts(): void {
		const { keeper, storage, minutes } = this;
		if (!keeper || !storage || storage.superseded) return;
		const { lastTimestamp: _, ...counters } = keeper.generator.stats();
		if (storage.countsMoved(counters)) this.storeStats();
		if (minutes?.openMoved) minutes.storeOpen();
	}

	/**
	 * Takes one lease acquire from the budget of the caller this object is named for
	 * (../operations/lease-acquire-limit.ts), `perMinute` a minute. In memory only: a restart
	 * refills it (it guards the range's capacity, never IDs) and no write is made.
	 */
	async takeAcquire(perMinute: number): Promise<AcquireBudgetResult> {
		const { takeAcquire } = await objectModules();
		const taken = takeAcquire(this.acquireBucket, perMinute, this.clock.now());
		this.acquireBucket = taken.bucket;
		return taken.ok ? { ok: true } : { ok: false, retryAfterSeconds: taken.retryAfterSeconds };
	}

	/**
	 * The layout the namespace's worker IDs issue under, as held by the object named
	 * NAMESPACE_LAYOUT_NAME (an instance of this class): `fingerprint` if none yet.
	 */
	async claimLayout(fingerprint: string): Promise<string> {
		const { claimNamespaceLayout } = await objectModules();
		return claimNamespaceLayout(this.ctx.storage, fingerprint);
	}

	/** The keeper, made on first use (checking the namespace's layout once in a worker ID's life). */
	private keeperFor(workerId: number): LeaseKeeper | Promise<LeaseKeeper> {
		if (this.storage?.superseded) throw this.storage.superseded;
		if (this.keeper) {
			if (this.keeper.generator.workerId !== workerId) {
				throw new IdError("internal", "a Snowflake object was asked for another worker ID");
			}
			return this.keeper;
		}
		// One start at a time: calls that arrive during its await share it.
		this.starting ??= this.start(workerId).finally(() => {
			this.starting = undefined;
		});
		return this.starting;
	}

	private async start(workerId: number): Promise<LeaseKeeper> {
		const config = objectConfigFrom(this.env);
		const { layout } = config;
		const fingerprint = layout.fingerprint();
		const modules = await objectModules();
		const { LeaseKeeper, WorkerIdStorage, storedLayoutOf, storeLayoutChecked } = modules;
		const { stored, checked } = storedLayoutOf(this.ctx.storage);
		if (checked !== (stored?.fingerprint ?? fingerprint)) {
			const own = stored?.fingerprint ?? fingerprint;
			await this.checkNamespaceLayout(workerId, stored?.fingerprint, fingerprint);
			storeLayoutChecked(this.ctx.storage, own, stored === undefined);
		}
		// IDs issued under another layout could collide with this one's: refuse.
		if (stored !== undefined && stored.fingerprint !== fingerprint) {
			throw storedLayoutMismatch(workerId, stored.fingerprint, fingerprint);
		}
		const storage = new WorkerIdStorage(this.ctx.storage, workerId);
		const restored = storage.begin(fingerprint, stored?.leased ?? false, this.clock.now());
		this.storage = storage;
		this.fingerprint = fingerprint;
		const keeper: LeaseKeeper = new LeaseKeeper({
			generator: {
				layout,
				workerId,
				clock: { now: () => this.clock.now(), sleep: (ms) => this.clock.sleep(ms) },
				maxBackwardMs: config.maxClockBackwardMs,
				maxBorrowMs: config.maxBorrowMs,
				maxWaitMs: config.maxWaitMs,
				leaseMs: config.leaseMs,
				restoredMark: restored.mark,
				restoredLeaseMs: restored.leaseMs,
				restoredCounters: restored.counters,
				// The stats ride along with the mark: no write of their own.
				persistMark: (tick, leaseMs) => storage.writeMark(tick, leaseMs, keeper.generator.stats()),
			},
			spanMs: config.leaseSpanMs,
			graceMs: config.leaseGraceMs,
			restoredLease: restored.lease,
			persistLease: (book) => storage.writeLease(book),
			sameHash: sameLeaseHash,
		});
		this.keeper = keeper;
		this.historyRows ??= new modules.ObjectHistory(this.ctx.storage.sql);
		const minuteClock = () => this.minuteClock();
		const counters = keeper.generator.stats();
		this.minutes = new modules.WorkerIdMinutes(
			this.ctx.storage,
			this.historyRows,
			counters,
			minuteClock,
			workerId,
		);
		return keeper;
	}

	/**
	 * Compares this worker ID's layout (the stored one, else the configured one) with
	 * the namespace's, claiming it for the namespace when the namespace holds none: so
	 * after an upgrade from a version without it, the first worker ID to start records
	 * the layout its IDs were issued under, and every later one, used or not, is
	 * compared with that. Equal: the caller stores both, and they are never compared again.
	 */
	private async checkNamespaceLayout(
		workerId: number,
		stored: string | undefined,
		configured: string,
	): Promise<void> {
		const own = stored ?? configured;
		let held: string;
		try {
			held = await this.namespaceLayout(workerId, own);
		} catch (error) {
			// A worker ID that must refuse anyway says why, not that a check failed.
			if (own !== configured) throw storedLayoutMismatch(workerId, own, configured);
			throw error;
		}
		if (held !== own) {
			if (stored === undefined) throw namespaceLayoutMismatch(workerId, held, configured);
			throw held === configured
				? storedLayoutMismatch(workerId, stored, configured)
				: storedNamespaceMismatch(workerId, stored, held);
		}
	}

	/** The namespace's layout, claimed for `fingerprint` when it holds none. */
	private async namespaceLayout(workerId: number, fingerprint: string): Promise<string> {
		const namespace = this.env.SNOWFLAKE;
		try {
			return await namespace
				.get(namespace.idFromName(NAMESPACE_LAYOUT_NAME))
				.claimLayout(fingerprint);
		} catch {
			throw namespaceLayoutUnreachable(workerId);
		}
	}
}
