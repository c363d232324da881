/**
 * Clock faults through the Durable Object's replaceable clock, inside workerd:
 * regressions across the whole range (1 ms to 10 s) while concurrent requests
 * arrive, a clock that jumps around under load (fast-check, fixed seed) and the end
 * of the layout (a frozen clock at rollover is in snowflake-borrow.test.ts).
 * clock-restarts.test.ts holds restarts
 * with the clock behind the stored mark; snowflake-clock.test.ts and
 * snowflake-restart.test.ts hold the single-value cases; this file covers the
 * ranges around the limits.
 *
 * Worker IDs 100-149 (storage is per file; IDs are per test).
 *
 * Requests go straight to `app.fetch` (see clock-fault-requests.ts).
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/wire";
import { expectSnowflakesIncreasing } from "../shared/order";
import { tickOf } from "../shared/ticks";
import {
	appJson,
	big,
	concurrentRequests,
	faultTally,
	type Ids,
	issueOrder,
	LEASE_MS,
	layout,
	MAX_BACKWARD_MS,
	MAX_BORROW_MS,
	objectStats,
	REGRESSIONS_MS,
	T,
} from "./clock-fault-requests";
import { useTestClock, YieldingClock } from "./helpers";

const CONCURRENT = 20;
const tally = faultTally("clock-faults");

describe("a clock regression of 1 ms to 10 s while 20 requests arrive", () => {
	it.each(REGRESSIONS_MS.map((ms, i) => [ms, 100 + i] as const))(
		"%i ms back (worker ID %i)",
		async (backMs, workerId) => {
			const clock = await useTestClock(workerId, T);
			const before = await appJson<Ids>(`/snowflake/${workerId}?count=5`);
			expect(before.status).toBe(200);
			const last = big(before.body.ids.at(-1));

			clock.time = T - backMs;
			tally.faults++;
			tally.requests += CONCURRENT;
			const answers = await concurrentRequests(workerId, CONCURRENT);

			// Borrowing covers the first MAX_BORROW_MS of the step; the rest is waited out.
			const waitMs = Math.max(0, backMs - MAX_BORROW_MS);
			if (waitMs <= MAX_BACKWARD_MS) {
				// Waited out once (the others queue behind it), then served one at a time, in order.
				for (const a of answers) expect(a.status).toBe(200);
				const ids = issueOrder(answers);
				expect(new Set(ids).size).toBe(ids.length);
				expectSnowflakesIncreasing([...before.body.ids, ...ids]);
				// The same tick goes on: the sequence simply continues.
				expect(big(ids[0])).toBe(last + 1n);
				expect(clock.sleeps).toEqual(waitMs > 0 ? [waitMs] : []);
				expect(await objectStats(workerId)).toMatchObject(
					waitMs > 0
						? { clockRegressions: 1, maxRegressionMs: backMs }
						: { clockRegressions: 0, maxLeadMs: backMs },
				);
				return;
			}

			// Refused, every one of them, without waiting and without touching the state.
			for (const a of answers) {
				expect(a.status).toBe(503);
				expect(a.body.error.code).toBe("clock_regression");
				expect(a.headers.get("Retry-After")).toBe(String(Math.ceil(waitMs / 1000)));
				expect(a.body.error.message).toContain(`${backMs} ms behind`);
			}
			expect(clock.sleeps).toEqual([]);
			expect(await objectStats(workerId)).toMatchObject({
				issued: 5,
				requests: 1 + CONCURRENT,
				clockRegressions: CONCURRENT,
				maxRegressionMs: backMs,
				leaseWrites: 1,
				lastTimestamp: T,
			});
			// When the clock recovers, the next ID continues the same tick's sequence.
			clock.time = T;
			const after = await appJson<Ids>(`/snowflake/${workerId}?count=3`);
			expect(after.status).toBe(200);
			expect(big(after.body.ids[0])).toBe(last + 1n);
			expect(tickOf(after.body.ids[0])).toBe(tickOf(before.body.ids[0]));
		},
	);
});

/**
 * A clock driven by a script: each reading applies the next step, cycling. A step
 * is a move forward (0-3 ms), a lasting step back, or a spike (one reading off by
 * that much, the clock itself unchanged): an NTP step, a VM pause, a bad host.
 */
type Step = { kind: "forward" | "back" | "spike"; ms: number };

class FaultStepClock extends YieldingClock {
	private i = 0;
	faults = 0;
	/** The latest time this clock has shown. */
	high: number;
	constructor(
		time: number,
		private readonly steps: Step[],
	) {
		super(time);
		this.high = time;
	}
	override now(): number {
		const step = this.steps[this.i++ % this.steps.length] as Step;
		if (step.kind === "forward") this.time += step.ms;
		else this.faults++;
		if (step.kind === "back") this.time -= step.ms;
		this.high = Math.max(this.high, this.time);
		return step.kind === "spike" ? this.time - step.ms : this.time;
	}
	override async sleep(ms: number): Promise<void> {
		this.sleeps.push(ms);
		await scheduler.wait(1); // yield for real, so other requests interleave
		this.time += ms;
		this.high = Math.max(this.high, this.time);
	}
}

