/**
 * What the objects load on first use (their rules and records), handed to them by
 * the entry (src/index.ts). The objects sit below the operations, yet their parts
 * share the build's one lazy chunk with the operations (../on-first-use.ts says why
 * one chunk): so the object layer never imports that loader; the entry, which knows
 * the build, gives it here once.
 *
 *   provideObjectParts(firstUse);                    // src/index.ts, at startup
 *   const { LeaseKeeper } = await objectModules();   // in an object, on first use
 */

/** The modules of the lazy chunk that the objects use. */
export interface ObjectParts {
	acquireBudget: typeof import("../../ids/leases/acquire-budget");
	leaseKeeper: typeof import("../../ids/leases/keeper");
	workerIdStorage: typeof import("./worker-id-storage");
	objectHistory: typeof import("./history");
	objectMinutes: typeof import("./minutes");
	sequenceBook: typeof import("./sequence-book");
	sequenceMinutes: typeof import("./sequence-minutes");
	catalogTables: typeof import("./catalog-tables");
}

let load: (() => Promise<ObjectParts>) | undefined;

/** Where the objects' parts come from: the entry's loader of the lazy chunk. */
export function provideObjectParts(loader: () => Promise<ObjectParts>): void {
	load = loader;
}

function parts(): Promise<ObjectParts> {
	if (!load) throw new Error("no loader of the objects' parts: src/index.ts provides it");
	return load();
}

/** What a sequence object needs once it is first called: its record, the sequence rules and its minutes. */
export async function sequenceObjectModules() {
	const { sequenceBook, sequenceMinutes } = await parts();
	return {
		SequenceBook: sequenceBook.SequenceBook,
		SequenceMinutes: sequenceMinutes.SequenceMinutes,
	};
}
/** What a Snowflake object needs once it starts: its rules (the core's LeaseKeeper) and its records. */
export async function objectModules() {
	const { acquireBudget, leaseKeeper, workerIdStorage, objectHistory, objectMinutes } =
		await parts();
	const { takeAcquire } = acquireBudget;
	const { LeaseKeeper } = leaseKeeper;
	const {
		WorkerIdStorage,
		claimNamespaceLayout,
		storedCounters,
		storedLayoutOf,
		storeLayoutChecked,
	} = workerIdStorage;
	return {
		LeaseKeeper,
		WorkerIdStorage,
		claimNamespaceLayout,
		storedCounters,
		storedLayoutOf,
		storeLayoutChecked,
		takeAcquire,
		WorkerIdMinutes: objectMinutes.WorkerIdMinutes,
		storedOpenMinute: objectMinutes.storedOpenMinute,
		ObjectHistory: objectHistory.ObjectHistory,
		mergeMinutes: objectHistory.mergeMinutes,
	};
}

/** What the fleet catalog needs once it is first asked: its tables. */
export async function catalogModules(): Promise<{
	CatalogTables: typeof import("./catalog-tables").CatalogTables;
}> {
	return { CatalogTables: (await parts()).catalogTables.CatalogTables };
}
