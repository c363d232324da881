/**
 * The fleet catalog: a Durable Object class (SQLite) that lists what no single worker
 * ID's object knows, in three roles by name (./catalog-calls.ts): the root (leases,
 * worker IDs' counts, the fleet's minutes, the shards' summaries), the directory (the
 * names created, and how many each shard holds) and CATALOG_SHARDS shards (the
 * sequences' counts, each in the shard of its name's hash). Objects write it (an
 * acquire, a release, a report at most once a minute at their own offset in it), never
 * on the issuing path, and a failed write never fails their own operation. The
 * operations routes read it with a bounded number of requests (docs/SCALING.md).
 *
 *   await rootStub(env).leases();                     // { leases: [...], serverNowMs }
 *   await shardStub(env, "orders").reportSequence(r); // then its summary goes to the root
 */
import { DurableObject } from "cloudflare:workers";
import type { MinuteCounts } from "../../ids/minute-tally";
import type { FleetLeases, SequenceCounts, SequenceSettings } from "../../wire/operations";
import { configFrom, DEFAULT_METRICS_SEQUENCES } from "../config/config";
import { catalogWrite, directoryWrite } from "./catalog-calls";
import type { RetiredSequence, SequenceReport } from "./catalog-sequences";
import type { ShardSummary } from "./catalog-summaries";
import type { CatalogTables, LeaseNote, WorkerIdReport } from "./catalog-tables";
import { shardOf, untilShardSummary } from "./minute-alarm";
import { catalogModules } from "./object-parts";
import type { MetricsSnapshot, RootPage } from "./object-protocol";

/** A shard remembers its number (the shard of the names it hears about) for its alarm. */
const SHARD_KEY = "shard";
const HOUR_MS = 3_600_000;

export class FleetCatalog extends DurableObject<Env> {
	/** The time source; tests replace it (runInDurableObject). */
	now: () => number = () => Date.now();
	private tables: CatalogTables | undefined;
	/** A shard's summary alarm is set (by this life). */
	private summaryDue = false;

	// The root's part.

	async noteLease(lease: LeaseNote): Promise<void> {
		(await this.open()).noteLease(lease, this.now());
	}

	async dropLease(workerId: number, fromMs: number): Promise<void> {
		(await this.open()).dropLease(workerId, fromMs);
	}

	async report(report: WorkerIdReport): Promise<void> {
		(await this.open()).report(report, this.now());
	}

	/** A shard's summary, sent once a minute after it took reports. */
	async shardSummary(shard: number, summary: ShardSummary): Promise<void> {
		(await this.open()).summaries.store(shard, summary, this.now());
	}

	async leases(): Promise<FleetLeases> {
		return { leases: (await this.open()).leases(), serverNowMs: this.now() };
	}

	/** Up to `limit` worker IDs after `after` (in ID order), and the fleet's totals. */
	async statsPage(after: number | null, limit: number): Promise<RootPage> {
		const tables = await this.open();
		const page = tables.workerIdsAfter(after, limit);
		return { ...page, totals: tables.totals(), serverNowMs: this.now() };
	}

	/** What `/metrics` shows: totals, every worker ID, leases, the `sequences` busiest sequences. */
	async metricsSnapshot(sequences: number): Promise<MetricsSnapshot> {
		const tables = await this.open();
		return {
			leases: tables.leases(),
			workerIds: tables.workerIdsAfter(null, Number.MAX_SAFE_INTEGER).workerIds,
			sequences: tables.summaries.busiest(sequences),
			totals: tables.totals(),
			serverNowMs: this.now(),
		};
	}

	/** The fleet's minutes from `sinceMs` on, oldest first. */
	async fleetHistory(sinceMs: number): Promise<MinuteCounts[]> {
		return (await this.open()).fleetHistory(sinceMs);
	}

	// The directory's part.

