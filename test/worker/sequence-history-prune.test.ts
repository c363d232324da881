/**
 * A sequence's history keeps a day: the minute alarm that stores a minute deletes
 * the rows over a day old, in the same write. The object's clock is frozen and moved
 * by the test; alarms run when the test says.
 */
import { describe, expect, it } from "vitest";
import { call } from "./helpers";
import * as historyTest from "./sequence-history-helpers";

const { MINUTE } = historyTest;

const DAY = 24 * 60 * MINUTE;

describe("a sequence's history", () => {
	it("prunes the minutes over a day old when it stores a new one", async () => {
		// Created a day and five minutes ago, on its own clock.
		const {
			name,
			m: yesterday,
			clock,
		} = await historyTest.sequenceFrom("history-prune", 24 * 60 + 5);
		const now = yesterday + DAY + 5 * MINUTE;
		expect((await call(`/sequences/${name}/next?count=3`)).status).toBe(200);
		clock.time = yesterday + MINUTE + 1_000;
		await historyTest.runMinuteAlarm(name);
		expect(await historyTest.storedSequenceMinutes(name)).toEqual([yesterday]);

		clock.time = now + 5;
		expect((await call(`/sequences/${name}/next?count=2`)).status).toBe(200);
		expect(await historyTest.storedSequenceMinutes(name)).toEqual([yesterday]); // kept until the next store
		clock.time = now + MINUTE + 1_000;
		await historyTest.runMinuteAlarm(name);
		expect(await historyTest.storedSequenceMinutes(name)).toEqual([now]);
		const { history } = await historyTest.historyOf(name, 1440);
		expect(history.map((m) => [m.minute, m.issued, m.requests])).toEqual([[now, 2, 1]]);
	});
});
