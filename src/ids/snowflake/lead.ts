/**
 * How far ahead of the clock a Snowflake generator (generator.ts) may issue, and the
 * lease it stores with each mark: how far ahead a later life of its worker ID may.
 *
 * A tick may lead the clock by the borrowing bound (`maxBorrowMs`). After a restore,
 * the ticks up to the restored mark (plus what borrowing adds) may lead by the lease
 * the mark was written with: the earlier life may have issued up to the mark while
 * its clock read that much less, and this life goes on above it instead of waiting.
 */
import type { SnowflakeLayout } from "./layout";

export interface LeadOptions {
	/** The restored mark (a tick), if any. */
	restored: number | undefined;
	maxBorrowMs: number;
	/** This life's lease, in whole ticks. */
	leaseTicks: number;
	/** The lease the restored mark was written with, in ms. */
	restoredLeaseMs: number;
}

export class LeadLimits {
	private readonly layout: SnowflakeLayout;
	private readonly maxBorrowMs: number;
	private readonly ownLeaseMs: number;
	private readonly catchUpTick: number; // ticks up to it may lead by `restoreLeadMs`
	private readonly restoreLeadMs: number;
	private readonly restoredLeaseMs: number; // the lease the restored mark was written with

	constructor(layout: SnowflakeLayout, options: LeadOptions) {
		const { restored, maxBorrowMs } = options;
		this.layout = layout;
		this.maxBorrowMs = maxBorrowMs;
		this.ownLeaseMs = options.leaseTicks * layout.timeUnitMs;
		const borrowTicks = Math.floor(maxBorrowMs / layout.timeUnitMs);
		// Stryker disable next-line ConditionalExpression: without a mark it would be NaN, and tick <= NaN is false as tick <= -1 is
		this.catchUpTick = restored === undefined ? -1 : restored + 1 + borrowTicks;
		this.restoredLeaseMs = options.restoredLeaseMs;
		this.restoreLeadMs = this.restoredLeaseMs + maxBorrowMs + layout.timeUnitMs;
	}

	/** How far ahead of the clock tick `tick` may start and still be issued. */
	limitMs(tick: number): number {
		return tick <= this.catchUpTick ? this.restoreLeadMs : this.maxBorrowMs;
	}

	/**
	 * The lease stored with mark `mark` written at `now` (how far ahead a later life may
	 * borrow): this life's, in whole ticks; catching up after a restore, at most the restored
	 * lease (ticks borrowed on top are not carried: quick restarts cannot push the lead on).
	 */
	leaseOf(mark: number, now: number): number {
		return Math.max(this.ownLeaseMs, Math.min(this.layout.msOf(mark) - now, this.restoredLeaseMs));
	}
}
