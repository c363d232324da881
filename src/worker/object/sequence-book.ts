/**
 * One named sequence as its Durable Object keeps it (./sequence-object.ts): the record
 * in storage (its name, settings, the counter's state and pooled mode's last step,
 * one key), and the calls on it, each a transition of the runtime-neutral rules
 * (src/ids/sequences) written before it answers. Every method is synchronous, so
 * the object runs one at a time; the output gate holds each answer until its write
 * is durable, so no number leaves that a restart could issue again.
 *
 *   const book = new SequenceBook(ctx.storage, () => Date.now());
 *   book.create("orders", { start: "1000", mode: "ordered", reset: "never", timeZone: "UTC" });
 *   book.issue("orders", 2); // { first: "1000", last: "1001", count: 2, period: null, mode: "ordered" }
 *   book.status("orders");   // { type: "sequence-status", next: "1002", issued: "2", … }
 *   book.report();           // the counts for the fleet catalog: { name: "orders", next: "1002", issued: 2, … }
 *   book.counters();         // what its history counts by minute: { issued: 2, requests: 1, lastIssuedAt: … }
 *   book.retire("orders");   // { retired: true, status: { …, retiredAt } }; then only a tombstone is stored
 */

import {
	advanceTo,
	checkSequenceName,
	checkSequenceSettings,
	DEFAULT_POOL_STEP,
	enterPeriod,
	type IssuedRange,
	issueRange,
	MAX_SEQUENCE_NUMBER,
	newSequenceState,
	readClock,
	readSequenceNumber,
	readStoredState,
	type SequenceMode,
	type SequenceRuling,
	type SequenceSettings,
	type SequenceSettingsView,
	type SequenceState,
	type StoredSequenceState,
	sameSettings,
	sequenceExists,
	settingsView,
	storedState,
} from "../../ids/sequences";
import type { SequenceStatus } from "../../wire";
import { serviceError } from "../errors";
import type { SequenceReport } from "./catalog-sequences";
import type { SequenceCounters } from "./sequence-minutes";
import {
	bury,
	readTombstone,
	retiredCreateRefusal,
	retiredRefusal,
	type Tombstone,
} from "./sequence-tombstone";

/** The one key a sequence object stores. */
const RECORD_KEY = "sequence";

/** What storage holds (structured-cloned): bigints as decimal strings. */
interface StoredRecord {
	name: string;
	settings: SequenceSettingsView;
	state: StoredSequenceState;
	/** Pooled mode: the size of the last segment an isolate asked for; null before the first. */
	step: number | null;
}

interface SequenceRecord {
	name: string;
	settings: SequenceSettings;
	state: SequenceState;
	step: number | null;
}

/** Consecutive numbers issued by one call, as the object answers them (decimal strings). */
export interface IssuedNumbers {
	first: string;
	last: string;
	count: number;
	/** The period they belong to; null without a reset. */
	period: string | null;
	/** The sequence's mode: a caller learns from its first answer how to serve the name. */
	mode: SequenceMode;
}

export class SequenceBook {
	/** The record as stored: undefined before the first read, null when none is stored. */
	private record: SequenceRecord | null | undefined;
	/** The tombstone, once read (with the record, when there is none): the sequence was retired. */
	private tombstone: Tombstone | undefined;

	/** `changed` is told after each write (the object schedules its report to the catalog). */
	constructor(
		private readonly storage: DurableObjectStorage,
		private readonly now: () => number,
		private readonly changed: () => void = () => {},
	) {}

	/** Creates the sequence, or finds it with the same settings (`created: false`); else `sequence_exists`. */
	create(name: string, asked: SequenceSettingsView): { created: boolean; status: SequenceStatus } {
		const settings = checkSequenceSettings(asked);
		const held = this.read(name);
		if (this.tombstone) throw retiredCreateRefusal(this.tombstone);
		if (held) {
			if (!sameSettings(held.settings, settings)) throw sequenceExists(name, held.settings);
			return { created: false, status: this.status(name) };
		}
		const record = { name, settings, state: newSequenceState(settings, this.now()), step: null };
		this.write(record);
		return { created: true, status: statusOf(record) };
	}

	/** `count` consecutive numbers from the next one (next and reserve, either mode). */
	issue(name: string, count: number): IssuedNumbers {
		const held = this.known(name);
		return this.issued(held, issueRange(held.state, held.settings, count, this.now()), held.step);
	}

	/**
	 * Pooled mode: a segment of `size` numbers for an isolate's buffer, fewer when
	 * fewer are left below 2^63 − 1 (at least one, else `sequence_exhausted`).
	 */
	segment(name: string, size: number): IssuedNumbers {
		const held = this.known(name);
		if (held.settings.mode !== "pooled") {
			throw serviceError("internal", `sequence "${name}" is not pooled; it has no segments`);
		}
		const now = this.now();
		const left = MAX_SEQUENCE_NUMBER + 1n - enterPeriod(held.state, held.settings, now).next;
		const count = left > 0n && left < BigInt(size) ? Number(left) : size;
		return this.issued(held, issueRange(held.state, held.settings, count, now), size);
	}

	/** The next number becomes at least `to` (forward only); answers the status. */
	advance(name: string, to: string): SequenceStatus {
		const held = this.known(name);
		const target = readSequenceNumber("to", to);
		const ruling = advanceTo(held.state, held.settings, target, this.now());
		if (!ruling.ok) throw ruling.refusal;
		if (ruling.state !== held.state) this.write({ ...held, state: ruling.state });
		return this.status(name);
	}

