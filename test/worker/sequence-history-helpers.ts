/**
 * Helpers of the sequence history tests: a sequence created on a frozen clock a few
 * minutes back (its minutes are that clock's; the test moves it), its minute alarm
 * run when the test says, the minutes stored in its SQLite, and its history as read.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import type { SequenceHistory } from "../../src/wire";
import type { SequenceObject } from "../../src/worker/object/sequence-object";
import { FrozenClock } from "../shared/fake-clock";
import { call, callJson } from "./helpers";
import { sequenceName, sequenceStub } from "./sequence-helpers";

export const MINUTE = 60_000;

/** Sets the object of `name` on a frozen clock at `time` (its minutes are this clock's). */
export async function sequenceClockAt(name: string, time: number): Promise<FrozenClock> {
	const clock = new FrozenClock(time);
	await runInDurableObject(sequenceStub(name), (instance: SequenceObject) => {
		instance.clock = clock;
	});
	return clock;
}

/**
 * A sequence created (`PUT`, with `settings`) a second into the minute `minutesAgo`
 * minutes before the current one, on a frozen clock: `m` is that minute.
 */
export async function sequenceFrom(label: string, minutesAgo: number, settings?: object) {
	const name = sequenceName(label);
	const now = Date.now(); // read once: two readings may straddle a millisecond
	const m = now - (now % MINUTE) - minutesAgo * MINUTE;
	const clock = await sequenceClockAt(name, m + 1_000);
	const created = await call(`/sequences/${name}`, {
		method: "PUT",
		...(settings && {
			headers: { "Content-Type": "application/json" },
			body: JSON.stringify(settings),
		}),
	});
	expect(created.status).toBe(201);
	return { name, m, clock };
}

/** Runs the object's minute alarm (one must be set). */
export async function runMinuteAlarm(name: string): Promise<void> {
	expect(await runDurableObjectAlarm(sequenceStub(name))).toBe(true);
}

/** The minutes stored in the sequence object's own SQLite, oldest first (none: no table). */
export async function storedSequenceMinutes(name: string): Promise<number[]> {
	return runInDurableObject(sequenceStub(name), (_i: SequenceObject, state) => {
		const table = state.storage.sql
			.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'history_minutes'")
			.toArray();
		if (table.length === 0) return [];
		return state.storage.sql
			.exec<{ minute: number }>("SELECT minute FROM history_minutes ORDER BY minute")
			.toArray()
			.map((row) => row.minute);
	});
}

/** `GET /sequences/:name/history` (a window when given), answered 200. */
export async function historyOf(name: string, minutes?: number): Promise<SequenceHistory> {
	const query = minutes === undefined ? "" : `?minutes=${minutes}`;
	const { status, body } = await callJson<SequenceHistory>(`/sequences/${name}/history${query}`);
	expect(status).toBe(200);
	return body;
}
