/**
 * One Durable Object per named sequence (`env.SEQUENCES.idFromName(name)`), the only
 * place its next number lives: Cloudflare runs it once worldwide, so every number
 * of an ordered sequence comes from one counter, in order. This class is a thin
 * adapter: the record and the rules are ./sequence-book.ts's (loaded on first use),
 * refusals cross as values (./object-answers.ts). Each method names the sequence
 * (the object checks it is its own) and answers after its write is durable; calls
 * that arrive while an earlier one's write commits share the next commit
 * (./commit-groups.ts). Its
 * counts reach the fleet catalog from an alarm just past the end of each minute it
 * changed in (./minute-alarm.ts): at most one report a minute, never on the issuing path.
 * The same alarm stores its per-minute history (./sequence-minutes.ts) in its own SQLite.
 * A retire leaves only a tombstone (./sequence-tombstone.ts) and no alarm: every later
 * call is refused, and a refusal there counts and writes nothing.
 *
 *   const stub = env.SEQUENCES.get(env.SEQUENCES.idFromName("orders"));
 *   await stub.create("orders", { start: "1", mode: "ordered", reset: "never", timeZone: "UTC" });
 *   await stub.next("orders", 2); // { ok: true, first: "1", last: "2", count: 2, period: null, mode: "ordered" }
 */
import { DurableObject } from "cloudflare:workers";
import type { Clock } from "../../ids/clock";
import type { SequenceSettingsView } from "../../ids/sequences/settings";
import { shardWrite } from "./catalog-calls";
import { CommitGroups } from "./commit-groups";
import { sequenceReportOffset, untilMinuteAlarm } from "./minute-alarm";
import { type ObjectFailure, objectFailure } from "./object-answers";
import { sequenceObjectModules } from "./object-parts";
import type {
	CreateResult,
	HistoryResult,
	IssuedResult,
	RetireResult,
	StatusResult,
} from "./object-protocol";
import type { IssuedNumbers, SequenceBook } from "./sequence-book";
import type { SequenceMinutes } from "./sequence-minutes";
import { StoreSoon } from "./store-soon";
import { workersClock } from "./workers-clock";

/** Refusals are stored this long after the first one (one write for all of that second). */
const STORE_REFUSALS_MS = 1_000;

export class SequenceObject extends DurableObject<Env> {
	/** The time source; tests replace it (runInDurableObject) to cross midnight. */
	clock: Clock = workersClock;
	private parts: Promise<{ book: SequenceBook; minutes: SequenceMinutes }> | undefined;
	/** The minutes, once loaded (with `parts`). */
	private minutes: SequenceMinutes | undefined;
	/** An alarm to report to the catalog is set (by this life). */
	private reportDue = false;
	/** The book once loaded: its record names the sequence (the report's offset in the minute). */
	private book: SequenceBook | undefined;
	/** Calls that issue numbers, written in groups (one commit for all that wait on one). */
	private readonly groups = new CommitGroups(this.ctx.storage);
	/** Refusals write no record: they are stored a second later, one write for all of that second. */
	private readonly refusalsSoon = new StoreSoon(
		STORE_REFUSALS_MS,
		() => {
			if (this.minutes?.refusalsMoved) this.minutes.storeRefusals();
		},
		{ object: "SequenceObject", name: this.ctx.id.name },
	);

	/** Creates the sequence with `settings`; the same settings again finds it, others are `sequence_exists`. */
	async create(name: string, settings: SequenceSettingsView): Promise<CreateResult> {
		return this.answer((book) => book.create(name, settings));
	}

	/** Ordered mode's numbers: `count` consecutive ones, stored before the answer leaves. */
	async next(name: string, count: number): Promise<IssuedResult> {
		return this.issue((book) => book.issue(name, count));
	}

	/** A range of `count` numbers no one else gets, for a caller that hands them out itself. */
	async reserve(name: string, count: number): Promise<IssuedResult> {
		return this.issue((book) => book.issue(name, count));
	}

	/** Pooled mode: a segment of about `size` numbers for an isolate's buffer. */
	async segment(name: string, size: number): Promise<IssuedResult> {
		return this.issue((book) => book.segment(name, size));
	}

	/** The next number becomes at least `to` (a decimal string), never less. */
	async advance(name: string, to: string): Promise<StatusResult> {
		return this.answer((book) => ({ status: book.advance(name, to) }));
	}