	/** The status in the current period; entering a new period is stored, so it never goes back. */
	status(name: string): SequenceStatus {
		const held = this.known(name);
		const state = enterPeriod(held.state, held.settings, this.now());
		if (state === held.state) return statusOf(held);
		const record = { ...held, state };
		this.write(record);
		return statusOf(record);
	}

	/**
	 * Retires the sequence for good: its status now (in the current period), with
	 * `retiredAt`, and from then on storage holds only its tombstone. Retired already:
	 * the same status again (`retired: false`), so a retried retire finds what the first
	 * answered.
	 */
	retire(name: string): { retired: boolean; status: SequenceStatus } {
		this.read(name);
		if (this.tombstone) return { retired: false, status: this.tombstone.status };
		const held = this.known(name);
		const now = readClock(this.now());
		const state = enterPeriod(held.state, held.settings, now);
		const retiredAt = new Date(now).toISOString();
		const tombstone = {
			name,
			retiredAtMs: now,
			status: { ...statusOf({ ...held, state }), retiredAt },
		};
		bury(this.storage, tombstone);
		this.record = null;
		this.tombstone = tombstone;
		return { retired: true, status: tombstone.status };
	}

	/** Whether the sequence was retired (its object then keeps only the tombstone). */
	get retired(): boolean {
		if (this.record === undefined) this.tombstone ??= readTombstone(this.storage);
		return this.tombstone !== undefined;
	}

	/** The stored record's counts for the fleet catalog (as stored: reading writes nothing); none before a create. */
	report(): SequenceReport | undefined {
		const stored = this.storage.kv.get<StoredRecord>(RECORD_KEY);
		if (!stored) return undefined;
		const { state } = stored;
		return {
			name: stored.name,
			settings: { ...stored.settings },
			createdAtMs: state.createdAt,
			next: BigInt(state.next) > MAX_SEQUENCE_NUMBER ? null : state.next,
			issued: state.issued,
			requests: state.requests,
			lastIssuedAtMs: state.lastIssuedAt,
			period: state.period,
		};
	}

	/** The counters a minute's history is the difference of, as held (reading writes nothing); none before a create. */
	counters(): SequenceCounters | undefined {
		const state =
			this.record === undefined
				? this.storage.kv.get<StoredRecord>(RECORD_KEY)?.state
				: this.record?.state;
		return state && countersOf(state);
	}

	/** The counters of `name`, or `unknown_sequence`. */
	countersOf(name: string): SequenceCounters {
		return countersOf(this.known(name).state);
	}

	private issued(
		held: SequenceRecord,
		ruling: SequenceRuling<IssuedRange>,
		step: number | null,
	): IssuedNumbers {
		if (!ruling.ok) throw ruling.refusal;
		this.write({ ...held, state: ruling.state, step });
		const { first, last, count, period } = ruling.value;
		return { first: `${first}`, last: `${last}`, count, period, mode: held.settings.mode };
	}

	/** The record, or `sequence_retired`, or `unknown_sequence` saying how to create it. */
	private known(name: string): SequenceRecord {
		const held = this.read(name);
		if (held) return held;
		if (this.tombstone) throw retiredRefusal(this.tombstone);
		throw serviceError(
			"unknown_sequence",
			`sequence "${name}" was never created; create it first with PUT /sequences/${name} (RPC: createSequence), settings start, mode, reset and timeZone all optional`,
		);
	}

	private read(name: string): SequenceRecord | null {
		checkSequenceName(name);
		if (this.record === undefined) {
			const stored = this.storage.kv.get<StoredRecord>(RECORD_KEY);
			this.record = stored
				? {
						name: stored.name,
						settings: checkSequenceSettings(stored.settings),
						state: readStoredState(stored.state),
						step: stored.step,
					}
				: null;
			if (!stored) this.tombstone = readTombstone(this.storage);
		}
		const own = this.record?.name ?? this.tombstone?.name;
		if (own !== undefined && own !== name) {
			throw serviceError("internal", `sequence "${own}"'s object was asked for "${name}"`);
		}
		return this.record;
	}

	/** Stores `record` (synchronously; the output gate holds the answer until it is durable), then holds it. */
	private write(record: SequenceRecord): void {
		const stored: StoredRecord = {
			name: record.name,
			settings: settingsView(record.settings),
			state: storedState(record.state),
			step: record.step,
		};
		this.storage.kv.put(RECORD_KEY, stored);
		this.record = record;
		this.changed();
	}
}

function countersOf(state: SequenceState | StoredSequenceState): SequenceCounters {
	return {
		issued: Number(state.issued),
		requests: state.requests,
		lastIssuedAt: state.lastIssuedAt,
	};
}

function statusOf({ name, settings, state, step }: SequenceRecord): SequenceStatus {
	return {
		type: "sequence-status",
		name,
		settings: settingsView(settings),
		next: state.next > MAX_SEQUENCE_NUMBER ? null : `${state.next}`,
		issued: `${state.issued}`,
		requests: state.requests,
		created: new Date(state.createdAt).toISOString(),
		lastIssuedAt: state.lastIssuedAt === null ? null : new Date(state.lastIssuedAt).toISOString(),
		period: state.period,
		...(settings.mode === "pooled" ? { step: step ?? DEFAULT_POOL_STEP.minStep } : {}),
	};
}
