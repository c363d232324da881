import { DurableObject } from "cloudflare:workers";
import type { SnowflakeStatsInfo } from "../api";
import type { Clock } from "../ids/clock";
import { IdError } from "../ids/errors";
import { type GrantedSpan, type LeaseAnswer, LeaseKeeper } from "../ids/lease-keeper";
import type { LeaseAsk, LeaseBook, LeaseRecord, LeaseView } from "../ids/lease-rules";
import { type IdRun, NO_COUNTS, type SnowflakeCounters } from "../ids/snowflake";
import { objectConfigFrom } from "./config";
import { type ServiceErrorCode, serviceError } from "./errors";
import {
	NAMESPACE_LAYOUT_NAME,
	namespaceLayoutMismatch,
	namespaceLayoutUnreachable,
	storedLayout,
	storedLayoutMismatch,
	storedNamespaceMismatch,
	withLeases,
} from "./layout-guard";
import { sameLeaseHash } from "./lease-secret";

/** A refusal. Errors travel as values: own properties of a thrown error do not cross RPC. */
export type ObjectFailure = {
	ok: false;
	code: ServiceErrorCode;
	detail: string;
	retryAfterSeconds?: number | undefined;
	/** `no_free_worker_id` of a free worker ID whose next span would start this far ahead. */
	startsInMs?: number | undefined;
};

/** What `issue` answers. */
export type IssueResult =
	/**
	 * `layout`: the issuing object's layout fingerprint (absent from objects of
	 * earlier versions); a Worker on another layout must not format the runs.
	 */
	{ ok: true; runs: IdRun[]; layout?: string } | ObjectFailure;

/** An object's stats (`since`, ISO, is when counting began); counts once read survive restarts. */
export type StatsResult = { ok: true; stats: SnowflakeStatsInfo } | ObjectFailure;

/** What `acquireLease` and `renewLease` answer: the span, under the object's layout. */
export type SpanResult = { ok: true; span: GrantedSpan; layout: string } | ObjectFailure;

/** What `releaseLease` answers. */
export type ReleaseResult = { ok: true } | ObjectFailure;

/** What `leaseStatus` answers (never the lease's hash). */
export type LeaseStatusResult =
	| { ok: true; status: LeaseView & { serverNowMs: number }; layout: string }
	| ObjectFailure;

/** Date.now() is frozen while a deployed Worker runs: waiting is a timer, never a spin. */
export const workersClock: Clock = {
	now: () => Date.now(),
	sleep: (ms) => scheduler.wait(ms),
};

/** The high-water mark, a plain number: the one format every version reads. */
const MARK_KEY = "mark";
const LAYOUT_KEY = "layout";
/** The worker ID's last lease (`LeaseRecord`), written with the mark; absent if never leased. */
const LEASE_KEY = "lease";
/**
 * The layout this worker ID found the namespace's to be (its own): written once, on
 * the first start that compared them. The namespace's layout never changes once
 * held, so later lives need no check; a worker ID stored by a version before the
 * namespace's layout existed has none, and its next start makes the comparison.
 */
const CHECKED_KEY = "layoutChecked";
/**
 * The token of the instance that last started: each life writes its own in the
 * transaction that reads the mark, and writes a mark only in a transaction that
 * finds it still there. Cloudflare runs one live instance per name, but two
 * `wrangler dev` servers on one state directory run one each: SQLite serializes
 * their transactions (file locks), so the later one reads every mark the earlier
 * one wrote, and the earlier one stops at its next mark instead of issuing IDs the
 * later one may issue too.
 */
const LIFE_KEY = "life";
/**
 * `StoredStats`: written with every mark (same commit), again when the call that wrote
 * the mark ends (its own counts), and before a stats read is answered if counts moved.
 */
const STATS_KEY = "stats";
/**
 * The longest lease an earlier version could have written a mark with (it accepted
 * LEASE_MS up to 60 s): a mark without `StoredStats` may lead the clock by that much.
 */
const LEGACY_MAX_LEASE_MS = 60_000;

interface StoredStats {
	/** The mark these were written with; another mark means a version without stats wrote it. */
	mark: number | undefined;
	/**
	 * The lease that mark was written with (the generator's `leaseMs`): a new life
	 * borrows that far from it. Ticks borrowed while catching up after a restart are
	 * not in it, so quick restarts do not add up.
	 */
	aheadMs: number;
	since: string;
	counters: SnowflakeCounters;
	/** Shown until the new life issues its first ID. */
	lastTimestamp?: number | null;
}

