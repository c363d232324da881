/**
 * Ordered mode is linearizable, as a property over random interleavings: batches of
 * concurrent `next` calls with random counts, each started after a random delay;
 * every answer is consecutive, no number is answered twice, and for every pair of
 * calls where one returned before the other began, the first got smaller numbers.
 */
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createdSequence, expectConsecutive, operations } from "./sequence-helpers";

/** A call as the test saw it: when it began and returned (one logical clock), and its numbers. */
interface Observed {
	began: number;
	ended: number;
	first: bigint;
	last: bigint;
}

const call = fc.record({ count: fc.integer({ min: 1, max: 50 }), delayMs: fc.nat({ max: 3 }) });
const schedule = fc.array(fc.array(call, { minLength: 1, maxLength: 12 }), {
	minLength: 1,
	maxLength: 4,
});

describe("ordered mode, linearizable", () => {
	// 100 runs, each a create (its catalog shard often a new object in the test's storage).
	it("a call that returned before another began got smaller numbers; none twice", {
		timeout: 20_000,
	}, async () => {
		const { ops, config } = await operations();
		let runs = 0;
		await fc.assert(
			fc.asyncProperty(fc.nat(), schedule, async (start, batches) => {
				runs++;
				const name = await createdSequence("linear", { start });
				let clock = 0;
				const observed: Observed[] = [];
				for (const batch of batches) {
					// The next batch starts while the last calls of this one may still run.
					await Promise.all(
						batch.map(async ({ count, delayMs }) => {
							await scheduler.wait(delayMs);
							const began = clock++;
							const answer = await ops.nextInSequence(env, config, { name, count });
							const ended = clock++;
							expectConsecutive(answer);
							expect(answer.count).toBe(count);
							const first = BigInt(answer.first);
							observed.push({ began, ended, first, last: first + BigInt(count) - 1n });
						}),
					);
				}
				const numbers = observed.flatMap(({ first, last }) => {
					const all: bigint[] = [];
					for (let n = first; n <= last; n++) all.push(n);
					return all;
				});
				expect(new Set(numbers).size).toBe(numbers.length);
				for (const a of observed) {
					for (const b of observed) {
						if (a.ended < b.began) expect(a.last).toBeLessThan(b.first);
					}
				}
			}),
			{ numRuns: 25 },
		);
		expect(runs).toBe(25);
	});
});
