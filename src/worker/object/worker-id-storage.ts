/**
 * A worker ID's records in its Snowflake object's storage (./snowflake-worker.ts): the
 * high-water mark, the stats, the last lease and the layout, and the life token
 * that guards every write after a start. The object decides what to write; this
 * module knows the keys, reads a new life's starting point in one transaction, and
 * writes only while the storage still holds this life's token.
 *
 *   const storage = new WorkerIdStorage(ctx.storage, workerId);
 *   const restored = storage.begin(fingerprint, leased, now);  // the mark, the lease, the counts
 *   storage.writeMark(tick, leaseMs, generator.stats());  // or throws `unavailable`: taken over
 */
import type { IdError } from "../../ids/errors";
import type { LeaseBook, LeaseRecord } from "../../ids/leases/span-rules";
import {
	NO_COUNTS,
	type SnowflakeCounters,
	type SnowflakeStats,
} from "../../ids/snowflake/generator";
import { type ServiceErrorCode, serviceError } from "../errors";
import { storedLayout, withLeases } from "./layout-guard";

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
 * the mark ends (its own counts), a second after a call that left them unstored (one
 * write for all calls of that second), before the minute alarm reports them, and
 * before a stats read is answered if counts moved.
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

/** What a new life starts from. */
export interface Restored {
	mark: number | undefined;
	/** How far the mark may lead the clock; undefined without a mark. */
	leaseMs: number | undefined;
	/** The counts stored with the mark; undefined when there are none, or they are stale. */
	counters: SnowflakeCounters | undefined;
	lease: LeaseRecord | undefined;
}

/** The layout as this worker ID's storage holds it, read before a life begins. */
export function storedLayoutOf(storage: DurableObjectStorage) {
	const { kv } = storage;
	return {
		stored: storedLayout(kv.get<string>(LAYOUT_KEY)),
		checked: kv.get<string>(CHECKED_KEY),
	};
}

/** The counts as last stored (a read, for a life that has not begun): undefined before any. */
export function storedCounters(storage: DurableObjectStorage): SnowflakeCounters | undefined {
	return storage.kv.get<StoredStats>(STATS_KEY)?.counters;
}

/**
 * Records that the namespace's layout is `own` (this worker ID's): never compared
 * again. `storeLayout`: also this worker ID's layout, when it has none stored (a
 * stored one stays as it is: it may be marked "with leases", ./layout-guard.ts).
 */
export function storeLayoutChecked(
	storage: DurableObjectStorage,
	own: string,
	storeLayout: boolean,
): void {
	if (storeLayout) storage.kv.put(LAYOUT_KEY, own);
	storage.kv.put(CHECKED_KEY, own);
}

/** The namespace's layout, held by the object named NAMESPACE_LAYOUT_NAME: `fingerprint` if none yet. */
export function claimNamespaceLayout(storage: DurableObjectStorage, fingerprint: string): string {
	const held = storage.kv.get<string>(LAYOUT_KEY);
	if (held !== undefined) return held;
	storage.kv.put(LAYOUT_KEY, fingerprint);
	return fingerprint;
}

/** One life's view of a worker ID's storage: what it began from, and its guarded writes. */
export class WorkerIdStorage {
	/** Set once another instance took over the storage: every write is refused from then on. */
	superseded: IdError<ServiceErrorCode> | undefined;
	/** When counting began (ISO): stored with the counts. */
	since = "";
	/** A mark was written since the stats were last stored: store them when its call ends. */
	markWritten = false;
	/** The stats record as last stored (the mark and lease it names are the stored ones). */
	private stored: StoredStats | undefined;
	/** The stored layout says "with leases" (written with the first span). */
	private layoutLeased = false;
	private fingerprint = "";
	/** This life's token in storage (LIFE_KEY). */
	private life = "";

	constructor(
		private readonly storage: DurableObjectStorage,
		private readonly workerId: number,
	) {}

