/**
 * How far an ID's time can lead the clock after restarts: at most LEASE_MS +
 * MAX_BORROW_MS + one tick, however many quick restarts come in a row (each new
 * life borrows from the stored mark as far as the lease it was written with; the
 * ticks borrowed while catching up must not be carried into the next lease).
 * Real objects in workerd, on a frozen clock that moves only by what they wait.
 *
 * Worker IDs 400-599 (storage is per file).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { IdRun } from "../../src/ids/snowflake/generator";
import { LEASE_MS, layout, MAX_BORROW_MS, T } from "./clock-fault-requests";
import { restart, snowflakeStub, useTestClock, YieldingClock } from "./helpers";

/** The documented bound on the lead of any issued ID's tick over the clock. */
const BOUND_MS = LEASE_MS + MAX_BORROW_MS + layout.timeUnitMs;

type Step =
	| { kind: "restart" }
	| { kind: "burst"; count: number }
	| { kind: "advance"; ms: number };

// Quick restarts (no time between them) with bursts that borrow are where a growing lead
// shows: weighted up.
const step: fc.Arbitrary<Step> = fc.oneof(
	{ arbitrary: fc.constant<Step>({ kind: "restart" }), weight: 3 },
	{
		arbitrary: fc.record({
			kind: fc.constant("burst" as const),
			count: fc.oneof(fc.integer({ min: 1, max: 30_000 }), fc.integer({ min: 1, max: 5_000 })),
		}),
		weight: 3,
	},
	{
		arbitrary: fc.record({
			kind: fc.constant("advance" as const),
			ms: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 1_500 })),
		}),
		weight: 1,
	},
);

let nextWorkerId = 400;

/** Runs the script on a fresh worker ID; answers the largest lead seen and the issued ticks in order. */
async function run(steps: Step[]) {
	const workerId = nextWorkerId++;
	const clock = await useTestClock(workerId, new YieldingClock(T));
	let largestLeadMs = 0;
	let last: IdRun | undefined;
	const leadOf = async () => {
		const result = await snowflakeStub(workerId).stats(workerId);
		if (!result.ok) throw new Error(result.detail);
		largestLeadMs = Math.max(largestLeadMs, result.stats.maxLeadMs);
	};
	for (const s of steps) {
		if (s.kind === "advance") clock.time += s.ms;
		if (s.kind === "restart") {
			await leadOf(); // this life's largest lead, read before it ends
			await restart(workerId);
			await useTestClock(workerId, clock);
		}
		if (s.kind === "burst") {
			// A stub per call: one that saw its object end stays broken.
			const result = await snowflakeStub(workerId).issue(workerId, s.count);
			if (!result.ok) throw new Error(`${result.code}: ${result.detail}`);
			for (const r of result.runs) {
				// Strictly above everything issued before, across every life.
				const above =
					!last ||
					r.tick > last.tick ||
					(r.tick === last.tick && r.firstSequence > last.firstSequence + last.count - 1);
				expect(above).toBe(true);
				last = r;
			}
		}
	}
	await leadOf();
	return largestLeadMs;
}

describe("the lead after restarts", () => {
	it("twelve quick restarts with a burst each keep every ID within LEASE_MS + MAX_BORROW_MS + one tick", async () => {
		const steps: Step[] = [{ kind: "burst", count: 1 }];
		for (let i = 0; i < 12; i++) steps.push({ kind: "restart" }, { kind: "burst", count: 5_000 });
		expect(await run(steps)).toBeLessThanOrEqual(BOUND_MS);
	});

	it("property: random restart, burst and clock scripts never lead the clock by more than the bound", async () => {
		await fc.assert(
			// Up to 14 steps (fast-check's default size would give about 5, too few restarts in a
			// row to show a lead that grows). A fixed seed: the same 25 scripts every run (with the
			// lease carried over whole, it fails at the 2nd; 6 of seeds 1-8 find that bug). No
			// shrinking (each try restarts objects in workerd): the failure prints seed and path.
			fc.asyncProperty(
				fc.array(step, { minLength: 1, maxLength: 14, size: "max" }),
				async (steps) => {
					expect(await run(steps)).toBeLessThanOrEqual(BOUND_MS);
				},
			),
			{ seed: 7, numRuns: 25, endOnFailure: true },
		);
	}, 60_000);
});
