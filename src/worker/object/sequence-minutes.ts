/**
 * A named sequence's per-minute history (./sequence-object.ts): numbers issued,
 * requests and refusals by code, counted by the core's MinuteTally over the record's
 * own counters, and stored (./history.ts's rows, in the object's SQLite) by the first
 * issuing call of a later minute (in its commit) or by the alarm the object already
 * sets just past each minute it changed in: one write a minute at most. With the rows
 * goes the counters they end at (the mark); a later life counts from the mark, so the
 * calls of a life evicted before its alarm are its open minute's. The open minute's
 * refusals (which write no record) are stored a second after they come, by the object.
 *
 *   const minutes = new SequenceMinutes(ctx.storage, book.counters(), () => clock.now());
 *   minutes.enter(book.counters());          // before a call that issues
 *   minutes.close(book.counters());          // in the alarm: stores the minutes over
 *   minutes.read(sinceMs, book.counters());  // stored rows and the open minute, oldest first
 */
import { type MinuteCounts, MinuteTally, minuteOf } from "../../ids/minute-tally";
import { mergeMinutes, ObjectHistory } from "./history";

/** The record's counters at the last close: written by the alarm, with the minutes it stored. */
const MARK_KEY = "historyMark";

/** What a sequence's record counts, the minutes' differences (none before its create). */
export interface SequenceCounters {
	issued: number;
	requests: number;
	/** The object clock's reading at the last call that issued; null before the first. */
	lastIssuedAt: number | null;
}

type Mark = Pick<SequenceCounters, "issued" | "requests">;

/**
 * The open minute's refusals, stored a second after a refusal (they write no record)
 * and deleted when the minute is stored: a life that ends within the minute keeps them.
 */
const REFUSALS_KEY = "openRefusals";

interface OpenRefusals {
	minute: number;
	refusals: Record<string, number>;
}

const NONE: SequenceCounters = { issued: 0, requests: 0, lastIssuedAt: null };

/** The tally's counters: a sequence never waits on a clock, so those two stay 0. */
function tallied({ issued, requests }: Mark) {
	return { issued, requests, rolloverWaits: 0, clockRegressions: 0 };
}

export class SequenceMinutes {
	private readonly tally: MinuteTally;
	private readonly history: ObjectHistory;
	private refusalsUnstored = false;

	/** `counters`: the stored record's; counts past the stored mark are an earlier life's open minute. */
	constructor(
		private readonly storage: DurableObjectStorage,
		counters: SequenceCounters | undefined,
		private readonly now: () => number,
	) {
		counters ??= NONE;
		this.history = new ObjectHistory(storage.sql);
		const mark = storage.kv.get<Mark>(MARK_KEY) ?? NONE;
		const moved = counters.issued > mark.issued || counters.requests > mark.requests;
		const issuedIn =
			moved && counters.lastIssuedAt !== null ? minuteOf(counters.lastIssuedAt) : undefined;
		// Refusals stored since are the open minute's (a minute that closed deleted them).
		const refused = storage.kv.get<OpenRefusals>(REFUSALS_KEY);
		const kept = refused && (issuedIn ?? refused.minute) === refused.minute ? refused : undefined;
		const minute = issuedIn ?? kept?.minute;
		this.tally = new MinuteTally(
			tallied(counters),
			minute === undefined
				? undefined
				: { minute, base: tallied(mark), refusals: kept?.refusals ?? {} },
		);
	}

	/** Refusals counted since they were last stored: `storeRefusals` is due. */
	get refusalsMoved(): boolean {
		return this.refusalsUnstored;
	}

	/** Stores the open minute's refusals (the object does so a second after a refusal). */
	storeRefusals(): void {
		const open = this.tally.openState;
		if (open?.refusals && Object.keys(open.refusals).length > 0) {
			this.storage.kv.put(REFUSALS_KEY, { minute: open.minute, refusals: open.refusals });
		}
		this.refusalsUnstored = false;
	}

	/**
	 * Before a call that may issue: closes an earlier minute, opens this one. A minute
	 * closed here is stored at once, with the mark (once a minute at most, in the
	 * call's commit): a life that ends before its alarm loses no minute.
	 */
	enter(counters: SequenceCounters): void {
		const now = this.now();
		if (this.tally.enter(now, tallied(counters))) this.store(now, counters);
	}

	refused(code: string): void {
		this.tally.refused(code, this.now());
		this.refusalsUnstored = true;
	}

	/** A minute is being counted: the alarm that stores it is due. */
	get counting(): boolean {
		return this.tally.openMinute !== undefined;
	}

	/** The alarm: stores the minutes over (pruning past a day) and the mark they end at. */
	close(counters: SequenceCounters): void {
		this.store(this.now(), counters);
	}

	/** Stores the minutes over at `now` and the mark they end at. */
	private store(now: number, counters: SequenceCounters): void {
		const closed = this.tally.takeClosed(now, tallied(counters));
		if (closed.length === 0) return;
		this.history.write(closed, now);
		if (closed.some((m) => Object.keys(m.refusals).length > 0)) {
			this.storage.kv.delete(REFUSALS_KEY);
		}
		const { issued, requests } = this.tally.openState?.base ?? counters;
		this.storage.kv.put(MARK_KEY, { issued, requests } satisfies Mark);
	}

	/** The minutes from `sinceMs` on: the stored rows and those not stored yet. */
	read(sinceMs: number, counters: SequenceCounters): MinuteCounts[] {
		const unsaved = this.tally.unsaved(tallied(counters));
		return mergeMinutes([...this.history.read(sinceMs), ...unsaved], sinceMs);
	}
}
