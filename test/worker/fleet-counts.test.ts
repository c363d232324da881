/**
 * A worker ID's counts through evictions and restarts: its own stats, its history and
 * the fleet's view of it reach what it issued, and the fleet's never go back. Counts
 * a call leaves unstored are stored a second later (the test waits that second for
 * real); the platform's `abortAllDurableObjects` ends the instance as an eviction or
 * crash does. The minute clock is scripted; alarms run when the test says.
 * Worker IDs 700-709 are this file's.
 */
import { abortAllDurableObjects, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { MinuteCounts } from "../../src/ids/minute-tally";
import type { FleetStats, StatsHistory } from "../../src/wire";
import { CatalogTables, type WorkerIdReport } from "../../src/worker/object/catalog-tables";
import {
	breakCatalog,
	callJson,
	captureErrorLog,
	recordWrites,
	setMinuteClock,
	snowflakeStub,
	useTestClock,
} from "./helpers";
import { sequenceStub } from "./sequence-helpers";

const T = 1_800_000_000_000;
const MINUTE = 60_000;
/** Longer than the object waits before storing counts a call left unstored (1 s). */
const STORE_WAIT_MS = 1_300;
const quiet = { waits: 0, clockRegressions: 0, refusals: {} };

const currentMinute = () => Date.now() - (Date.now() % MINUTE);

async function issue(workerId: number, count: number) {
	expect((await callJson(`/snowflake/${workerId}?count=${count}`)).status).toBe(200);
}

/** The object's own counters (a new stub: one that saw its object end stays broken). */
async function ownCounts(workerId: number) {
	const result = await snowflakeStub(workerId).stats(workerId);
	if (!result.ok) throw new Error(result.detail);
	return result.stats;
}

async function fleetRow(workerId: number) {
	const { status, body } = await callJson<FleetStats>("/stats");
	expect(status).toBe(200);
	return body.workerIds.find((w) => w.workerId === workerId);
}

/** The fleet's count of IDs issued in `minute` (every worker ID of this file's). */
async function fleetIssuedIn(minute: number): Promise<number> {
	const { body } = await callJson<StatsHistory>("/stats/history?minutes=3");
	return body.history.find((m) => m.minute === minute)?.issued ?? 0;
}

async function history(workerId: number, minutes: number): Promise<MinuteCounts[]> {
	const { status, body } = await callJson<StatsHistory>(
		`/stats/${workerId}/history?minutes=${minutes}`,
	);
	expect(status).toBe(200);
	return body.history;
}

describe("a worker ID's counts through evictions", () => {
	it("keeps the counts of calls that wrote no mark when it is evicted idle", async () => {
		await useTestClock(700, T);
		await issue(700, 500); // writes the mark, and the stats with it
		await issue(700, 500); // within the mark's lease: no write of its own
		await scheduler.wait(STORE_WAIT_MS);
		await abortAllDurableObjects(); // evicted idle, nobody having read its stats
		expect(await ownCounts(700)).toMatchObject({ issued: 1_000, requests: 2 });
	});

	it("never reports less to the fleet after a restart than it reported before", async () => {
		const now = currentMinute();
		await useTestClock(701, T);
		await setMinuteClock(701, now - MINUTE + 1);
		await issue(701, 1_000);
		await issue(701, 1_000);
		await setMinuteClock(701, now + 1_000);
		expect(await runDurableObjectAlarm(snowflakeStub(701))).toBe(true);
		expect(await fleetRow(701)).toMatchObject({ issued: 2_000, requests: 2 });

		await abortAllDurableObjects(); // at once: only what was stored survives
		await useTestClock(701, T + 5_000);
		await setMinuteClock(701, now + 2_000);
		await issue(701, 1);
		await setMinuteClock(701, now + MINUTE + 1_000);
		expect(await runDurableObjectAlarm(snowflakeStub(701))).toBe(true);
		expect(await fleetRow(701)).toMatchObject({ issued: 2_001, requests: 3 });
		expect(await ownCounts(701)).toMatchObject({ issued: 2_001, requests: 3 });
	});

	it("loses no minute when it ends in the first second of the next", async () => {
		const now = currentMinute();
		await useTestClock(702, T);
		await setMinuteClock(702, now - MINUTE + 1);
		await issue(702, 6);
		await setMinuteClock(702, now + 500); // closes the last minute, before its alarm
		await issue(702, 4);
		await scheduler.wait(STORE_WAIT_MS);
		await abortAllDurableObjects();
		const fleetBefore = await fleetIssuedIn(now - MINUTE);
		await setMinuteClock(702, now + MINUTE + 1_000);
		expect(await runDurableObjectAlarm(snowflakeStub(702))).toBe(true);
		expect(await history(702, 3)).toEqual([
			{ minute: now - MINUTE, issued: 6, requests: 1, ...quiet },
			{ minute: now, issued: 4, requests: 1, ...quiet },
		]);
		expect(await fleetIssuedIn(now - MINUTE)).toBe(fleetBefore + 6);
		expect(await fleetRow(702)).toMatchObject({ issued: 10, requests: 2 });
	});

	it("shows the current minute in its history after an idle spell's eviction", async () => {
		const now = currentMinute();
		await setMinuteClock(703, now + 10);
		await issue(703, 3);
		await runInDurableObject(snowflakeStub(703), async (instance) => {
			expect((await instance.issue(703, 0)).ok).toBe(false); // a refusal, counted
		});
		await scheduler.wait(STORE_WAIT_MS);
		await abortAllDurableObjects();
		await setMinuteClock(703, now + 20_000); // a new life that has issued nothing
		expect(await history(703, 2)).toEqual([
			{
				minute: now,
				issued: 3,
				requests: 2, // the refused call is a request too, as the live object counts it
				waits: 0,
				clockRegressions: 0,
				refusals: { invalid_count: 1 },
			},
		]);
	});

	it("carries minutes a failed report left to the next alarm, adding none twice", async () => {
		const now = currentMinute();
		await setMinuteClock(704, now - MINUTE + 1);
		await issue(704, 5);
		const fleetBefore = await fleetIssuedIn(now - MINUTE);
		const catalog = await breakCatalog(snowflakeStub(704));
		await setMinuteClock(704, now + 1_000);
		const [, logged] = await captureAlarm(704);
		expect(logged).toHaveLength(1);
		expect(await fleetRow(704)).toBeUndefined();
		await catalog.mend();
		await setMinuteClock(704, now + MINUTE + 1_000);
		await captureAlarm(704); // the retry, a minute on
		expect(await fleetRow(704)).toMatchObject({ issued: 5, requests: 1 });
		expect(await fleetIssuedIn(now - MINUTE)).toBe(fleetBefore + 5);
		await setMinuteClock(704, now + 2 * MINUTE + 1_000);
		expect(await runDurableObjectAlarm(snowflakeStub(704))).toBe(false); // nothing left to report
	});
});

describe("the cost of keeping counts", () => {
	it("is a few rows written a second while calls come, never one per call", async () => {
		await setMinuteClock(705, currentMinute() + 1); // one minute throughout: its own writes are once
		await issue(705, 1); // the object starts (its life token, its layout) before the count
		const writes: string[] = [];
		await recordWrites(snowflakeStub(705), writes);
		const started = performance.now();
		let calls = 0;
		while (performance.now() - started < 2_500) {
			await issue(705, 1);
			calls++;
			await scheduler.wait(5);
		}
		await scheduler.wait(STORE_WAIT_MS); // the last second's store
		const seconds = Math.ceil((performance.now() - started) / 1_000);
		const rows = writes.filter((w) => w.startsWith("put "));
		expect(calls).toBeGreaterThan(50);
		// The mark and the counts with it, the counts at that call's end, the counts' store.
		expect(rows.length).toBeLessThanOrEqual(4 * seconds);
		expect(await ownCounts(705)).toMatchObject({ issued: calls + 1, requests: calls + 1 });
	});
});

describe("the catalog's merge of worker ID reports", () => {
	it("never lowers a counter, and adds a minute once however often it is carried", async () => {
		const minute = currentMinute() - MINUTE;
		const counted = { minute, issued: 7, requests: 2, ...quiet, refusals: { overloaded: 1 } };
		const report = (issued: number, requests: number): WorkerIdReport => ({
			workerId: 9,
			counts: { issued, requests, clockRegressions: 0, waits: 0, lastTimestamp: T, since: "x" },
			minutes: [counted],
		});
		// Any SQLite object's storage holds the tables: the merge is the tables' own.
		const rows = await runInDurableObject(sequenceStub("catalog-merge"), (_i, state) => {
			const tables = new CatalogTables(state.storage.sql);
			tables.report(report(2_000, 5), Date.now());
			tables.report(report(101, 2), Date.now()); // a report from before a restart
			return {
				workerIds: tables.workerIdsAfter(null, 10).workerIds,
				fleet: tables.fleetHistory(minute),
			};
		});
		expect(rows.workerIds).toEqual([
			expect.objectContaining({ workerId: 9, issued: 2_000, requests: 5, refusals: 1 }),
		]);
		expect(rows.fleet).toEqual([counted]);
	});
});

/** Runs the object's alarm (one must be set), its error log captured. */
function captureAlarm(workerId: number) {
	return captureErrorLog(async () => {
		expect(await runDurableObjectAlarm(snowflakeStub(workerId))).toBe(true);
	});
}
