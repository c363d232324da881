/**
 * One Durable Object per named sequence (`env.SEQUENCES.idFromName(name)`), the only
 * place its next number lives: Cloudflare runs it once worldwide, so every number
 * of an ordered sequence comes from one counter, in order. This class is a thin
 * adapter: the record and the rules are ./sequence-book.ts's (loaded on first use),
 * refusals cross as values (./object-answers.ts). Each method names the sequence
 * (the object checks it is its own) and answers after its write is durable.
 *
 *   const stub = env.SEQUENCES.get(env.SEQUENCES.idFromName("orders"));
 *   await stub.create("orders", { start: "1", mode: "ordered", reset: "never", timeZone: "UTC" });
 *   await stub.next("orders", 2); // { ok: true, first: "1", last: "2", count: 2, period: null, mode: "ordered" }
 */
import { DurableObject } from "cloudflare:workers";
import type { Clock } from "../../ids/clock";
import type { SequenceSettingsView } from "../../ids/sequences/settings";
import { type ObjectFailure, objectFailure } from "./object-answers";
import { sequenceObjectModules } from "./object-parts";
import type { CreateResult, IssuedResult, StatusResult } from "./object-protocol";
import type { SequenceBook } from "./sequence-book";
import { workersClock } from "./workers-clock";

export class SequenceObject extends DurableObject<Env> {
	/** The time source; tests replace it (runInDurableObject) to cross midnight. */
	clock: Clock = workersClock;
	private book: Promise<SequenceBook> | undefined;

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

	/** The catalog object only (./sequence-catalog.ts): records a created name; again is a no-op. */
	async recordName(name: string): Promise<{ ok: true }> {
		this.catalogTable().exec(
			"INSERT INTO names (name) VALUES (?) ON CONFLICT (name) DO NOTHING",
			name,
		);
		return { ok: true };
	}

	/** The catalog object only: up to `limit` names after `after`, in name order, and whether more follow. */
	async listNames(
		after: string | null,
		limit: number,
	): Promise<{ ok: true; names: string[]; more: boolean }> {
		const rows = this.catalogTable()
			.exec<{ name: string }>(
				"SELECT name FROM names WHERE name > ? ORDER BY name LIMIT ?",
				after ?? "",
				limit + 1,
			)
			.toArray();
		return {
			ok: true,
			names: rows.slice(0, limit).map((row) => row.name),
			more: rows.length > limit,
		};
	}

	private catalogTable(): SqlStorage {
		const { sql } = this.ctx.storage;
		sql.exec("CREATE TABLE IF NOT EXISTS names (name TEXT PRIMARY KEY) WITHOUT ROWID");
		return sql;
	}

	/** Runs `decide` on the book (one, made on first use), a refusal answered as a value. */
	private async answer<T extends object>(
		decide: (book: SequenceBook) => T,
	): Promise<({ ok: true } & T) | ObjectFailure> {
		try {
			this.book ??= sequenceObjectModules().then(
				({ SequenceBook }) => new SequenceBook(this.ctx.storage, () => this.clock.now()),
				(error: unknown) => {
					this.book = undefined; // a failed load is tried again by the next call
					throw error;
				},
			);
			// Nothing awaits between reading the record and writing it: one call at a time.
			return { ok: true, ...decide(await this.book) };
		} catch (error) {
			return objectFailure(error);
		}
	}
}
