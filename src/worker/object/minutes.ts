/**
 * A worker ID's object's minute bookkeeping (./snowflake-worker.ts): its calls counted
 * by minute (the core's MinuteTally), the alarm just past each active minute's end
 * that reports to the fleet catalog, and what the catalog is known to hold about the
 * lease. Storage writes: when a minute opens, the minutes it closed (./history.ts), its
 * record and its alarm (one commit); the open minute's refusals with the counts'
 * once-a-second store; when the alarm fires, the minutes it closed and the next alarm.
 * A closed minute stays in `UNREPORTED_KEY` until a report carrying it succeeds, so a
 * failed report, an eviction or a crash delays it, never loses it.
 *
 *   const minutes = new WorkerIdMinutes(ctx.storage, history, generator.stats(), now, 7);
 *   minutes.enter(generator.stats());              // before each call
 *   const report = minutes.close(workerId, generator.stats(), keeper.status(), storage, spanMs);
 *   minutes.reported(report, await catalogWrite(…)); // kept for the next alarm on failure
 */
import type { LeaseView } from "../../ids/leases/span-rules";
import { type MinuteCounts, MinuteTally, type OpenMinute } from "../../ids/minute-tally";
import type { SnowflakeCounters, SnowflakeStats } from "../../ids/snowflake/generator";
import type { WorkerIdReport } from "./catalog-tables";
import { HISTORY_MS, mergeMinutes, type ObjectHistory } from "./history";
import { untilMinuteAlarm, workerIdReportOffset } from "./minute-alarm";

/**
 * The open minute, the counters it began at and its refusals (`OpenMinute`), written
 * with its alarm: an object evicted before the alarm fires (idle a few seconds)
 * starts a new life that closes the minute from it and the counts stored since.
 */
const OPEN_MINUTE_KEY = "openMinute";
/** Closed minutes (stored in the history too) no report has carried yet, oldest first. */
const UNREPORTED_KEY = "unreportedMinutes";

/** What the catalog holds about the lease, as far as this life knows. */
type LeaseTold = LeaseView["state"] | undefined;

export class WorkerIdMinutes {
	private readonly tally: MinuteTally;
	/** An alarm is set (by this life). */
	private alarmSet = false;
	/** The lease state a successful write last gave the catalog (this life's knowledge). */
	private leaseTold: LeaseTold;
	/** A refusal was counted since the open minute was last stored. */
	private refusalsMoved = false;

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

	/**
	 * Before a call: opens its minute when it is a new one, storing the minutes that
	 * closed, its record and its alarm (one commit, once a minute at most).
	 */
	enter(counters: SnowflakeStats): void {
		const now = this.now();
		if (!this.tally.enter(now, counters)) return;
		this.keepClosed(this.tally.takeClosed(now, counters), now);
		this.storeOpen();
		this.setAlarm();
	}

	refused(code: string): void {
		this.tally.refused(code, this.now());
		this.refusalsMoved = true;
	}

	/** Refusals counted since the open minute was stored: the counts' next store writes it. */
	get openMoved(): boolean {
		return this.refusalsMoved;
	}

	/** Stores the open minute as it stands (its refusals with it). */
	storeOpen(): void {
		const open = this.tally.openState;
		if (open) this.storage.kv.put(OPEN_MINUTE_KEY, open);
		else this.storage.kv.delete(OPEN_MINUTE_KEY);
		this.refusalsMoved = false;
	}

	/** A lease granted: its state is reported each minute while it lives. */
	leaseGranted(): void {
		this.leaseTold = undefined;
		this.setAlarm();
	}

	/** A lease released: the next alarm reports it gone (the release's own tell may fail). */
	leaseReleased(): void {
		this.leaseTold = undefined;
		this.setAlarm();
	}

	/** The open minute as it stands, not stored as a row yet. */
	unsaved(counters: SnowflakeStats): MinuteCounts[] {
		return this.tally.unsaved(counters);
	}

	/**
	 * The alarm fired: stores the closed minutes, sets the next alarm while the worker
	 * ID is active or its lease lives, and answers the report for the catalog, if there
	 * is news (minutes not reported yet, a live lease, or one the catalog may still list).
	 */
	close(
		workerId: number,
		stats: SnowflakeStats,
		lease: LeaseView,
		stored: { since: string; storedLastTimestamp: number | null },
		spanMs: number,
	): WorkerIdReport | undefined {
		this.alarmSet = false;
		const now = this.now();
		const closed = this.tally.takeClosed(now, stats);
		if (closed.length > 0) {
			this.keepClosed(closed, now);
			if (this.tally.openMinute === undefined) this.storeOpen();
		}
		const leaseLive = lease.state !== "free";
		if (this.tally.openMinute !== undefined || leaseLive) this.setAlarm();
		const minutes = this.storage.kv.get<MinuteCounts[]>(UNREPORTED_KEY) ?? [];
		const leaseNews = lease.fromMs !== null && (leaseLive || this.leaseTold !== "free");
		if (minutes.length === 0 && !leaseNews) return undefined;
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
					? {
							fromMs: lease.fromMs,
							toMs: lease.toMs,
							state: lease.state,
							holder: lease.holder,
							spanMs,
						}
					: undefined,
		};
	}

	/**
	 * The report's write ended: done, its minutes leave the unreported ones and the
	 * lease's state is known told; failed, the next alarm (a minute on) carries it again.
	 */
	reported(report: WorkerIdReport, done: boolean): void {
		if (!done) {
			this.setAlarm();
			return;
		}
		if (report.minutes.length > 0) {
			// Minutes closed while the report was on its way stay for the next one.
			const left = (this.storage.kv.get<MinuteCounts[]>(UNREPORTED_KEY) ?? []).slice(
				report.minutes.length,
			);
			if (left.length > 0) this.storage.kv.put(UNREPORTED_KEY, left);
			else this.storage.kv.delete(UNREPORTED_KEY);
		}
		this.leaseTold = report.lease?.state ?? "free";
	}

	/** Closed minutes into the history rows and the unreported ones (a day of them at most). */
	private keepClosed(closed: MinuteCounts[], now: number): void {
		if (closed.length === 0) return;
		this.history.write(closed, now);
		const held = this.storage.kv.get<MinuteCounts[]>(UNREPORTED_KEY) ?? [];
		const kept = [...held, ...closed].filter((m) => !(m.minute < now - HISTORY_MS));
		this.storage.kv.put(UNREPORTED_KEY, kept);
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

/**
 * The open minute as an earlier life left it in storage (a read writes nothing): its
 * counts are the stored counters' difference from its base. For a history read in
 * a life that has not started its generator.
 */
export function storedOpenMinute(
	storage: DurableObjectStorage,
	counters: SnowflakeCounters | undefined,
	sinceMs: number,
): MinuteCounts[] {
	const open = storage.kv.get<OpenMinute>(OPEN_MINUTE_KEY);
	if (!open || !counters) return [];
	return mergeMinutes(new MinuteTally(counters, open).unsaved(counters), sinceMs);
}
