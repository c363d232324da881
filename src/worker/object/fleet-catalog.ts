/**
 * The fleet catalog: one Durable Object (SQLite, one instance, named CATALOG_NAME)
 * that lists what no single worker ID's object knows: who holds which worker ID,
 * each worker ID's counts, the fleet's minutes and the named sequences. The worker
 * IDs' objects write it (an acquire, a release, a push at most once a minute), never
 * on the issuing path, and a failed write never fails their own operation. The
 * operations routes read it: one request each, whatever the fleet's size.
 *
 *   const catalog = catalogStub(env);           // ./catalog-calls.ts
 *   await catalog.leases();                     // { leases: [...], serverNowMs }
 */
import { DurableObject } from "cloudflare:workers";
import type { MinuteCounts } from "../../ids/minute-tally";
import type { FleetLeases, SequenceSettings } from "../../wire/operations";
import type { RetiredSequence, SequenceReport } from "./catalog-sequences";
import type { CatalogTables, LeaseNote, WorkerIdReport } from "./catalog-tables";
import { catalogModules } from "./object-parts";
import type { CatalogSnapshot } from "./object-protocol";

export class FleetCatalog extends DurableObject<Env> {
	/** The time source; tests replace it (runInDurableObject). */
	now: () => number = () => Date.now();
	private tables: CatalogTables | undefined;

	async noteLease(lease: LeaseNote): Promise<void> {
		(await this.open()).noteLease(lease, this.now());
	}

	async dropLease(workerId: number, fromMs: number): Promise<void> {
		(await this.open()).dropLease(workerId, fromMs);
	}

	async report(report: WorkerIdReport): Promise<void> {
		(await this.open()).report(report, this.now());
	}

	/** A sequence created, or found by a create again (a no-op then): listed from now on. */
	async registerSequence(
		name: string,
		settings: SequenceSettings,
		createdAtMs: number,
	): Promise<void> {
		(await this.open()).sequences.register(name, settings, createdAtMs);
	}

	/** A sequence's counts, pushed by its object at most once a minute. */
	async reportSequence(report: SequenceReport): Promise<void> {
		(await this.open()).sequences.report(report, this.now());
	}

	/** A sequence retired: listed nowhere from now on, whatever reports arrive late. */
	async retireSequence(retired: RetiredSequence): Promise<void> {
		(await this.open()).sequences.retire(retired);
	}

	/** Up to `limit` sequence names after `after`, in name order, and whether more follow. */
	async sequenceNames(
		after: string | null,
		limit: number,
	): Promise<{ names: string[]; more: boolean }> {
		return (await this.open()).sequences.page(after, limit);
	}

	async leases(): Promise<FleetLeases> {
		return { leases: (await this.open()).leases(), serverNowMs: this.now() };
	}

	async snapshot(): Promise<CatalogSnapshot> {
		const tables = await this.open();
		return {
			leases: tables.leases(),
			workerIds: tables.workerIds(),
			sequences: tables.sequences.all(),
			serverNowMs: this.now(),
		};
	}

	/** The fleet's minutes from `sinceMs` on, oldest first. */
	async fleetHistory(sinceMs: number): Promise<MinuteCounts[]> {
		return (await this.open()).fleetHistory(sinceMs);
	}

	private async open(): Promise<CatalogTables> {
		if (this.tables) return this.tables;
		const { CatalogTables } = await catalogModules();
		this.tables ??= new CatalogTables(this.ctx.storage.sql);
		return this.tables;
	}
}
