/**
 * One Durable Object per named sequence (`env.SEQUENCES.idFromName(name)`), the only
 * place its next number lives: Cloudflare runs it once worldwide, so every number
 * of an ordered sequence comes from one counter, in order. This class is a thin
 * adapter: the record and the rules are ./sequence-book.ts's (loaded on first use),
 * refusals cross as values (./object-answers.ts). Each method names the sequence
 * (the object checks it is its own) and answers after its write is durable. Its
 * counts reach the fleet catalog from an alarm just past the end of each minute it
 * changed in (./minute-alarm.ts): at most one report a minute, never on the issuing path.
 *
 *   const stub = env.SEQUENCES.get(env.SEQUENCES.idFromName("orders"));
 *   await stub.create("orders", { start: "1", mode: "ordered", reset: "never", timeZone: "UTC" });
 *   await stub.next("orders", 2); // { ok: true, first: "1", last: "2", count: 2, period: null, mode: "ordered" }
 */
import { DurableObject } from "cloudflare:workers";
import type { Clock } from "../../ids/clock";
import type { SequenceSettingsView } from "../../ids/sequences/settings";
import { catalogWrite } from "./catalog-calls";
import { untilMinuteAlarm } from "./minute-alarm";
import { type ObjectFailure, objectFailure } from "./object-answers";
import { sequenceObjectModules } from "./object-parts";
import type { CreateResult, IssuedResult, StatusResult } from "./object-protocol";
import type { SequenceBook } from "./sequence-book";
import { workersClock } from "./workers-clock";

export class SequenceObject extends DurableObject<Env> {
	/** The time source; tests replace it (runInDurableObject) to cross midnight. */
	clock: Clock = workersClock;
	private book: Promise<SequenceBook> | undefined;
	/** An alarm to report to the catalog is set (by this life). */
	private reportDue = false;

	/** Creates the sequence with `settings`; the same settings again finds it, others are `sequence_exists`. */
	async create(name: string, settings: SequenceSettingsView): Promise<CreateResult> {
		return this.answer((book) => book.create(name, settings));
	}

	/** Ordered mode's numbers: `count` consecutive ones, stored before the answer leaves. */
	async next(name: string, count: number): Promise<IssuedResult> {
		return this.answer((book) => book.issue(name, count));
	}

	/** A range of `count` numbers no one else gets, for a caller that hands them out itself. */
	async reserve(name: string, count: number): Promise<IssuedResult> {
		return this.answer((book) => book.issue(name, count));
	}

	/** Pooled mode: a segment of about `size` numbers for an isolate's buffer. */
	async segment(name: string, size: number): Promise<IssuedResult> {
		return this.answer((book) => book.segment(name, size));
	}

	/** The next number becomes at least `to` (a decimal string), never less. */
	async advance(name: string, to: string): Promise<StatusResult> {
		return this.answer((book) => ({ status: book.advance(name, to) }));
	}

	async status(name: string): Promise<StatusResult> {
		return this.answer((book) => ({ status: book.status(name) }));
	}

	/**
	 * Just past the end of a minute its record changed in: reports its counts to the
	 * fleet catalog. Never throws: a failed report is logged, and the next change reports again.
	 */
	override async alarm(): Promise<void> {
		this.reportDue = false;
		try {
			const report = (await this.loadBook()).report();
			if (report) await catalogWrite(this.env, "reportSequence", (c) => c.reportSequence(report));
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
		const now = this.clock.now();
		void this.ctx.storage.setAlarm(
			Date.now() + untilMinuteAlarm(Number.isFinite(now) ? now : Date.now()),
		);
	}

	/** The book, made on first use (a failed load is tried again by the next call). */
	private loadBook(): Promise<SequenceBook> {
		this.book ??= sequenceObjectModules().then(
			({ SequenceBook }) =>
				new SequenceBook(
					this.ctx.storage,
					() => this.clock.now(),
					() => this.reportSoon(),
				),
			(error: unknown) => {
				this.book = undefined;
				throw error;
			},
		);
		return this.book;
	}

	/** Runs `decide` on the book (one, made on first use), a refusal answered as a value. */
	private async answer<T extends object>(
		decide: (book: SequenceBook) => T,
	): Promise<({ ok: true } & T) | ObjectFailure> {
		try {
			const book = await this.loadBook();
			// Nothing awaits between reading the record and writing it: one call at a time.
			return { ok: true, ...decide(book) };
		} catch (error) {
			return objectFailure(error);
		}
	}
}