const stepArb: fc.Arbitrary<Step> = fc.oneof(
	{ weight: 12, arbitrary: fc.record({ kind: fc.constant("forward" as const), ms: fc.nat(3) }) },
	{
		weight: 2,
		arbitrary: fc.record({
			kind: fc.constantFrom("back" as const, "spike" as const),
			ms: fc.integer({ min: 1, max: MAX_BACKWARD_MS }),
		}),
	},
	{
		weight: 1,
		arbitrary: fc.record({
			kind: fc.constantFrom("back" as const, "spike" as const),
			ms: fc.integer({ min: MAX_BACKWARD_MS + 1, max: 10_000 }),
		}),
	},
);

describe("a clock that jumps around while requests arrive (fast-check, fixed seed)", () => {
	it("never repeats or reorders; waits out what it may and refuses the rest with 503", async () => {
		const workerId = 108;
		let start = T;
		const seen = new Set<string>();
		let previousMax = -1n;
		let served = 0;
		let refused = 0;
		await fc.assert(
			fc.asyncProperty(
				// A clock must also move forward sometimes, or nothing can ever be issued.
				fc
					.array(stepArb, { minLength: 1, maxLength: 40 })
					.map((steps) => [...steps, { kind: "forward" as const, ms: 1 }]),
				fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 3, maxLength: 15 }),
				async (steps, counts) => {
					const clock = new FaultStepClock(start, steps);
					await useTestClock(workerId, clock);
					const answers = await Promise.all(
						counts.map((count) =>
							appJson<Ids & ErrorBody>(`/snowflake/${workerId}?count=${count}`),
						),
					);
					tally.faults += clock.faults;
					tally.requests += counts.length;
					const onlySmallFaults = steps.every(
						(s) => s.kind === "forward" || s.ms <= MAX_BACKWARD_MS,
					);
					for (const [i, a] of answers.entries()) {
						if (a.status === 200) {
							expect(a.body.ids).toHaveLength(counts[i] as number);
							served++;
							continue;
						}
						expect(a.status).toBe(503);
						expect(a.body.error.code).toBe("clock_regression");
						expect(Number(a.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
						// Steps within the limit are refused only when, repeated while calls queue,
						// their waits add up past MAX_WAIT_MS: the budget left was the limit.
						const allowed = Number(/more than the (\d+) ms/.exec(a.body.error.message)?.[1]);
						if (onlySmallFaults) expect(allowed).toBeLessThan(MAX_BACKWARD_MS);
						refused++;
					}
					const ids = issueOrder(answers);
					expectSnowflakesIncreasing(ids);
					if (ids.length > 0) expect(big(ids[0]) > previousMax).toBe(true);
					const repeated = ids.filter((id) => seen.has(id)); // one expect, not one per ID
					expect(repeated).toEqual([]);
					for (const id of ids) seen.add(id);
					if (ids.length > 0) previousMax = big(ids.at(-1));
					// The next run's clock starts well past anything issued in this one.
					start = clock.high + 2 * (MAX_BACKWARD_MS + LEASE_MS);
				},
			),
			{ seed: 0x1d5eed, numRuns: 50, endOnFailure: true },
		);
		expect(served).toBeGreaterThan(0);
		expect(refused).toBeGreaterThan(0);
	}, 30_000);
});

describe("the end of the layout", () => {
	it("issues in the last tick, then refuses with layout_exhausted and never wraps around", async () => {
		const workerId = 111;
		const clock = await useTestClock(workerId, layout.exhaustsAt - 1);
		const last = await appJson<Ids>(`/snowflake/${workerId}?count=10`);
		expect(last.status).toBe(200);
		expect(tickOf(last.body.ids[0])).toBe(layout.tickLimit - 1);
		for (const id of last.body.ids) expect(BigInt(id) < 2n ** 63n).toBe(true);
		const maxIssued = big(last.body.ids.at(-1));

		// A batch that needs the next tick runs into the end of the layout, without waiting.
		tally.faults++;
		const overflow = await appJson<ErrorBody>(`/snowflake/${workerId}?count=10000`);
		expect(overflow.status).toBe(500);
		expect(overflow.body.error.code).toBe("layout_exhausted");
		expect(clock.sleeps).toEqual([]);

		for (const later of [1, 60_000, 10 * 365 * 86_400_000]) {
			clock.time = layout.exhaustsAt + later;
			const refused = await appJson<ErrorBody>(`/snowflake/${workerId}`);
			expect(refused.status).toBe(500);
			expect(refused.body.error.code).toBe("layout_exhausted");
		}
		// Back inside the range, the object still only moves forward: nothing at or below
		// what it issued (the last tick is used up, so it waits and meets the end again).
		clock.time = layout.exhaustsAt - 1;
		const again = await appJson<Ids & ErrorBody>(`/snowflake/${workerId}`);
		if (again.status === 200) expect(big(again.body.ids[0]) > maxIssued).toBe(true);
		else expect(again.body.error.code).toBe("layout_exhausted");
	});

	it("answers layout_exhausted at once for a clock far past the end", async () => {
		const workerId = 112;
		const clock = await useTestClock(workerId, layout.exhaustsAt + 86_400_000);
		tally.faults++;
		const refused = await appJson<ErrorBody>(`/snowflake/${workerId}?count=3`);
		expect(refused.status).toBe(500);
		expect(refused.body.error.code).toBe("layout_exhausted");
		expect(clock.sleeps).toEqual([]);
		expect(await objectStats(workerId)).toMatchObject({ issued: 0, leaseWrites: 0 });
	});
});
