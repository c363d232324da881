/**
 * A named sequence's per-minute history: its object counts numbers issued and
 * requests by minute of its own clock, its minute alarm stores one row per active
 * minute, and `GET /sequences/:name/history` (and RPC `sequenceHistory`) read the
 * stored rows with the minute not stored yet. The object's clock is frozen and moved
 * by the test (runInDurableObject); alarms run when the test says.
 */
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { IdService } from "../../src/worker/rpc/id-service";
import { envWith } from "../shared/fetch-app";
import { call } from "./helpers";
import { abortSequenceObject } from "./sequence-helpers";
import * as historyTest from "./sequence-history-helpers";

const { MINUTE } = historyTest;

const quiet = { waits: 0, clockRegressions: 0, refusals: {} };

async function issue(name: string, path: "next" | "reserve", count: number) {
	const response = await call(`/sequences/${name}/${path}?count=${count}`, { method: "POST" });
	expect(response.status).toBe(200);
}

describe("a sequence's history", () => {
	it("stores one row per active minute from its alarm, and reads add the minute not stored yet", async () => {
		const { name, m, clock } = await historyTest.sequenceFrom("history", 2);
		await issue(name, "next", 3);
		await issue(name, "next", 2);
		const open = await historyTest.historyOf(name, 5);
		expect(open).toMatchObject({ name, minutes: 5 });
		expect(open.history).toEqual([{ minute: m, issued: 5, requests: 2, ...quiet }]);
		expect(await historyTest.storedSequenceMinutes(name)).toEqual([]);

		clock.time = m + MINUTE + 1_000;
		await historyTest.runMinuteAlarm(name);
		expect(await historyTest.storedSequenceMinutes(name)).toEqual([m]);
		await issue(name, "next", 4);
		await issue(name, "reserve", 10);
		const rpc = new IdService(createExecutionContext(), envWith({}));
		const read = await rpc.sequenceHistory(name, { minutes: 5 });
		expect(read.history).toEqual([
			{ minute: m, issued: 5, requests: 2, ...quiet },
			{ minute: m + MINUTE, issued: 14, requests: 2, ...quiet },
		]);

		clock.time = m + 2 * MINUTE + 1_000;
		await historyTest.runMinuteAlarm(name);
		expect(await historyTest.storedSequenceMinutes(name)).toEqual([m, m + MINUTE]);
		expect((await historyTest.historyOf(name, 1440)).history).toEqual(read.history);
		// The window is counted back from now: the last minute holds neither row.
		expect(await historyTest.historyOf(name, 1)).toMatchObject({ name, minutes: 1, history: [] });
	});

	it("closes a minute its object was evicted in: the new life counts from the last stored minute", async () => {
		const { name, m, clock } = await historyTest.sequenceFrom("history-evicted", 3);
		await issue(name, "next", 2);
		clock.time = m + MINUTE + 1_000;
		await historyTest.runMinuteAlarm(name);

		clock.time = m + MINUTE + 5_000;
		await issue(name, "next", 6);
		await abortSequenceObject(name); // idle objects are evicted: the alarm starts a new life
		await historyTest.sequenceClockAt(name, m + 2 * MINUTE + 1_000);
		await historyTest.runMinuteAlarm(name);
		expect(await historyTest.storedSequenceMinutes(name)).toEqual([m, m + MINUTE]);
		expect((await historyTest.historyOf(name, 10)).history).toEqual([
			{ minute: m, issued: 2, requests: 1, ...quiet },
			{ minute: m + MINUTE, issued: 6, requests: 1, ...quiet },
		]);
	});
});
