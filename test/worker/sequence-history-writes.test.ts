/**
 * A sequence's history is written by its minute alarm only: the calls that issue
 * (next, reserve, a pooled segment) write the record they always wrote and the one
 * alarm, nothing of the history; the alarm then writes the minute's row and the mark
 * it closed at. Reading the history writes nothing either.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { operations, sequenceStub } from "./sequence-helpers";
import * as historyTest from "./sequence-history-helpers";

const { MINUTE } = historyTest;

/** The object's storage: its key-value keys and its SQL tables (the platform's own left out). */
function storageOf(name: string) {
	return runInDurableObject(sequenceStub(name), (_i, state) => ({
		keys: [...state.storage.kv.list()].map(([key]) => key).sort(),
		tables: state.storage.sql
			.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
			.toArray()
			.map((t) => t.name)
			.filter((t) => !t.startsWith("_cf_") && !t.startsWith("sqlite_")),
	}));
}

describe("a sequence's history writes", () => {
	it("come from the minute alarm only, never from the calls that issue or read", async () => {
		const { ops, config } = await operations();
		const { name, m, clock } = await historyTest.sequenceFrom("history-writes", 1, {
			mode: "pooled",
		});
		await ops.nextInSequence(env, config, { name, count: 3 }); // a segment for this isolate
		await ops.reserveInSequence(env, { name, count: 10 });
		await runInDurableObject(sequenceStub(name), (instance) => instance.segment(name, 50));
		const read = await historyTest.historyOf(name);
		expect(read.history).toHaveLength(1);
		expect(read.history[0]).toMatchObject({ minute: m, requests: 3 });
		expect(await storageOf(name)).toEqual({ keys: ["sequence"], tables: [] });

		clock.time = m + MINUTE + 1_000;
		await historyTest.runMinuteAlarm(name);
		expect(await storageOf(name)).toEqual({
			keys: ["historyMark", "sequence"],
			tables: ["history_minutes"],
		});
		expect(await historyTest.storedSequenceMinutes(name)).toEqual([m]);
		expect((await historyTest.historyOf(name)).history).toEqual(read.history);
	});
});