	/**
	 * Begins this life under the layout `fingerprint` (`leased`: stored marked "with
	 * leases"): reads the mark, the stats and the lease, and writes this life's token,
	 * in one transaction. Stats written with another mark are stale (a version without
	 * them wrote since) and start over, unless the lease's span explains the mark
	 * (lease writes leave the stats alone). `nowMs` starts the count when they do.
	 */
	begin(fingerprint: string, leased: boolean, nowMs: number): Restored {
		const { kv } = this.storage;
		this.fingerprint = fingerprint;
		this.layoutLeased = leased;
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
		const spanMark = lease !== undefined && mark === lease.to - 1 && (saved?.mark ?? -1) <= mark;
		const current = saved !== undefined && (saved.mark === mark || spanMark) ? saved : undefined;
		this.since = current?.since ?? new Date(nowMs).toISOString();
		const leaseMs = mark === undefined ? undefined : (current?.aheadMs ?? LEGACY_MAX_LEASE_MS);
		this.stored = current ?? {
			mark,
			aheadMs: leaseMs ?? 0,
			since: this.since,
			counters: { ...NO_COUNTS },
		};
		return { mark, leaseMs, counters: current?.counters, lease };
	}

	/** The last ID's time as stored, shown until this life issues its first ID. */
	get storedLastTimestamp(): number | null {
		return this.stored?.lastTimestamp ?? null;
	}

	/** Whether `counters` differ from the stored ones. */
	countsMoved(counters: SnowflakeCounters): boolean {
		const stored = this.stored?.counters;
		if (!stored) return true;
		for (const key of Object.keys(counters) as (keyof SnowflakeCounters)[])
			if (counters[key] !== stored[key]) return true;
		return false;
	}

	/**
	 * Stores the mark `tick`, written for a lease of `leaseMs`, with the stats (`stats`:
	 * the generator's before this write, which it counts). Synchronous writes, committed
	 * together; the output gate holds every response until they are durable. Throws
	 * `unavailable` when another instance took over: no ID above the stored mark, ever.
	 */
	writeMark(tick: number, leaseMs: number, stats: SnowflakeStats): void {
		const { lastTimestamp, ...counters } = stats;
		counters.leaseWrites++;
		this.guarded(() => {
			this.storage.kv.put(MARK_KEY, tick);
			this.writeStats({
				mark: tick,
				aheadMs: leaseMs,
				since: this.since,
				counters,
				lastTimestamp: lastTimestamp ?? this.storedLastTimestamp,
			});
		});
		this.markWritten = true;
	}

	/**
	 * Stores a lease book: the record and the mark (`to - 1` or more, so even a version
	 * without leases issues only above the span; a release leaves it), and with the first span
	 * the layout marked "with leases", which versions without leases refuse to issue
	 * under. The stats are left alone (their mark is older; the span explains the
	 * newer one). Synchronous writes with no await between them, committed together;
	 * the output gate holds the answer until they are durable, so no holder ever sees
	 * a span storage might lose (developers.cloudflare.com/durable-objects/reference/glossary/,
	 * "output gate"). Throws `unavailable` when another instance took over: it read the
	 * mark before this span; grant nothing.
	 */
	writeLease(book: LeaseBook): void {
		const { kv } = this.storage;
		this.guarded(() => {
			kv.put(LEASE_KEY, book.lease);
			if (kv.get<number>(MARK_KEY) !== book.mark) kv.put(MARK_KEY, book.mark);
			if (!this.layoutLeased) kv.put(LAYOUT_KEY, withLeases(this.fingerprint));
		});
		this.layoutLeased = true;
	}

	/** Stores `stats` with the stored mark and lease (while this life owns the storage). */
	storeStats(stats: SnowflakeStats): void {
		const { lastTimestamp, ...counters } = stats;
		const { stored } = this;
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

	private writeStats(record: StoredStats): void {
		this.storage.kv.put(STATS_KEY, record);
		this.stored = record;
		this.markWritten = false;
	}

	/** `writeIfOwner`, throwing `unavailable` when another instance took over. */
	private guarded(write: () => void): void {
		if (!this.writeIfOwner(write)) throw this.superseded;
	}

	/**
	 * Runs `write` in one transaction with the check that the storage still holds this
	 * life's token; false when another instance has taken over since (this one then
	 * refuses every call, and says so once in the log).
	 */
	private writeIfOwner(write: () => void): boolean {
		if (this.superseded) return false;
		const { kv } = this.storage;
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
			return this.storage.transactionSync(work);
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
		const { workerId } = this;
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
}