	/** A sequence created, or found by a create again (a no-op then): listed from now on. */
	async registerSequence(
		name: string,
		settings: SequenceSettings,
		createdAtMs: number,
	): Promise<void> {
		const tables = await this.open();
		if (tables.sequences.register(name, settings, createdAtMs)) {
			tables.shardSizes.added(shardOf(name));
		}
	}

	/** Up to `limit` sequence names after `after` (starting with `prefix`), in name order, and whether more follow. */
	async sequenceNames(
		after: string | null,
		limit: number,
		prefix = "",
	): Promise<{ names: string[]; more: boolean }> {
		return (await this.open()).sequences.page(after, limit, prefix);
	}

	/** A sequence retired: its name listed nowhere from now on, whatever creates or reports arrive late. */
	async retireSequence(retired: RetiredSequence): Promise<void> {
		const tables = await this.open();
		if (tables.sequences.retire(retired)) tables.shardSizes.removed(shardOf(retired.name));
	}

	/** How many names each shard holds, by shard. */
	async shardSizes(): Promise<number[]> {
		const tables = await this.open();
		return tables.shardSizes.sizes(() => tables.sequences.names());
	}

	// A shard's part.

	/** A sequence created: its row in its shard (with no counts until its first report). */
	async addSequence(name: string, settings: SequenceSettings, createdAtMs: number): Promise<void> {
		(await this.open()).sequences.register(name, settings, createdAtMs);
		this.summarySoon(name);
	}

	/**
	 * A sequence's counts, pushed by its object at most once a minute. A name heard of
	 * first by a report (its create's catalog writes failed) is given to the directory.
	 */
	async reportSequence(report: SequenceReport): Promise<void> {
		const { sequences } = await this.open();
		const known = sequences.has(report.name);
		sequences.report(report, this.now());
		this.summarySoon(report.name);
		if (known) return;
		const { name, settings, createdAtMs } = report;
		await directoryWrite(this.env, "registerSequence", (directory) =>
			directory.registerSequence(name, settings, createdAtMs),
		);
	}

	/** A sequence retired: its row gone from its shard, its final counts kept in the shard's totals. */
	async retireInShard(retired: RetiredSequence): Promise<void> {
		(await this.open()).sequences.retire(retired);
		this.summarySoon(retired.name);
	}

	/** Up to `limit` of this shard's sequences after `after`, in name order, with their counts. */
	async sequencesPage(after: string | null, limit: number): Promise<SequenceCounts[]> {
		return (await this.open()).sequences.countsAfter(after, limit);
	}

	/** A shard's alarm: its summary to the root. Never throws: a failed one is logged, the next report sends again. */
	override async alarm(): Promise<void> {
		this.summaryDue = false;
		const shard = this.ctx.storage.kv.get<number>(SHARD_KEY);
		if (shard === undefined) return;
		const { sequences } = await this.open();
		const summary: ShardSummary = {
			...sequences.totals(),
			busiest: sequences.busiest(this.now() - HOUR_MS, this.metricsSequences()),
		};
		await catalogWrite(this.env, "shardSummary", (root) => root.shardSummary(shard, summary));
	}

	/** The shard's summary at its instant of this minute (or the next), unless this life set it already. */
	private summarySoon(name: string): void {
		if (this.summaryDue) return;
		this.summaryDue = true;
		const shard = shardOf(name);
		this.ctx.storage.kv.put(SHARD_KEY, shard);
		void this.ctx.storage.setAlarm(Date.now() + untilShardSummary(this.now(), shard));
	}

	private metricsSequences(): number {
		try {
			return configFrom(this.env).metricsSequences;
		} catch {
			return DEFAULT_METRICS_SEQUENCES; // a bad config is refused where it is read by a route
		}
	}

	private async open(): Promise<CatalogTables> {
		if (this.tables) return this.tables;
		const { CatalogTables } = await catalogModules();
		this.tables ??= new CatalogTables(this.ctx.storage.sql);
		return this.tables;
	}
}
