/**
 * Idle costs nothing: once a worker ID's object, a lease's worker ID, a sequence's
 * object and the fleet catalog have made their last report after their last call,
 * none of them has an alarm set and none writes to its storage, however long they
 * stay idle (the test waits past the objects' one-second store of counts). Minute
 * clocks are scripted; alarms run when the test says. Worker IDs 710 and 611 (leased).
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { LeaseGrant } from "../../src/wire";
import { directoryStub, rootStub, shardStub } from "../../src/worker/object/catalog-calls";
import { callJson, recordWrites, setMinuteClock, snowflakeStub } from "./helpers";
import { leaseBody, leasesApp, releasePath } from "./lease-helpers";
import { sequenceStub } from "./sequence-helpers";
import * as historyTest from "./sequence-history-helpers";

const MINUTE = 60_000;
/** Longer than any store an object defers after a call (1 s). */
const STORE_WAIT_MS = 1_300;

/** Everything the object's storage holds (its keys and its tables' rows) and its alarm. */
function storageOf(stub: DurableObjectStub) {
	return runInDurableObject(stub, async (_instance: DurableObject, state) => {
		const { sql, kv } = state.storage;
		const tables = sql
			.exec<{ name: string }>(
				"SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf%' ESCAPE '\\' AND name NOT LIKE 'sqlite%' ORDER BY name",
			)
			.toArray()
			.map(({ name }) => [name, sql.exec(`SELECT * FROM "${name}"`).toArray()]);
		return { kv: [...kv.list()], tables, alarm: await state.storage.getAlarm() };
	});
}

/** Runs the object's alarms until none is set (a bounded number of them). */
async function runAlarmsOut(stub: DurableObjectStub, next: (round: number) => Promise<void>) {
	for (let round = 0; round < 5; round++) {
		await next(round);
		if (!(await runDurableObjectAlarm(stub))) return round;
	}
	throw new Error("the object kept setting alarms");
}

describe("idle costs nothing", () => {
	it("leaves no alarm and no write in a worker ID, a lease's worker ID, a sequence or the catalog", async () => {
		const now = Date.now() - (Date.now() % MINUTE);
		// A worker ID that issued.
		await setMinuteClock(710, now - MINUTE + 1);
		expect((await callJson("/snowflake/710?count=5")).status).toBe(200);
		// Within the first call's mark: its counts are stored a second later, by then idle.
		expect((await callJson("/snowflake/710?count=5")).status).toBe(200);
		// A worker ID leased to a holder, and released.
		const leases = leasesApp();
		await setMinuteClock(611, now - MINUTE + 2);
		const grant = await leases<LeaseGrant>("POST", "/leases", { workerId: 611 });
		expect(grant.status).toBe(201);
		expect((await leases("POST", releasePath(grant.body), leaseBody(grant.body))).status).toBe(204);
		// A sequence that issued.
		const { name, m, clock } = await historyTest.sequenceFrom("idle", 1);
		expect((await callJson(`/sequences/${name}/next`, { method: "POST" })).status).toBe(200);

		const minuteClockAt = (workerId: number) => (round: number) =>
			setMinuteClock(workerId, now + round * MINUTE + 1_000);
		expect(await runAlarmsOut(snowflakeStub(710), minuteClockAt(710))).toBeGreaterThan(0);
		expect(await runAlarmsOut(snowflakeStub(611), minuteClockAt(611))).toBeGreaterThan(0);
		const sequenceRounds = await runAlarmsOut(sequenceStub(name), async (round) => {
			clock.time = m + (round + 1) * MINUTE + 1_000;
		});
		expect(sequenceRounds).toBeGreaterThan(0);
		// The sequence's shard sends the root its summary once after the reports.
		expect(await runAlarmsOut(shardStub(env, name), async () => {})).toBeGreaterThan(0);

		const catalogs = [rootStub(env), directoryStub(env), shardStub(env, name)];
		const objects = [snowflakeStub(710), snowflakeStub(611), sequenceStub(name), ...catalogs];
		const before = await Promise.all(objects.map(storageOf));
		for (const held of before) expect(held.alarm).toBeNull();
		const writes: string[] = [];
		for (const object of objects) await recordWrites(object, writes);
		await scheduler.wait(STORE_WAIT_MS);
		expect(writes).toEqual([]);
		expect(await Promise.all(objects.map(storageOf))).toEqual(before);
	});
});
