/**
 * Clock faults through the Durable Object's replaceable clock, inside workerd:
 * regressions across the whole range (1 ms to 10 s) while concurrent requests
 * arrive, a clock that jumps around under load (fast-check, fixed seed), the end
 * of the layout, and restarts with the clock behind the stored mark (a frozen clock
 * at rollover is in snowflake-borrow.test.ts). snowflake-clock.test.ts and snowflake-restart.test.ts hold the
 * single-value cases; this file covers the ranges around the limits.
 *
 * Worker IDs 100-149 (storage is per file; IDs are per test).
 *
 * Requests go straight to `app.fetch` (the Worker's fetch, with its env): under
 * vitest-pool-workers 0.15.1 each `exports.default.fetch` in a file is slower than
 * the last (cloudflare/workers-sdk#15446), and this file sends about 500.
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/layout";
import { app } from "../../src/worker/app";
import { expectIncreasing, issueOrder, restart, TestClock, useTestClock } from "./helpers";

const layout = new SnowflakeLayout(TWITTER_LAYOUT);
const T = 1_800_000_000_000; // a fixed instant, so nothing depends on the host clock
const MAX_BACKWARD_MS = 1_000; // MAX_CLOCK_BACKWARD_MS in wrangler.jsonc
const LEASE_MS = 1_000; // LEASE_MS in wrangler.jsonc
const MAX_BORROW_MS = 5; // MAX_BORROW_MS in wrangler.jsonc: smaller steps back are absorbed
const REGRESSIONS_MS = [1, 10, 100, 999, 1_000, 1_001, 5_000, 10_000];
const CONCURRENT = 20;

type Ids = { ids: string[] };
type ErrorBody = { error: { code: string; message: string } };
type Answer = { status: number; body: Ids & ErrorBody; headers: Headers };

/** Clock faults injected by this file (printed at the end, for docs/RELIABILITY.md). */
let faultsInjected = 0;
let requestsUnderFault = 0;
afterAll(() => {
	console.log(
		`clock-faults: ${faultsInjected} clock faults injected, ${requestsUnderFault} requests under them`,
	);
});

async function callJson<T>(
	path: string,
	init?: RequestInit,
): Promise<{ status: number; body: T; headers: Headers }> {
	const request = new Request(`https://ids.test${path}`, init);
	const response = await app.fetch(request, env, createExecutionContext());
	return { status: response.status, body: (await response.json()) as T, headers: response.headers };
}

const big = (id: string | undefined) => BigInt(id as string);
const tickOf = (id: string | undefined) => layout.decompose(big(id)).tick;

function concurrentRequests(workerId: number, n: number): Promise<Answer[]> {
	return Promise.all(
		Array.from({ length: n }, (_, i) =>
			callJson<Ids & ErrorBody>(`/snowflake/${workerId}?count=${1 + ((i * 7) % 50)}`, {
				method: i % 2 ? "POST" : "GET",
			}),
		),
	);
}

async function stats(workerId: number) {
	return (await callJson<Record<string, unknown>>(`/snowflake/${workerId}/stats`)).body;
}

