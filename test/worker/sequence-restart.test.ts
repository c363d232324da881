/**
 * A sequence object that restarts (eviction, crash, deploy) never hands out a number
 * twice: every call's numbers are stored before its answer leaves, so a new instance
 * goes on above every number answered, and above those of calls cut between storing
 * and answering (their answers are lost: gaps, never repeats). Cut calls are 503.
 */
import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { IdError } from "../../src/ids/errors";
import type { SequenceNumbers } from "../../src/wire";
import type { IssuedResult } from "../../src/worker/object/object-protocol";
import type { SequenceObject } from "../../src/worker/object/sequence-object";
import { printTestStats } from "./helpers";
import {
	abortSequenceObject,
	createdSequence,
	expectConsecutive,
	operations,
	sequenceStub,
} from "./sequence-helpers";

/** `work`'s outcome as `Promise.allSettled` gives it, with its rejection handled now. */
function settle<T>(work: Promise<T>): Promise<PromiseSettledResult<T>> {
	return work.then(
		(value) => ({ status: "fulfilled", value }),
		(reason: unknown) => ({ status: "rejected", reason }),
	);
}

describe("a restarted sequence object", () => {
	it("goes on from the stored next number after each restart", async () => {
		const { ops, config } = await operations();
		const name = await createdSequence("restart", { start: 7 });
		const seen: string[] = [];
		for (let round = 0; round < 4; round++) {
			seen.push(...(await ops.nextInSequence(env, config, { name, count: 3 })).numbers);
			seen.push(...[(await ops.reserveInSequence(env, { name, count: 2 })).last]);
			await abortAllDurableObjects();
		}
		expect(seen).toEqual([
			"7",
			"8",
			"9",
			"11",
			"12",
			"13",
			"14",
			"16",
			"17",
			"18",
			"19",
			"21",
			"22",
			"23",
			"24",
			"26",
		]);
		const status = await ops.sequenceStatus(env, { name });
		expect(status).toMatchObject({ next: "27", issued: "20", requests: 8 });
	});

	it("answers no number twice when it is reset while calls are in flight", async () => {
		const { ops, config } = await operations();
		const name = await createdSequence("restart-inflight");
		let cut = 0;
		const answered: bigint[] = [];
		for (let round = 0; round < 5; round++) {
			// The reset is sent among the calls: some run before it, some are cut.
			const calls: Promise<PromiseSettledResult<SequenceNumbers>>[] = [];
			let reset: Promise<void> = Promise.resolve();
			for (let i = 0; i < 40; i++) {
				if (i === 20) reset = abortSequenceObject(name);
				// Settled at once: a call cut while the loop waits is not an unhandled rejection.
				calls.push(settle(ops.nextInSequence(env, config, { name, count: (i % 3) + 1 })));
				if (i % 4 === 0) await scheduler.wait(0);
			}
			const settled = await Promise.all(calls);
			await reset;
			const before = answered.length ? answered[answered.length - 1] : 0n;
			const now: bigint[] = [];
			for (const outcome of settled) {
				if (outcome.status === "fulfilled") {
					expectConsecutive(outcome.value);
					now.push(...outcome.value.numbers.map(BigInt));
				} else {
					cut++;
					// A cut call is a retryable 503, never a 500.
					expect(outcome.reason).toBeInstanceOf(IdError);
					expect((outcome.reason as IdError<string>).code).toBe("unavailable");
				}
			}
			now.sort((a, b) => (a < b ? -1 : 1));
			// Every number answered after the reset lies above every one answered before it.
			if (now.length > 0) expect(now[0]).toBeGreaterThan(before as bigint);
			answered.push(...now);
		}
		expect(new Set(answered).size).toBe(answered.length);
		const status = await ops.sequenceStatus(env, { name });
		// What was issued and not answered was lost with the cut calls: gaps, counted as issued.
		expect(BigInt(status.issued)).toBeGreaterThanOrEqual(BigInt(answered.length));
		expect(BigInt(status.next as string)).toBeGreaterThan(answered[answered.length - 1] as bigint);
		printTestStats(
			`sequence-restart: ${cut} calls cut by resets, ${answered.length} numbers answered, ${status.issued} issued`,
		);
		expect(cut).toBeGreaterThan(0);
	});

	/** Inside the object: a `next` of 3 that stores, then (`durable`: once storage says it is) a reset. */
	async function cutAfterStoring(
		name: string,
		durable: boolean,
	): Promise<IssuedResult | undefined> {
		let lost: IssuedResult | undefined;
		await runInDurableObject(sequenceStub(name), async (instance: SequenceObject, state) => {
			lost = await instance.next(name, 3);
			if (durable) await state.storage.sync();
			state.abort("deliberate test reset (expected)");
		}).catch(() => undefined); // abort throws in the aborting call
		return lost;
	}

	it.each([
		// Durable before the reset: the numbers are not issued again; the lost answer is a gap.
		{ durable: true, after: ["6", "7"], issued: "7" },
		// Undone by the reset: issued again, which is safe, as their answer never left (the output gate).
		{ durable: false, after: ["3", "4"], issued: "4" },
	])(
		"after a call cut between storing and answering (durable: $durable) goes on from what storage holds",
		async ({ durable, after, issued }) => {
			const { ops, config } = await operations();
			const name = await createdSequence("restart-cut");
			expect((await ops.nextInSequence(env, config, { name, count: 2 })).numbers).toEqual([
				"1",
				"2",
			]);
			expect(await cutAfterStoring(name, durable)).toMatchObject({
				ok: true,
				first: "3",
				last: "5",
			});
			expect((await ops.nextInSequence(env, config, { name, count: 2 })).numbers).toEqual(after);
			expect(await ops.sequenceStatus(env, { name })).toMatchObject({ issued });
		},
	);
});
