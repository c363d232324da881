/**
 * What the lease tests share: Twitter's bits with epoch 0 (clock readings are
 * ticks), terms of a 30,000-tick span and a 2,000 ms grace, and a keeper for worker
 * ID 600 over an in-memory store that a restart reads back, as an object's storage.
 */
import type { Clock } from "../../src/ids/clock";
import { LeaseKeeper } from "../../src/ids/leases/keeper";
import type {
	LeaseBook,
	LeaseRecord,
	LeaseRuling,
	LeaseTerms,
} from "../../src/ids/leases/span-rules";
import { layout } from "./snowflake-setup";

export { layout };

export const SPAN_MS = 30_000;
export const GRACE_MS = 2_000;
export const terms: LeaseTerms = { layout, workerId: 600, spanMs: SPAN_MS, graceMs: GRACE_MS };

/** What an object stores: the mark (the generator's and the leases'), the lease record. */
export class MemoryStore {
	mark: number | undefined;
	lease: LeaseRecord | undefined;
	/** Every book persisted, in order. */
	readonly writes: LeaseBook[] = [];
	/** Set to make the next lease write store, then fail (an instance lost after storing). */
	failAfterNextWrite = false;
}

/** A keeper booted from `store` (a new life of the object), persisting back to it. */
export function bootKeeper(
	clock: Clock,
	store: MemoryStore,
	sameHash?: (a: string, b: string) => boolean,
): LeaseKeeper {
	return new LeaseKeeper({
		generator: {
			layout,
			workerId: 600,
			clock,
			maxBackwardMs: 1_000,
			maxBorrowMs: 5,
			leaseMs: 1_000,
			restoredMark: store.mark,
			random: () => 0,
			persistMark: (tick) => {
				store.mark = tick;
			},
		},
		spanMs: SPAN_MS,
		graceMs: GRACE_MS,
		restoredLease: store.lease,
		sameHash,
		persistLease: (book) => {
			store.mark = book.mark;
			store.lease = book.lease;
			store.writes.push(book);
			if (store.failAfterNextWrite) {
				store.failAfterNextWrite = false;
				throw new Error("the instance ended after storing");
			}
		},
	});
}

/** The book of a granted ruling (fails the test on a refusal). */
export function granted(ruling: LeaseRuling): LeaseBook {
	if (!ruling.ok) throw new Error(`refused: ${ruling.refusal.message}`);
	return ruling.book;
}

/** The refusal of a refused ruling (fails the test on a grant). */
export function refusal(ruling: LeaseRuling) {
	if (ruling.ok) throw new Error("granted, expected a refusal");
	return ruling.refusal;
}
