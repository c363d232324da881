/**
 * A worker ID's per-minute history: counted by its object, stored by its minute
 * alarm (one row per active minute), pruned past a day, read by
 * `GET /stats/:workerId/history`; the alarm's push feeds the catalog's fleet view
 * (`GET /stats`, `GET /stats/history`). The minute clock is scripted through
 * runInDurableObject; alarms run when the test says (runDurableObjectAlarm).
 * Worker IDs 20-24 are this file's.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { FleetStats, StatsHistory } from "../../src/wire";
import type { SnowflakeWorker } from "../../src/worker/object/snowflake-worker";
import { callJson, restart, setMinuteClock, snowflakeStub } from "./helpers";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The minutes stored in the object's own SQLite, oldest first. */
async function storedMinutes(workerId: number): Promise<number[]> {
	return runInDurableObject(snowflakeStub(workerId), (_i: SnowflakeWorker, state) =>
		state.storage.sql
			.exec<{ minute: number }>("SELECT minute FROM history_minutes ORDER BY minute")
			.toArray()
			.map((row) => row.minute),
	);
}

const minuteOf = (ms: number) => ms - (ms % MINUTE);

describe("a worker ID's history", () => {
	it("stores one row per active minute, adds the open one to reads, and prunes past a day", async () => {
		const now = minuteOf(Date.now());
		const yesterday = now - DAY - 5 * MINUTE;
		await snowflakeStub(20).stats(20); // starts the object, counts nothing
		await setMinuteClock(20, yesterday + 10);
		expect((await callJson("/snowflake/20?count=3")).status).toBe(200);
		await setMinuteClock(20, yesterday + MINUTE + 1_000);
		expect(await runDurableObjectAlarm(snowflakeStub(20))).toBe(true);
		expect(await storedMinutes(20)).toEqual([yesterday]);

		await setMinuteClock(20, now + 5);
		expect((await callJson("/snowflake/20?count=5")).status).toBe(200);
		expect((await callJson("/snowflake/20?count=2")).status).toBe(200);
		// Not stored yet, but read: the open minute as it stands.
		const open = await callJson<StatsHistory>("/stats/20/history?minutes=5");
		expect(open.status).toBe(200);
		expect(open.body).toMatchObject({ workerId: 20, minutes: 5 });
		expect(open.body.history).toEqual([
			{ minute: now, issued: 7, requests: 2, waits: 0, clockRegressions: 0, refusals: {} },
		]);

		// The alarm past the minute's end stores it and prunes the row over a day old.
		await setMinuteClock(20, now + MINUTE + 1_000);
		expect(await runDurableObjectAlarm(snowflakeStub(20))).toBe(true);
		expect(await storedMinutes(20)).toEqual([now]);
		const day = await callJson<StatsHistory>("/stats/20/history?minutes=1440");
		expect(day.body.history.map((m) => [m.minute, m.issued])).toEqual([[now, 7]]);
	});

	it("counts refusals by code in their minute", async () => {
		const now = minuteOf(Date.now());
		await snowflakeStub(21).stats(21);
		await setMinuteClock(21, now + 1);
		// More IDs than one call may wait for: refused by the object, counted.
		const refused = await callJson("/snowflake/21/blocks?count=1000000");
		expect(refused.status).toBe(200); // within MAX_BLOCK_COUNT and the wait budget: issued
		await runInDurableObject(snowflakeStub(21), async (instance: SnowflakeWorker) => {
			const answer = await instance.issue(21, 0);
			expect(answer.ok).toBe(false);
		});
		const { body } = await callJson<StatsHistory>("/stats/21/history?minutes=1");
		expect(body.history).toHaveLength(1);
		expect(body.history[0]?.refusals).toEqual({ invalid_count: 1 });
		expect(body.history[0]?.issued).toBe(1_000_000);
	});

	it("pushes counts and closed minutes to the catalog from the alarm, not from the call", async () => {
		const now = minuteOf(Date.now());
		await snowflakeStub(22).stats(22);
		await setMinuteClock(22, now - MINUTE + 1);
		expect((await callJson("/snowflake/22?count=4")).status).toBe(200);
		const before = await callJson<FleetStats>("/stats");
		expect(before.body.workerIds.find((w) => w.workerId === 22)).toBeUndefined();

		await setMinuteClock(22, now + 1_000);
		await runDurableObjectAlarm(snowflakeStub(22));
		const after = await callJson<FleetStats>("/stats");
		expect(after.status).toBe(200);
		expect(after.body.workerIds.find((w) => w.workerId === 22)).toMatchObject({
			workerId: 22,
			issued: 4,
			requests: 1,
			waits: 0,
			clockRegressions: 0,
			refusals: 0,
		});
		expect(after.body.layout.exhaustsAt).toBe("2080-07-10T17:30:30.209Z");
		const fleet = await callJson<StatsHistory>("/stats/history?minutes=2");
		expect(fleet.body.workerId).toBeNull();
		const pushed = fleet.body.history.find((m) => m.minute === now - MINUTE);
		expect(pushed).toMatchObject({ issued: 4, requests: 1 });
	});

	it("closes a minute its object was evicted in: the new life finds it stored", async () => {
		const now = minuteOf(Date.now());
		await snowflakeStub(24).stats(24);
		await setMinuteClock(24, now - MINUTE + 1);
		expect((await callJson("/snowflake/24?count=6")).status).toBe(200);
		await restart(24); // idle objects are evicted: the alarm then starts a new life
		await setMinuteClock(24, now + 1_000);
		expect(await runDurableObjectAlarm(snowflakeStub(24))).toBe(true);
		expect(await storedMinutes(24)).toEqual([now - MINUTE]);
		const { body } = await callJson<StatsHistory>("/stats/24/history?minutes=2");
		expect(body.history).toEqual([
			{ minute: now - MINUTE, issued: 6, requests: 1, waits: 0, clockRegressions: 0, refusals: {} },
		]);
		const fleet = await callJson<FleetStats>("/stats");
		expect(fleet.body.workerIds.find((w) => w.workerId === 24)).toMatchObject({ issued: 6 });
	});

	it("answers an unused worker ID's history empty without writing to its storage", async () => {
		const { status, body } = await callJson<StatsHistory>("/stats/23/history");
		expect(status).toBe(200);
		expect(body).toMatchObject({ workerId: 23, minutes: 60, history: [] });
		const tables = await runInDurableObject(snowflakeStub(23), (_i: SnowflakeWorker, state) =>
			state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table'").toArray(),
		);
		expect(tables.filter((t) => t.name === "history_minutes")).toEqual([]);
	});
});
