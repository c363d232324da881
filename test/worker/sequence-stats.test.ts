/**
 * A sequence's counts in the operations view: its object reports them to its catalog
 * shard from an alarm at its own offset past the end of the minute they changed in
 * (never from a call), so `GET /stats` shows them within two minutes; the shard's
 * summary brings them to `GET /metrics` (the busiest of the last hour) in the same minute. The
 * object's clock is frozen at a minute's start, so its alarm runs only when the test
 * says (runDurableObjectAlarm).
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { checkSequenceSettings } from "../../src/ids/sequences";
import type { SequenceCounts } from "../../src/wire";
import { statsRows, summarizeShardOf } from "./fleet-helpers";
import { call } from "./helpers";
import { atMinuteStart, operations, sequenceName, sequenceStub } from "./sequence-helpers";

/** The sequence's row in `GET /stats`. */
async function statsRow(name: string): Promise<SequenceCounts | undefined> {
	return (await statsRows()).sequences.find((s) => s.name === name);
}

/** The samples of `GET /metrics` labelled with the sequence, by family. */
async function metricsOf(name: string): Promise<Record<string, number>> {
	const response = await call("/metrics");
	expect(response.status).toBe(200);
	const label = `{sequence="${name}"} `;
	const samples: Record<string, number> = {};
	for (const line of (await response.text()).split("\n")) {
		const at = line.indexOf(label);
		if (at > 0) samples[line.slice(0, at)] = Number(line.slice(at + label.length));
	}
	return samples;
}

/** When the object's alarm is set for (null: none). */
function alarmOf(name: string): Promise<number | null> {
	return runInDurableObject(sequenceStub(name), (_instance, state) => state.storage.getAlarm());
}

describe("a sequence's counts in /stats and /metrics", () => {
	it("reach the catalog from the object's alarm within a minute, never from its calls", async () => {
		const name = sequenceName("stats");
		const clock = await atMinuteStart(name);
		const createdAtMs = clock.time;
		const { ops, config } = await operations();
		const settings = checkSequenceSettings({ start: 1000, reset: "daily" });
		await ops.createSequence(env, { name, settings });
		clock.time += 5_000;
		await ops.nextInSequence(env, config, { name, count: 3 }); // 1000-1002
		clock.time += 5_000;
		await ops.reserveInSequence(env, { name, count: 10 }); // 1003-1012

		// Listed by the create; the calls wrote nothing to the catalog.
		const listed = {
			name,
			settings: { start: "1000", mode: "ordered", reset: "daily", timeZone: "UTC" },
			createdAtMs,
		};
		expect(await statsRow(name)).toEqual({
			...listed,
			next: null,
			issued: "0",
			requests: 0,
			lastIssuedAtMs: null,
			period: null,
			reportedAtMs: null,
		});
		// /metrics shows the sequences that issued in the last hour, once their shard summed them up.
		await summarizeShardOf(name);
		expect(await metricsOf(name)).toEqual({});

		// One alarm, at the name's own offset past the end of the object's minute (at most 101 s away).
		const alarm = await alarmOf(name);
		expect(alarm).toBeGreaterThan(Date.now() + 50_000);
		expect(alarm).toBeLessThanOrEqual(Date.now() + 101_000);
		expect(await runDurableObjectAlarm(sequenceStub(name))).toBe(true);

		const period = new Date(createdAtMs).toISOString().slice(0, 10);
		const row = await statsRow(name);
		expect(row).toEqual({
			...listed,
			next: "1013",
			issued: "13",
			requests: 2,
			lastIssuedAtMs: createdAtMs + 10_000,
			period,
			reportedAtMs: expect.any(Number),
		});
		expect(await summarizeShardOf(name)).toBe(true);
		expect(await metricsOf(name)).toEqual({
			edge_ids_sequence_issued_total: 13,
			edge_ids_sequence_requests_total: 2,
			edge_ids_sequence_next: 1013,
			edge_ids_sequence_last_issued_timestamp_seconds: (createdAtMs + 10_000) / 1000,
		});
	});

	it("sets one alarm per minute of calls, and reports the minute's counts from it", async () => {
		const name = sequenceName("stats-minute");
		const clock = await atMinuteStart(name);
		const { ops, config } = await operations();
		await ops.createSequence(env, { name, settings: checkSequenceSettings({}) });
		expect(await runDurableObjectAlarm(sequenceStub(name))).toBe(true);
		expect(await alarmOf(name)).toBeNull(); // nothing changed since: no alarm

		clock.time += 60_000; // the next minute's calls: one alarm for all of them
		await ops.nextInSequence(env, config, { name, count: 1 });
		const alarm = await alarmOf(name);
		expect(alarm).not.toBeNull();
		for (let i = 0; i < 4; i++) await ops.nextInSequence(env, config, { name, count: 2 });
		await ops.advanceSequence(env, { name, to: 100n });
		expect(await alarmOf(name)).toBe(alarm);
		expect((await statsRow(name))?.issued).toBe("0");

		expect(await runDurableObjectAlarm(sequenceStub(name))).toBe(true);
		expect(await statsRow(name)).toMatchObject({ next: "100", issued: "9", requests: 5 });
	});
});