/**
 * One instance per Snowflake worker ID (named by it), the only place that worker
 * ID's `lastTimestamp` and `sequence` live. Cloudflare runs at most one live
 * instance per name, so no two generators ever share a worker ID; should two run on
 * one storage anyway (two dev servers), the older one stops at its next mark (LIFE_KEY).
 *
 * Storage holds the layout fingerprint and a high-water mark lease: a tick that
 * every issued ID, and every span leased to a holder, is at or below. A restarted
 * instance issues and grants only above it. The rules are the core's
 * (`LeaseKeeper`, src/ids/lease-keeper.ts); this class moves storage in and out.
 */
export class SnowflakeWorker extends DurableObject<Env> {
	/** The time source; tests replace it (runInDurableObject) to drive the clock. */
	clock: Clock = workersClock;
	private keeper: LeaseKeeper | undefined;
	private starting: Promise<LeaseKeeper> | undefined;
	/** The fingerprint of the layout this instance issues under (set with the generator). */
	private fingerprint = "";
	private since = "";
	/** The stats record as last stored (the mark and lease it names are the stored ones). */
	private stored: StoredStats | undefined;
	/** A mark was written since the stats were last stored: store them when its call ends. */
	private markWritten = false;
	/** The stored layout says "with leases" (written with the first span). */
	private layoutLeased = false;
	/** This life's token in storage (LIFE_KEY). */
	private life = "";
	/** Set once another instance took over the storage: every call is refused from then on. */
	private superseded: IdError<ServiceErrorCode> | undefined;

	async issue(workerId: number, count: number): Promise<IssueResult> {
		try {
			const { generator } = await this.keeperFor(workerId);
			const runs = await generator.nextRuns(count);
			return { ok: true, runs, layout: this.fingerprint };
		} catch (error) {
			return failure(error);
		} finally {
			// The call that wrote a mark stored the stats mid-way, before its own counts:
			// store them once more now (one write per mark write, none per request).
			if (this.markWritten) this.storeStats();
		}
	}

	async stats(workerId: number): Promise<StatsResult> {
		try {
			const { lastTimestamp, ...counters } = (await this.keeperFor(workerId)).generator.stats();
			// A count a caller sees must survive a restart: store it before answering (the
			// output gate holds the answer until it is durable). Counts nobody read may be
			// lost with the instance (the requests since the last mark write).
			if (!sameCounts(counters, this.stored?.counters)) this.storeStats();
			if (this.superseded) throw this.superseded;
			const shown = lastTimestamp ?? this.stored?.lastTimestamp ?? null;
			return {
				ok: true,
				stats: { workerId, ...counters, lastTimestamp: shown, since: this.since },
			};
		} catch (error) {
			return failure(error);
		}
	}

	/** A span for a holder, if the worker ID is free (`no_free_worker_id` if not). */
	async acquireLease(workerId: number, ask: LeaseAsk): Promise<SpanResult> {
		return this.spanAnswer(workerId, (keeper) => keeper.acquire(ask));
	}

	/** The lease whose leaseId hashes to `leaseHash`, its span moved on; else `lease_lost`. */
	async renewLease(workerId: number, leaseHash: string): Promise<SpanResult> {
		return this.spanAnswer(workerId, (keeper) => keeper.renew(leaseHash));
	}

