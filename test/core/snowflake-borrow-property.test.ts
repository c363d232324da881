/**
 * A model-style property over random clock scripts with borrowed time and
 * restarts: IDs strictly increase across calls and lives, no tick leads the clock
 * by more than the bound (the lease as well, just above a restored mark), no ID is
 * issued in a tick its stored mark does not cover, and refusals are only the
 * retryable ones.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdError } from "../../src/ids/errors";
import { SnowflakeGenerator } from "../../src/ids/snowflake/generator";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";
import { FrozenClock } from "../shared/fake-clock";

const layout = new SnowflakeLayout({ ...TWITTER_LAYOUT, epoch: 0 });
const LEASE_MS = 20;

const step = fc.record({
	jump: fc.oneof(fc.integer({ min: -8, max: 4 }), fc.integer({ min: -1_200, max: 30 })),
	count: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 10_000 })),
	restart: fc.integer({ min: 0, max: 9 }).map((n) => n === 0), // a restart before one step in ten
});

describe("SnowflakeGenerator with borrowed time, random clock scripts", () => {
	it("stays strictly increasing, within the lead bound and under the stored mark, across restarts", async () => {
		await fc.assert(
			fc.asyncProperty(
				// Up to 40 steps (fast-check's default size would give about 5): the clock passes
				// the 20-ms lease, ticks roll over, and a run restarts about four times.
				fc.array(step, { minLength: 1, maxLength: 40, size: "max" }),
				fc.integer({ min: 0, max: 50 }),
				fc.integer({ min: 1, max: 10_000 }),
				async (steps, maxBorrowMs, seed) => {
					const clock = new FrozenClock(50_000);
					let rng = seed;
					let durable: number | undefined; // the stored mark, as storage holds it
					let restoredMark: number | undefined;
					const make = () =>
						new SnowflakeGenerator({
							layout,
							workerId: 7,
							clock,
							maxBackwardMs: 1_000,
							leaseMs: LEASE_MS,
							maxBorrowMs,
							maxWaitMs: 2_000,
							restoredMark,
							restoredLeaseMs: LEASE_MS,
							random: () => {
								rng = (rng * 48271) % 2147483647; // a seeded Lehmer generator
								return (rng % 1000) / 1000;
							},
							persistMark: (tick) => {
								durable = tick;
							},
						});
					let gen = make();
					let previous = -1n;
					for (const { jump, count, restart } of steps) {
						if (restart) {
							restoredMark = durable;
							gen = make();
						}
						clock.time = Math.max(0, clock.time + jump);
						let runs: Awaited<ReturnType<SnowflakeGenerator["nextRuns"]>>;
						try {
							runs = await gen.nextRuns(count);
						} catch (error) {
							expect(error).toBeInstanceOf(IdError);
							expect(["clock_regression", "overloaded"]).toContain((error as IdError).code);
							continue;
						}
						expect(runs.reduce((n, run) => n + run.count, 0)).toBe(count);
						for (const run of runs) {
							expect(run.tick).toBeLessThanOrEqual(durable ?? -1);
							const leadMs = layout.msOf(run.tick) - clock.time;
							const catchingUp =
								restoredMark !== undefined && run.tick <= restoredMark + 1 + maxBorrowMs;
							expect(leadMs).toBeLessThanOrEqual(
								catchingUp ? LEASE_MS + maxBorrowMs + 1 : maxBorrowMs,
							);
							const first = layout.compose({
								tick: run.tick,
								workerId: 7,
								sequence: run.firstSequence,
							});
							expect(first > previous).toBe(true);
							previous = first + BigInt(run.count - 1);
						}
					}
				},
			),
			{ seed: 0xb0a0, numRuns: 150 },
		);
	}, 30_000);
});
