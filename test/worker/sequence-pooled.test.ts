/**
 * Pooled mode: each isolate (here: each `SequencePools`, which stands for one
 * isolate's module state) hands out numbers from segments of the sequence's
 * object. Numbers are unique across buffers, increase within each, and a number
 * handed out POOL_MAX_AGE_MS after another is larger; with POOL_MAX_AGE_MS 0 every
 * call goes to the object.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_BUFFERS } from "../../src/worker/operations/sequence-pools";
import {
	createdSequence,
	expectConsecutive,
	type Isolate,
	isolate,
	operations,
} from "./sequence-helpers";

describe("pooled mode", () => {
	it("hands out unique numbers across several isolates' buffers, increasing in each, from few segments", async () => {
		const { ops } = await operations();
		const name = await createdSequence("pooled", { mode: "pooled" });
		const isolates = [isolate(), isolate(), isolate()];
		const seen = isolates.map(() => [] as bigint[]);
		let calls = 0;
		for (let round = 0; round < 40; round++) {
			const answers = await Promise.all(
				isolates.map(({ config, pools }, i) =>
					ops.nextInSequence(env, config, { name, count: 1 + ((round + i) % 4) }, undefined, pools),
				),
			);
			calls += answers.length;
			for (const [i, answer] of answers.entries()) {
				expectConsecutive(answer);
				seen[i]?.push(...answer.numbers.map(BigInt));
			}
		}
		for (const numbers of seen) {
			for (let i = 1; i < numbers.length; i++) {
				expect(numbers[i]).toBeGreaterThan(numbers[i - 1] as bigint);
			}
		}
		const all = seen.flat();
		expect(new Set(all).size).toBe(all.length);
		const status = await ops.sequenceStatus(env, { name });
		// One direct call per isolate (it learns the mode), then segments: far fewer object calls.
		expect(status.requests).toBeLessThan(calls / 4);
		expect(BigInt(status.issued)).toBeGreaterThanOrEqual(BigInt(all.length));
		expect(status.step).toBeGreaterThanOrEqual(10);
	});

	it("uses a segment for at most POOL_MAX_AGE_MS: later numbers are above another isolate's earlier ones", async () => {
		const { ops } = await operations();
		const name = await createdSequence("pooled-age", { mode: "pooled" });
		const [a, b] = [isolate({ POOL_MAX_AGE_MS: "50" }), isolate({ POOL_MAX_AGE_MS: "50" })];
		const take = async ({ config, pools }: Isolate) =>
			BigInt((await ops.nextInSequence(env, config, { name, count: 1 }, undefined, pools)).first);
		await take(a); // learns the mode
		await take(b);
		const fromA = await take(a); // a's segment
		const fromB = await take(b); // b's segment, after a's
		expect(fromB).toBeGreaterThan(fromA);
		const started = Date.now();
		await scheduler.wait(60);
		expect(Date.now() - started).toBeGreaterThanOrEqual(50);
		// a's segment is too old now: a fetches a new one, above everything b held.
		expect(await take(a)).toBeGreaterThan(fromB);
	});

	it("serves every call from the object when POOL_MAX_AGE_MS is 0 (pools off)", async () => {
		const { ops } = await operations();
		const name = await createdSequence("pooled-off", { mode: "pooled" });
		const [a, b] = [isolate({ POOL_MAX_AGE_MS: "0" }), isolate({ POOL_MAX_AGE_MS: "0" })];
		const numbers: string[] = [];
		for (let i = 0; i < 5; i++) {
			for (const { config, pools } of [a, b]) {
				const { numbers: taken } = await ops.nextInSequence(
					env,
					config,
					{ name, count: 1 },
					undefined,
					pools,
				);
				numbers.push(...taken);
			}
		}
		expect(numbers).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
		expect(await ops.sequenceStatus(env, { name })).toMatchObject({ requests: 10, issued: "10" });
	});

	it("serves a call whose buffer was closed while it waited (the isolate's least recently used) from a new one", async () => {
		const { ops } = await operations();
		const name = await createdSequence("pooled-closed", { mode: "pooled" });
		const { config, pools } = isolate();
		const take = (count: number) =>
			ops.nextInSequence(env, config, { name, count }, undefined, pools);
		await take(1); // learns the mode
		const before = BigInt((await take(1)).first); // makes the buffer: a segment of 10
		const waiting = take(50); // more than it holds: waits for a fetch
		// Buffers of more names than an isolate keeps: the waiting call's one is closed.
		const unused = () => Promise.reject(new Error("never fetched"));
		for (let i = 0; i < MAX_BUFFERS; i++) pools.buffer(config, `filler-${i}`, unused);
		const answer = await waiting;
		expect(answer.count).toBe(50);
		expectConsecutive(answer);
		expect(BigInt(answer.first)).toBeGreaterThan(before);
		expect(BigInt((await take(1)).first)).toBeGreaterThan(BigInt(answer.numbers.at(-1) as string));
	});

	it("sends calls above a segment's size straight to the object: 30 at once on a slow object, none overloaded", async () => {
		const { ops } = await operations();
		const name = await createdSequence("pooled-large", { mode: "pooled" });
		// Each object call takes 150 ms; a take waits at most MAX_WAIT_MS + 1 s = 2 s.
		const slow = slowSequencesEnv(150);
		const { config, pools } = isolate({ MAX_WAIT_MS: "1000" });
		const take = (count: number) =>
			ops.nextInSequence(slow, config, { name, count }, undefined, pools);
		await take(1); // learns the mode
		await take(1); // makes the buffer
		const answers = await Promise.allSettled(Array.from({ length: 30 }, () => take(10_000)));
		const refused = answers.filter((answer) => answer.status === "rejected");
		expect(refused.map((answer) => String(answer.reason)).slice(0, 3)).toEqual([]);
		const numbers = answers.flatMap((answer) =>
			answer.status === "fulfilled" ? answer.value.numbers : [],
		);
		expect(numbers).toHaveLength(300_000);
		expect(new Set(numbers).size).toBe(300_000);
	}, 30_000);
});

/** The real env, each call to a sequence's object `delayMs` slower (an object far away). */
function slowSequencesEnv(delayMs: number): Env {
	const sequences = env.SEQUENCES;
	const SEQUENCES = {
		idFromName: (name: string) => sequences.idFromName(name),
		get: (id: DurableObjectId) => {
			const stub = sequences.get(id);
			return new Proxy(stub, {
				get(target, key) {
					const value = Reflect.get(target, key);
					if (typeof key !== "string" || typeof value !== "function") return value;
					return async (...args: unknown[]) => {
						await scheduler.wait(delayMs);
						return (target as unknown as Record<string, (...a: unknown[]) => unknown>)[key]?.(
							...args,
						);
					};
				},
			});
		},
	};
	return { ...env, SEQUENCES: SEQUENCES as unknown as Env["SEQUENCES"] };
}
