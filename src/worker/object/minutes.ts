/**
 * A worker ID's object's minute bookkeeping (./snowflake-worker.ts): its calls counted
 * by minute (the core's MinuteTally), the alarm just past each active minute's end
 * that stores them (./history.ts) and builds the push to the fleet catalog,
 * and what the catalog was last told about the lease. Storage writes: when a minute
 * opens, its record and its alarm (one transaction); when the alarm fires, the closed
 * minutes and the next alarm (one transaction). Refusals of a minute not yet stored
 * are lost with the instance; its other counts come back with the mark's.
 *
 *   const minutes = new WorkerIdMinutes(ctx.storage, history, generator.stats(), now, 7);
 *   minutes.enter(generator.stats());              // before each call
 *   const report = minutes.close(workerId, generator.stats(), keeper.status(), storage);
 */
import type { LeaseView } from "../../ids/leases/span-rules";
import { type MinuteCounts, MinuteTally, type OpenMinute } from "../../ids/minute-tally";
import type { SnowflakeStats } from "../../ids/snowflake/generator";
import type { WorkerIdReport } from "./catalog-tables";
import type { ObjectHistory } from "./history";
import { untilMinuteAlarm, workerIdReportOffset } from "./minute-alarm";

/**
 * The open minute and the counters it began at (`OpenMinute`), written with its alarm
 * (one write): an object evicted before the alarm fires (idle a few seconds) starts a
 * new life that closes the minute from it and the counts stored with the mark.
 */
const OPEN_MINUTE_KEY = "openMinute";

export class WorkerIdMinutes {
	private readonly tally: MinuteTally;
	/** An alarm is set (by this life). */
	private alarmSet = false;
	/** The lease state the catalog was last told (by this life). */
	private leaseTold: LeaseView["state"] | undefined;

	constructor(
		private readonly storage: DurableObjectStorage,
		private readonly history: ObjectHistory,
		counters: SnowflakeStats,
		private readonly now: () => number,
		/** Its alarm's offset in the minute comes from it. */
		private readonly workerId: number,
	) {
		this.tally = new MinuteTally(counters, storage.kv.get<OpenMinute>(OPEN_MINUTE_KEY));
	}

	/** Before a call: opens its minute (stored, with its alarm, when it is a new one). */
	enter(counters: SnowflakeStats): void {
		if (!this.tally.enter(this.now(), counters)) return;
		this.storage.kv.put(OPEN_MINUTE_KEY, this.tally.openState);
		this.setAlarm();
	}

	refused(code: string): void {
		this.tally.refused(code, this.now());
	}

	/** A lease granted (and told): its state is pushed each minute while it lives. */
	leaseGranted(): void {
		this.leaseTold = "held";
		this.setAlarm();
	}

	leaseReleased(): void {
		this.leaseTold = "free";
	}

	/** The minutes not stored yet, the open one as it stands. */
	unsaved(counters: SnowflakeStats): MinuteCounts[] {
		return this.tally.unsaved(counters);
	}

	/**
	 * The alarm fired: stores the closed minutes, sets the next alarm while the worker
	 * ID is active or its lease lives, and answers the push for the catalog, if there
	 * is news (closed minutes, a live lease, or a lease that ended untold).
	 */
	close(
		workerId: number,
		stats: SnowflakeStats,
		lease: LeaseView,
		stored: { since: string; storedLastTimestamp: number | null },
	): WorkerIdReport | undefined {
		this.alarmSet = false;
		const now = this.now();
		const minutes = this.tally.takeClosed(now, stats);
		this.history.write(minutes, now);
		if (minutes.length > 0 && this.tally.openMinute === undefined) {
			this.storage.kv.delete(OPEN_MINUTE_KEY);
		}
		const leaseLive = lease.state !== "free";
		if (this.tally.openMinute !== undefined || leaseLive) this.setAlarm();
		const leaseNews = lease.fromMs !== null && (leaseLive || this.leaseTold !== "free");
		if (minutes.length === 0 && !leaseNews) return undefined;
		this.leaseTold = lease.state;
		return {
			workerId,
			counts: {
				issued: stats.issued,
				requests: stats.requests,
				clockRegressions: stats.clockRegressions,
				waits: stats.rolloverWaits,
				lastTimestamp: stats.lastTimestamp ?? stored.storedLastTimestamp,
				since: stored.since,
			},
			minutes,
			lease:
				leaseNews && lease.fromMs !== null && lease.toMs !== null
					? { fromMs: lease.fromMs, toMs: lease.toMs, state: lease.state }
					: undefined,
		};
	}

	/** An alarm just past the current minute's end, unless this life set one already. */
	private setAlarm(): void {
		if (this.alarmSet) return;
		const now = this.now();
		if (!Number.isFinite(now)) return;
		// Scheduled on the platform's clock; the minute is the minute clock's. At the worker
		// ID's own offset in the minute: reports spread over it (./minute-alarm.ts).
		void this.storage.setAlarm(
			Date.now() + untilMinuteAlarm(now, workerIdReportOffset(this.workerId)),
		);
		this.alarmSet = true;
	}
}
