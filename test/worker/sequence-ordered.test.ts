/**
 * Ordered mode through the operations: every answer's numbers consecutive, no number
 * twice across many concurrent callers, none skipped when no answer was lost; a
 * reserved range is numbers no one else gets; advance moves forward only.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createdSequence, expectConsecutive, operations, refusal } from "./sequence-helpers";

describe("ordered mode", () => {
	it("gives concurrent callers consecutive, disjoint numbers that together are 1..N", async () => {
		const { ops, config } = await operations();
		const name = await createdSequence("ordered");
		const counts = Array.from({ length: 60 }, (_, i) => (i % 7) + 1);
		const answers = await Promise.all(
			counts.map((count) => ops.nextInSequence(env, config, { name, count })),
		);
		for (const [i, answer] of answers.entries()) {
			expect(answer).toMatchObject({ type: "sequence", name, count: counts[i] });
			expect(answer).not.toHaveProperty("period");
			expectConsecutive(answer);
		}
		const all = answers.flatMap((a) => a.numbers.map(BigInt)).sort((a, b) => (a < b ? -1 : 1));
		const total = counts.reduce((sum, n) => sum + n, 0);
		expect(all).toEqual(Array.from({ length: total }, (_, i) => BigInt(i + 1)));

		const status = await ops.sequenceStatus(env, { name });
		expect(status).toMatchObject({ next: `${total + 1}`, issued: `${total}`, requests: 60 });
		expect(status.lastIssuedAt).not.toBeNull();
	});

	it("answers one call after another with larger numbers", async () => {
		const { ops, config } = await operations();
		const name = await createdSequence("ordered-serial", { start: 0 });
		let last = -1n;
		for (let i = 0; i < 20; i++) {
			const answer = await ops.nextInSequence(env, config, { name, count: 1 });
			expect(BigInt(answer.first)).toBe(last + 1n);
			last = BigInt(answer.first);
		}
	});

	it("reserves a range no call gets, between the numbers before and after it", async () => {
		const { ops, config } = await operations();
		const name = await createdSequence("reserve", { start: 50 });
		const before = await ops.nextInSequence(env, config, { name, count: 2 });
		const range = await ops.reserveInSequence(env, { name, count: 1000 });
		const after = await ops.nextInSequence(env, config, { name, count: 1 });
		expect(before.numbers).toEqual(["50", "51"]);
		expect(range).toEqual({ type: "sequence-range", name, first: "52", last: "1051", count: 1000 });
		expect(after.numbers).toEqual(["1052"]);
	});

	it("advances forward only: a `to` at or below the next number changes nothing", async () => {
		const { ops, config } = await operations();
		const name = await createdSequence("advance");
		await ops.nextInSequence(env, config, { name, count: 3 }); // 1..3
		expect((await ops.advanceSequence(env, { name, to: 500n })).next).toBe("500");
		expect((await ops.advanceSequence(env, { name, to: 20n })).next).toBe("500");
		expect((await ops.advanceSequence(env, { name, to: 500n })).next).toBe("500");
		const next = await ops.nextInSequence(env, config, { name, count: 2 });
		expect(next.numbers).toEqual(["500", "501"]);
		const status = await ops.advanceSequence(env, { name, to: 3n });
		expect(status).toMatchObject({ next: "502", issued: "5", requests: 2 });
	});

	it("the object refuses an advance to a number outside [0, 2^63 - 1]", async () => {
		const { ops } = await operations();
		const name = await createdSequence("advance-bad");
		const { code, message } = await refusal(ops.advanceSequence(env, { name, to: 2n ** 63n }));
		expect(code).toBe("invalid_sequence_options");
		expect(message).toContain("to must be an integer in [0, 9223372036854775807]");
	});
});