describe("a clock regression of 1 ms to 10 s while 20 requests arrive", () => {
	it.each(REGRESSIONS_MS.map((ms, i) => [ms, 100 + i] as const))(
		"%i ms back (worker ID %i)",
		async (backMs, workerId) => {
			const clock = await useTestClock(workerId, T);
			const before = await callJson<Ids>(`/snowflake/${workerId}?count=5`);
			expect(before.status).toBe(200);
			const last = big(before.body.ids.at(-1));

			clock.time = T - backMs;
			faultsInjected++;
			requestsUnderFault += CONCURRENT;
			const answers = await concurrentRequests(workerId, CONCURRENT);
			// Borrowing covers the first MAX_BORROW_MS of the step; the rest is waited out.
			const waitMs = Math.max(0, backMs - MAX_BORROW_MS);

			if (waitMs <= MAX_BACKWARD_MS) {
				// Waited out once (the others queue behind it), then served one at a time, in order.
				for (const a of answers) expect(a.status).toBe(200);
				const ids = issueOrder(answers);
				expect(new Set(ids).size).toBe(ids.length);
				expect(expectIncreasing([...before.body.ids, ...ids])).toBe(true);
				// The same tick goes on: the sequence simply continues.
				expect(big(ids[0])).toBe(last + 1n);
				expect(clock.sleeps).toEqual(waitMs > 0 ? [waitMs] : []);
				expect(await stats(workerId)).toMatchObject(
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
			expect(await stats(workerId)).toMatchObject({
				issued: 5,
				requests: 1 + CONCURRENT,
				clockRegressions: CONCURRENT,
				maxRegressionMs: backMs,
				leaseWrites: 1,
				lastTimestamp: T,
			});
			// When the clock recovers, the next ID continues the same tick's sequence.
			clock.time = T;
			const after = await callJson<Ids>(`/snowflake/${workerId}?count=3`);
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

class ScriptedClock extends TestClock {
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
	it("never repeats or reorders; waits out what it may (within MAX_WAIT_MS) and refuses the rest with 503", async () => {
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
					const clock = new ScriptedClock(start, steps);
					await useTestClock(workerId, clock);
					const answers = await Promise.all(
						counts.map((count) =>
							callJson<Ids & ErrorBody>(`/snowflake/${workerId}?count=${count}`),
						),
					);
					faultsInjected += clock.faults;
					requestsUnderFault += counts.length;
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
					expect(expectIncreasing(ids)).toBe(true);
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
		const last = await callJson<Ids>(`/snowflake/${workerId}?count=10`);
		expect(last.status).toBe(200);
		expect(tickOf(last.body.ids[0])).toBe(layout.tickLimit - 1);
		for (const id of last.body.ids) expect(BigInt(id) < 2n ** 63n).toBe(true);
		const maxIssued = big(last.body.ids.at(-1));

		// A batch that needs the next tick runs into the end of the layout, without waiting.
		faultsInjected++;
		const overflow = await callJson<ErrorBody>(`/snowflake/${workerId}?count=10000`);
		expect(overflow.status).toBe(500);
		expect(overflow.body.error.code).toBe("layout_exhausted");
		expect(clock.sleeps).toEqual([]);

		for (const later of [1, 60_000, 10 * 365 * 86_400_000]) {
			clock.time = layout.exhaustsAt + later;
			const refused = await callJson<ErrorBody>(`/snowflake/${workerId}`);
			expect(refused.status).toBe(500);
			expect(refused.body.error.code).toBe("layout_exhausted");
		}
		// Back inside the range, the object still only moves forward: nothing at or below
		// what it issued (the last tick is used up, so it waits and meets the end again).
		clock.time = layout.exhaustsAt - 1;
		const again = await callJson<Ids & ErrorBody>(`/snowflake/${workerId}`);
		if (again.status === 200) expect(big(again.body.ids[0]) > maxIssued).toBe(true);
		else expect(again.body.error.code).toBe("layout_exhausted");
	});

	it("answers layout_exhausted at once for a clock far past the end", async () => {
		const workerId = 112;
		const clock = await useTestClock(workerId, layout.exhaustsAt + 86_400_000);
		faultsInjected++;
		const refused = await callJson<ErrorBody>(`/snowflake/${workerId}?count=3`);
		expect(refused.status).toBe(500);
		expect(refused.body.error.code).toBe("layout_exhausted");
		expect(clock.sleeps).toEqual([]);
		expect(await stats(workerId)).toMatchObject({ issued: 0, leaseWrites: 0 });
	});
});

describe("a restart with the clock behind the stored mark (mark = last tick + 1,000 ms lease)", () => {
	it.each(REGRESSIONS_MS.map((ms, i) => [ms, 120 + i] as const))(
		"new clock %i ms behind the last ID (worker ID %i), 10 requests waiting",
		async (backMs, workerId) => {
			await useTestClock(workerId, T);
			const before = await callJson<Ids>(`/snowflake/${workerId}?count=100`);
			expect(before.status).toBe(200);
			const maxBefore = big(before.body.ids.at(-1));
			const markTick = tickOf(before.body.ids[0]) + LEASE_MS;
			await restart(workerId);

			const behind = await useTestClock(workerId, T - backMs);
			faultsInjected++;
			requestsUnderFault += 10;
			const answers = await concurrentRequests(workerId, 10);
			// A new life continues at the mark + 1 as borrowed time, up to the lease the mark
			// was written with (+ MAX_BORROW_MS + 1 tick) ahead of its clock; the rest it waits
			// out up to MAX_CLOCK_BACKWARD_MS.
			const waitMs = Math.max(0, backMs - MAX_BORROW_MS);

			if (waitMs <= MAX_BACKWARD_MS) {
				for (const a of answers) expect(a.status).toBe(200);
				const ids = issueOrder(answers);
				expect(new Set(ids).size).toBe(ids.length);
				expect(expectIncreasing([before.body.ids.at(-1) as string, ...ids])).toBe(true);
				expect(tickOf(ids[0])).toBe(markTick + 1);
				expect(behind.sleeps).toEqual(waitMs > 0 ? [waitMs] : []);
				// The wait for the mark is not a clock regression.
				expect(await stats(workerId)).toMatchObject({ clockRegressions: 0 });
				return;
			}

			for (const a of answers) {
				expect(a.status).toBe(503);
				expect(a.body.error.code).toBe("clock_regression");
				expect(a.headers.get("Retry-After")).toBe(String(Math.ceil(waitMs / 1000)));
			}
			expect(behind.sleeps).toEqual([]);
			expect(await stats(workerId)).toMatchObject({ issued: 0, lastTimestamp: null });
			// Once the clock is past the mark, it issues above everything of the earlier life.
			behind.time = layout.msOf(markTick) + 1;
			const after = await callJson<Ids>(`/snowflake/${workerId}?count=50`);
			expect(after.status).toBe(200);
			expect(big(after.body.ids[0]) > maxBefore).toBe(true);
			expect(tickOf(after.body.ids[0])).toBeGreaterThan(markTick);
		},
	);

	it("a restart while requests wait out a regression: nothing issued twice", async () => {
		const workerId = 128;
		const clock = await useTestClock(workerId, T);
		const before = await callJson<Ids>(`/snowflake/${workerId}?count=20`);
		const maxBefore = big(before.body.ids.at(-1));
		clock.time = T - 800; // the waiting requests sleep 800 ms of test time
		faultsInjected++;
		const waiting = concurrentRequests(workerId, 5);
		await scheduler.wait(2);
		await restart(workerId);
		const cut = await waiting;
		requestsUnderFault += cut.length;
		// Cut off by the restart: served before it ended, or a JSON 5xx (today `internal`:
		// the runtime's reset error is not marked retryable), never a repeat.
		const seen = new Set(before.body.ids);
		for (const a of cut) {
			if (a.status === 200) {
				expect(a.body.ids.filter((id) => seen.has(id))).toEqual([]);
				for (const id of a.body.ids) seen.add(id);
			} else {
				expect(a.status).toBeGreaterThanOrEqual(500);
				expect(a.body.error.code).toMatch(/^(internal|overloaded|clock_regression)$/);
			}
		}
		// The new life, on a clock behind the mark, issues above all of it.
		const behind = await useTestClock(workerId, T - 500);
		const after = await callJson<Ids>(`/snowflake/${workerId}?count=50`);
		expect(after.status).toBe(200);
		const maxSeen = [...seen].map(BigInt).reduce((a, b) => (a > b ? a : b), maxBefore);
		expect(big(after.body.ids[0]) > maxSeen).toBe(true);
		expect(behind.sleeps.length).toBeGreaterThan(0);
	});
});