	/** Frees the worker ID at once (the mark stays above the span); else `lease_lost`. */
	async releaseLease(workerId: number, leaseHash: string): Promise<ReleaseResult> {
		try {
			const answer = await (await this.keeperFor(workerId)).release(leaseHash);
			return answer.ok ? { ok: true } : failure(answer.refusal);
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

	/**
	 * Stores a lease book: the record and the mark (`to - 1` or more, so even a version
	 * without leases issues only above the span; a release leaves it), and with the first span
	 * the layout marked "with leases", which versions without leases refuse to issue
	 * under. The stats are left alone (their mark is older; the span explains the
	 * newer one). Synchronous writes with no await between them, committed together;
	 * the output gate holds the answer until they are durable, so no holder ever sees
	 * a span storage might lose (developers.cloudflare.com/durable-objects/reference/glossary/,
	 * "output gate").
	 */
	private storeLease(book: LeaseBook): void {
		const kv = this.ctx.storage.kv;
		const written = this.writeIfOwner(() => {
			kv.put(LEASE_KEY, book.lease);
			if (kv.get<number>(MARK_KEY) !== book.mark) kv.put(MARK_KEY, book.mark);
			if (!this.layoutLeased) kv.put(LAYOUT_KEY, withLeases(this.fingerprint));
		});
		// Another instance took over: it read the mark before this span; grant nothing.
		if (!written) throw this.superseded;
		this.layoutLeased = true;
	}

	/** Stores the counters as they are now, with the stored mark and lease (while this life owns the storage). */
	private storeStats(): void {
		const { keeper, stored } = this;
		if (!keeper) return;
		const { lastTimestamp, ...counters } = keeper.generator.stats();
		this.writeIfOwner(() =>
			this.writeStats({
				mark: stored?.mark,
				aheadMs: stored?.aheadMs ?? 0,
				since: this.since,
				counters,
				lastTimestamp: lastTimestamp ?? stored?.lastTimestamp ?? null,
			}),
		);
	}

	/**
	 * Runs `write` in one transaction with the check that the storage still holds this
	 * life's token; false when another instance has taken over since (this one then
	 * refuses every call, and says so once in the log).
	 */
	private writeIfOwner(write: () => void): boolean {
		if (this.superseded) return false;
		const { kv } = this.ctx.storage;
		const owner = this.transaction(() => {
			if (kv.get<string>(LIFE_KEY) !== this.life) return false;
			write();
			return true;
		});
		if (!owner) this.supersede();
		return owner;
	}

	/**
	 * `storage.transactionSync(work)`. SQLite refuses a transaction while another
	 * process holds the database (SQLITE_BUSY): only a second dev server on the same
	 * state directory does that, so it is `unavailable` for now, not a bug.
	 */
	private transaction<T>(work: () => T): T {
		try {
			return this.ctx.storage.transactionSync(work);
		} catch (error) {
			if (error instanceof Error && error.message.includes("SQLITE_BUSY")) {
				throw serviceError(
					"unavailable",
					"this worker ID's storage is locked by another process (two dev servers on one state directory?); retry shortly",
					1,
				);
			}
			throw error;
		}
	}

	private supersede(): void {
		const workerId = this.keeper?.generator.workerId;
		this.superseded = serviceError(
			"unavailable",
			`worker ID ${workerId}'s object was taken over by another live instance of it (two dev servers on one state directory?); this one issues no more IDs`,
			1,
		);
		console.error(
			JSON.stringify({
				object: "SnowflakeWorker",
				workerId,
				event: "superseded",
				message:
					"another live instance of this worker ID's object started on the same storage; this one refuses every call from now on (locally: two wrangler dev servers share one --persist-to directory)",
			}),
		);
	}

	private writeStats(record: StoredStats): void {
		this.ctx.storage.kv.put(STATS_KEY, record);
		this.stored = record;
		this.markWritten = false;
	}

	/**
	 * The layout the namespace's worker IDs issue under, as held by the object named
	 * NAMESPACE_LAYOUT_NAME (an instance of this class): `fingerprint` if none yet.
	 */
	async claimLayout(fingerprint: string): Promise<string> {
		const kv = this.ctx.storage.kv;
		const held = kv.get<string>(LAYOUT_KEY);
		if (held !== undefined) return held;
		kv.put(LAYOUT_KEY, fingerprint);
		return fingerprint;
	}

	/** The keeper, made on first use (checking the namespace's layout once in a worker ID's life). */
	private keeperFor(workerId: number): LeaseKeeper | Promise<LeaseKeeper> {
		if (this.superseded) throw this.superseded;
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
		const kv = this.ctx.storage.kv;
		const fingerprint = layout.fingerprint();
		const stored = storedLayout(kv.get<string>(LAYOUT_KEY));
		if (kv.get<string>(CHECKED_KEY) !== (stored?.fingerprint ?? fingerprint)) {
			await this.checkNamespaceLayout(workerId, stored?.fingerprint, fingerprint);
		}
		// IDs issued under another layout could collide with this one's: refuse.
		if (stored !== undefined && stored.fingerprint !== fingerprint) {
			throw storedLayoutMismatch(workerId, stored.fingerprint, fingerprint);
		}
		this.layoutLeased = stored?.leased ?? false;
		this.fingerprint = fingerprint;
		// The mark and lease are read, and this life's token written, in one transaction.
		const life = crypto.randomUUID();
		const { mark, saved, lease } = this.transaction(() => {
			const read = {
				mark: kv.get<number>(MARK_KEY),
				saved: kv.get<StoredStats>(STATS_KEY),
				lease: kv.get<LeaseRecord>(LEASE_KEY),
			};
			kv.put(LIFE_KEY, life);
			return read;
		});
		this.life = life;
		// Stats written with another mark are stale (a version without them wrote since): start
		// over. Unless a lease's span explains the mark: lease writes leave the stats alone.
		const spanMark = lease !== undefined && mark === lease.to - 1 && (saved?.mark ?? -1) <= mark;
		const current = saved !== undefined && (saved.mark === mark || spanMark) ? saved : undefined;
		this.since = current?.since ?? new Date(this.clock.now()).toISOString();
		const restoredLeaseMs =
			mark === undefined ? undefined : (current?.aheadMs ?? LEGACY_MAX_LEASE_MS);
		this.stored = current ?? {
			mark,
			aheadMs: restoredLeaseMs ?? 0,
			since: this.since,
			counters: { ...NO_COUNTS },
		};
		const keeper: LeaseKeeper = new LeaseKeeper({
			generator: {
				layout,
				workerId,
				clock: { now: () => this.clock.now(), sleep: (ms) => this.clock.sleep(ms) },
				maxBackwardMs: config.maxClockBackwardMs,
				maxBorrowMs: config.maxBorrowMs,
				maxWaitMs: config.maxWaitMs,
				leaseMs: config.leaseMs,
				restoredMark: mark,
				restoredLeaseMs,
				restoredCounters: current?.counters,
				// Synchronous writes, committed together; the output gate holds every response
				// until they are durable. The stats ride along: no write of their own.
				persistMark: (tick, leaseMs) => {
					const { lastTimestamp, ...counters } = keeper.generator.stats();
					// This write is the one about to be counted.
					counters.leaseWrites++;
					const written = this.writeIfOwner(() => {
						kv.put(MARK_KEY, tick);
						this.writeStats({
							mark: tick,
							aheadMs: leaseMs,
							since: this.since,
							counters,
							lastTimestamp: lastTimestamp ?? this.stored?.lastTimestamp ?? null,
						});
					});
					// Another instance took over: no ID above the stored mark, ever.
					if (!written) throw this.superseded;
					this.markWritten = true;
				},
			},
			spanMs: config.leaseSpanMs,
			graceMs: config.leaseGraceMs,
			restoredLease: lease,
			persistLease: (book) => this.storeLease(book),
			sameHash: sameLeaseHash,
		});
		this.keeper = keeper;
		return keeper;
	}

	/**
	 * Compares this worker ID's layout (the stored one, else the configured one) with
	 * the namespace's, claiming it for the namespace when the namespace holds none: so
	 * after an upgrade from a version without it, the first worker ID to start records
	 * the layout its IDs were issued under, and every later one, used or not, is
	 * compared with that. Equal: both are stored, and never compared again.
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
		const kv = this.ctx.storage.kv;
		// A stored layout stays as it is: it may be marked "with leases" (./layout-guard.ts).
		if (stored === undefined) kv.put(LAYOUT_KEY, own);
		kv.put(CHECKED_KEY, own);
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

function sameCounts(a: SnowflakeCounters, b: SnowflakeCounters | undefined): boolean {
	if (!b) return false;
	for (const key of Object.keys(a) as (keyof SnowflakeCounters)[])
		if (a[key] !== b[key]) return false;
	return true;
}

function failure(error: unknown): ObjectFailure {
	if (error instanceof IdError) {
		const { startsInMs } = error as { startsInMs?: number };
		return {
			ok: false,
			code: error.code as ServiceErrorCode,
			detail: error.detail,
			retryAfterSeconds: error.retryAfterSeconds,
			...(startsInMs === undefined ? {} : { startsInMs }),
		};
	}
	throw error;
}