	/**
	 * Retires the sequence for good: its last status, the same again once retired. Its
	 * record, minutes and alarm are deleted; only the tombstone stays.
	 */
	async retire(name: string): Promise<RetireResult> {
		const result = await this.groups.write(() => this.answer((book) => book.retire(name)));
		if (result.ok) {
			this.reportDue = false;
			await this.ctx.storage.deleteAlarm();
		}
		return result;
	}

	async status(name: string): Promise<StatusResult> {
		return this.answer((book) => ({ status: book.status(name) }));
	}

	/** Its minutes from `sinceMs` on, stored and not yet stored, oldest first (reading writes nothing). */
	async history(name: string, sinceMs: number): Promise<HistoryResult> {
		return this.answer((book, minutes) => ({
			minutes: minutes.read(sinceMs, book.countersOf(name)),
		}));
	}

	/**
	 * Just past the end of a minute its record changed in (or a call was refused in):
	 * stores the minutes over and reports its counts to the fleet catalog. Never
	 * throws: a failed report is logged and made again by the next minute's alarm.
	 */
	override async alarm(): Promise<void> {
		this.reportDue = false;
		try {
			const { book, minutes } = await this.loadParts();
			// An alarm set before a retire (its delete lost to a restart) reports nothing.
			if (book.retired) return;
			const counters = book.counters();
			if (counters) minutes.close(counters);
			// Calls of the next minute came before this alarm: its own alarm stores them.
			if (minutes.counting) this.reportSoon();
			const report = book.report();
			if (
				report &&
				!(await shardWrite(this.env, report.name, "reportSequence", (c) =>
					c.reportSequence(report),
				))
			) {
				this.reportSoon(); // a failed report is carried again a minute on, changed or not
			}
		} catch (error) {
			console.error(
				JSON.stringify({
					object: "SequenceObject",
					event: "report_failed",
					message: error instanceof Error ? error.message : String(error),
				}),
			);
		}
	}

	/** After a write: the alarm that reports it, unless this life set one already. */
	private reportSoon(): void {
		if (this.reportDue) return;
		this.reportDue = true;
		// Scheduled on the platform's clock; the minute is the object's clock's (tests script it).
		// At the name's own offset in the minute: reports spread over it (./minute-alarm.ts).
		const now = this.clock.now();
		const name = this.book?.report()?.name;
		void this.ctx.storage.setAlarm(
			Date.now() +
				untilMinuteAlarm(
					Number.isFinite(now) ? now : Date.now(),
					name === undefined ? 0 : sequenceReportOffset(name),
				),
		);
	}

	/** The book and its minutes, made on first use (a failed load is tried again by the next call). */
	private loadParts(): Promise<{ book: SequenceBook; minutes: SequenceMinutes }> {
		this.parts ??= sequenceObjectModules().then(
			({ SequenceBook, SequenceMinutes }) => {
				const now = () => this.clock.now();
				const book = new SequenceBook(this.ctx.storage, now, () => this.reportSoon());
				this.book = book;
				this.minutes = new SequenceMinutes(this.ctx.storage, book.counters(), now);
				return { book, minutes: this.minutes };
			},
			(error: unknown) => {
				this.parts = undefined;
				throw error;
			},
		);
		return this.parts;
	}

	/** A call that issues numbers: counted in its minute, written with its commit group. */
	private issue(decide: (book: SequenceBook) => IssuedNumbers): Promise<IssuedResult> {
		return this.groups.write(() => this.answer(decide, true));
	}

	/**
	 * Runs `decide` on the book (one, made on first use), a refusal answered as a
	 * value. A call that `issues` is counted in its minute first; a refusal is counted
	 * by code when the sequence exists (an unknown name's object stores nothing).
	 */
	private async answer<T extends object>(
		decide: (book: SequenceBook, minutes: SequenceMinutes) => T,
		issues = false,
	): Promise<({ ok: true } & T) | ObjectFailure> {
		let parts: { book: SequenceBook; minutes: SequenceMinutes } | undefined;
		try {
			parts = await this.loadParts();
			const { book, minutes } = parts;
			const counters = issues ? book.counters() : undefined;
			if (counters) minutes.enter(counters);
			// Nothing awaits between reading the record and writing it: one call at a time.
			return { ok: true, ...decide(book, minutes) };
		} catch (error) {
			const failure = objectFailure(error);
			if (parts?.book.counters()) {
				parts.minutes.refused(failure.code);
				this.refusalsSoon.request();
				this.reportSoon();
			}
			return failure;
		}
	}
}
