/**
 * A sequence's counts in the fleet view through failed reports and evictions: a failed
 * report is made again by the next minute's alarm (changed or not), a minute closed
 * by the first call of the next is stored with that call, and the catalog never takes
 * an older report over a newer one. The object's clock is frozen and moved by the
 * test; alarms run when the test says.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { FleetStats, SequenceCounts } from "../../src/wire";
import { SequenceTable } from "../../src/worker/object/catalog-sequences";
import { breakCatalog, call, callJson, captureErrorLog } from "./helpers";
import { abortSequenceObject, sequenceStub } from "./sequence-helpers";
import * as historyTest from "./sequence-history-helpers";

const { MINUTE } = historyTest;
const quiet = { waits: 0, clockRegressions: 0, refusals: {} };

async function next(name: string, count: number) {
	const response = await call(`/sequences/${name}/next?count=${count}`, { method: "POST" });
	expect(response.status).toBe(200);
}

async function statsRow(name: string): Promise<SequenceCounts | undefined> {
	const { status, body } = await callJson<FleetStats>("/stats");
	expect(status).toBe(200);
	return body.sequences.find((s) => s.name === name);
}

describe("a sequence's counts in the fleet view", () => {
	it("are reported again a minute after a failed report, with no call in between", async () => {
		const { name, m, clock } = await historyTest.sequenceFrom("retry", 2);
		await next(name, 3);
		const catalog = await breakCatalog(sequenceStub(name));
		clock.time = m + MINUTE + 1_000;
		const [, logged] = await captureErrorLog(() => historyTest.runMinuteAlarm(name));
		expect(logged).toHaveLength(1);
		await catalog.mend();
		await historyTest.runMinuteAlarm(name); // the retry: no call came since
		expect(await statsRow(name)).toMatchObject({ issued: "3", requests: 1, next: "4" });
		expect(await runDurableObjectAlarm(sequenceStub(name))).toBe(false);
	});

	it("keep a minute whose object ends in the first second of the next", async () => {
		const { name, m, clock } = await historyTest.sequenceFrom("first-second", 3);
		await next(name, 2);
		clock.time = m + MINUTE + 500; // before the last minute's alarm
		await next(name, 5);
		await abortSequenceObject(name);
		await historyTest.sequenceClockAt(name, m + 2 * MINUTE + 1_000);
		await historyTest.runMinuteAlarm(name);
		expect((await historyTest.historyOf(name, 10)).history).toEqual([
			{ minute: m, issued: 2, requests: 1, ...quiet },
			{ minute: m + MINUTE, issued: 5, requests: 1, ...quiet },
		]);
	});
});

describe("a sequence's refusals", () => {
	it("survive an eviction within their minute once a second has passed", async () => {
		const { name, m } = await historyTest.sequenceFrom("refusals-kept", 2, {
			start: "9223372036854775806", // two numbers left below 2^63 − 1
		});
		const refused = await call(`/sequences/${name}/next?count=5`, { method: "POST" });
		expect(refused.status).toBe(409);
		await scheduler.wait(1_300); // refusals write no record: they are stored a second later
		await abortSequenceObject(name);
		await historyTest.sequenceClockAt(name, m + MINUTE + 1_000);
		await historyTest.runMinuteAlarm(name);
		expect((await historyTest.historyOf(name, 10)).history).toEqual([
			{ minute: m, issued: 0, requests: 0, ...quiet, refusals: { sequence_exhausted: 1 } },
		]);
	});
});

describe("the catalog's merge of sequence reports", () => {
	it("never takes a report older than the row it holds", async () => {
		const settings = { start: "1", mode: "ordered", reset: "never", timeZone: "UTC" } as const;
		const report = (issued: number, requests: number) => ({
			name: "merged",
			settings,
			createdAtMs: 1,
			next: `${issued + 1}`,
			issued: `${issued}`,
			requests,
			lastIssuedAtMs: 2,
			period: null,
		});
		// Any SQLite object's storage holds the table: the merge is the table's own.
		const rows = await runInDurableObject(sequenceStub("sequence-merge"), (_i, state) => {
			const table = new SequenceTable(state.storage.sql);
			table.report(report(2_000, 5), 10);
			table.report(report(101, 2), 20); // a report older than the row
			return table.countsAfter(null, 10);
		});
		expect(rows).toEqual([
			expect.objectContaining({ issued: "2000", requests: 5, next: "2001", reportedAtMs: 10 }),
		]);
	});
});
