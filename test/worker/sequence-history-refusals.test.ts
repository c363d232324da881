/**
 * A sequence's history counts its refused calls by code in their minute, stored by
 * the minute alarm like its numbers (a refusal sets that alarm too). A name never
 * created stores nothing: its refusals are not counted, and its history is
 * `unknown_sequence`.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, callJson } from "./helpers";
import { sequenceName, sequenceStub } from "./sequence-helpers";
import * as historyTest from "./sequence-history-helpers";

const { MINUTE } = historyTest;

/** One below 2^63 − 1: two numbers are left, so five are refused. */
const NEAR_END = "9223372036854775806";

function alarmOf(name: string): Promise<number | null> {
	return runInDurableObject(sequenceStub(name), (_i, state) => state.storage.getAlarm());
}

async function status(path: string, init?: RequestInit): Promise<number> {
	return (await call(path, init)).status;
}

describe("a sequence's history of refusals", () => {
	it("counts refused calls by code in their minute, stored by the alarm a refusal sets", async () => {
		const { name, m, clock } = await historyTest.sequenceFrom("history-refusals", 2, {
			start: NEAR_END,
		});
		const json = { "Content-Type": "application/json" };
		expect(await status(`/sequences/${name}/next`)).toBe(200);
		clock.time = m + MINUTE + 1_000;
		await historyTest.runMinuteAlarm(name);
		expect(await historyTest.storedSequenceMinutes(name)).toEqual([m]);
		expect(await alarmOf(name)).toBeNull(); // nothing left to store

		clock.time = m + MINUTE + 2_000;
		expect(await status(`/sequences/${name}/next?count=5`)).toBe(409);
		expect(await status(`/sequences/${name}/reserve?count=2`, { method: "POST" })).toBe(409);
		expect(await status(`/sequences/${name}`, { method: "PUT", headers: json, body: "{}" })).toBe(
			409,
		);
		expect(await alarmOf(name)).not.toBeNull(); // set by the refusals: they wrote no record
		const quiet = { waits: 0, clockRegressions: 0 };
		const counts = [
			{ minute: m, issued: 1, requests: 1, ...quiet, refusals: {} },
			{
				minute: m + MINUTE,
				issued: 0,
				requests: 0,
				...quiet,
				refusals: { sequence_exhausted: 2, sequence_exists: 1 },
			},
		];
		expect((await historyTest.historyOf(name, 5)).history).toEqual(counts);

		clock.time = m + 2 * MINUTE + 1_000;
		await historyTest.runMinuteAlarm(name);
		expect(await historyTest.storedSequenceMinutes(name)).toEqual([m, m + MINUTE]);
		expect((await historyTest.historyOf(name, 5)).history).toEqual(counts);
	});

	it("stores nothing for a name never created: its calls and its history are unknown_sequence", async () => {
		const name = sequenceName("history-unknown");
		expect(await status(`/sequences/${name}/next`)).toBe(404);
		const history = await callJson<{ error: { code: string; message: string } }>(
			`/sequences/${name}/history`,
		);
		expect(history.status).toBe(404);
		expect(history.body.error.code).toBe("unknown_sequence");
		expect(history.body.error.message).toContain(`PUT /sequences/${name}`);
		const stored = await runInDurableObject(sequenceStub(name), async (_i, state) => ({
			keys: [...state.storage.kv.list()].length,
			alarm: await state.storage.getAlarm(),
		}));
		expect(stored).toEqual({ keys: 0, alarm: null });
	});
});
