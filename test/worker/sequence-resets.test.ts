/**
 * Sequences that start again each day, month or year, on a clock the test moves
 * inside the object: the period is the object's date in the sequence's time zone,
 * a new one starts again at `start`, every answer names it, and a clock that steps
 * back across midnight keeps the later period (numbers stay unique per period).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { checkSequenceSettings } from "../../src/ids/sequences";
import type { SequenceObject } from "../../src/worker/object/sequence-object";
import { FrozenClock } from "../shared/fake-clock";
import { operations, refusal, sequenceName, sequenceStub } from "./sequence-helpers";

/** A sequence created with `settings` whose object reads `clock`. */
async function sequenceOnClock(label: string, settings: unknown, clock: FrozenClock) {
	const name = sequenceName(label);
	await runInDurableObject(sequenceStub(name), (instance: SequenceObject) => {
		instance.clock = clock;
	});
	const { ops, config } = await operations();
	await ops.createSequence(env, { name, settings: checkSequenceSettings(settings) });
	const next = async (count = 1) => {
		const { numbers, period } = await ops.nextInSequence(env, config, { name, count });
		return { numbers, period };
	};
	return { name, ops, next };
}

describe("daily reset in a time zone", () => {
	it("starts again at local midnight (Asia/Kathmandu, UTC+5:45), and a step back keeps the new day", async () => {
		// 23:59:59.999 on 27 November in Kathmandu.
		const clock = new FrozenClock(Date.UTC(2026, 10, 27, 18, 14, 59, 999));
		const { name, ops, next } = await sequenceOnClock(
			"daily-ktm",
			{ start: 100, reset: "daily", timeZone: "Asia/Kathmandu" },
			clock,
		);
		expect(await next(2)).toEqual({ numbers: ["100", "101"], period: "2026-11-27" });
		clock.time += 1; // midnight in Kathmandu; still the 27th in UTC
		expect(await next(2)).toEqual({ numbers: ["100", "101"], period: "2026-11-28" });
		clock.time -= 2_000; // the clock steps back across midnight: the 28th stays
		expect(await next()).toEqual({ numbers: ["102"], period: "2026-11-28" });
		const range = await ops.reserveInSequence(env, { name, count: 3 });
		expect(range).toMatchObject({ first: "103", last: "105", period: "2026-11-28" });
		expect(await ops.sequenceStatus(env, { name })).toMatchObject({
			next: "106",
			period: "2026-11-28",
			issued: "8",
			requests: 4,
		});
	});

	it("keeps the UTC date's numbering until local midnight west of UTC (America/Los_Angeles)", async () => {
		// 23:30 on 27 November in Los Angeles (UTC-8) is 07:30 on the 28th in UTC.
		const clock = new FrozenClock(Date.UTC(2026, 10, 28, 7, 30));
		const { next } = await sequenceOnClock(
			"daily-la",
			{ reset: "daily", timeZone: "America/Los_Angeles" },
			clock,
		);
		expect(await next()).toEqual({ numbers: ["1"], period: "2026-11-27" });
		clock.time = Date.UTC(2026, 10, 28, 7, 59, 59, 999);
		expect(await next()).toEqual({ numbers: ["2"], period: "2026-11-27" });
		clock.time = Date.UTC(2026, 10, 28, 8, 0);
		expect(await next()).toEqual({ numbers: ["1"], period: "2026-11-28" });
	});

	it("enters a new period on a status read and keeps it when the clock steps back", async () => {
		const clock = new FrozenClock(Date.UTC(2026, 11, 31, 23, 59));
		const { name, ops, next } = await sequenceOnClock(
			"yearly",
			{ start: 0, reset: "yearly", timeZone: "UTC" },
			clock,
		);
		expect(await next(3)).toEqual({ numbers: ["0", "1", "2"], period: "2026" });
		clock.time = Date.UTC(2027, 0, 1, 0, 0);
		expect(await ops.sequenceStatus(env, { name })).toMatchObject({ next: "0", period: "2027" });
		clock.time = Date.UTC(2026, 11, 31, 23, 59, 30);
		expect(await next()).toEqual({ numbers: ["0"], period: "2027" });
	});

	it("refuses a faulty clock reading with a retryable clock_regression and issues nothing", async () => {
		const clock = new FrozenClock(Date.UTC(2026, 5, 1));
		const { name, ops, next } = await sequenceOnClock("monthly", { reset: "monthly" }, clock);
		expect(await next()).toEqual({ numbers: ["1"], period: "2026-06" });
		clock.time = Number.NaN;
		const refused = await refusal(next());
		expect(refused.code).toBe("clock_regression");
		clock.time = Date.UTC(2026, 5, 2);
		expect(await ops.sequenceStatus(env, { name })).toMatchObject({ next: "2", issued: "1" });
	});
});
