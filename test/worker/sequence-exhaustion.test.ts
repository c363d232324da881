/**
 * The top of a sequence: numbers up to 2^63 - 1 are issued, and a call whose numbers
 * would pass it is `sequence_exhausted` (409), issuing nothing; a pooled segment near
 * the top is cut to what is left; a reset sequence starts again in its next period.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { checkSequenceSettings } from "../../src/ids/sequences";
import { STATUS_OF } from "../../src/wire";
import type { SequenceObject } from "../../src/worker/object/sequence-object";
import { FrozenClock } from "../shared/fake-clock";
import {
	createdSequence,
	operations,
	refusal,
	sequenceName,
	sequenceStub,
} from "./sequence-helpers";

const MAX = 2n ** 63n - 1n;

describe("a sequence at 2^63 - 1", () => {
	it("issues up to the largest number, then refuses with sequence_exhausted", async () => {
		const { ops, config } = await operations();
		const name = await createdSequence("top", { start: `${MAX - 2n}` });
		const refused = await refusal(ops.nextInSequence(env, config, { name, count: 4 }));
		expect(refused.code).toBe("sequence_exhausted");
		expect(STATUS_OF.sequence_exhausted).toBe(409);
		expect(refused.message).toContain("3 left");
		const last = await ops.nextInSequence(env, config, { name, count: 3 });
		expect(last.numbers).toEqual([`${MAX - 2n}`, `${MAX - 1n}`, `${MAX}`]);
		expect((await refusal(ops.reserveInSequence(env, { name, count: 1 }))).code).toBe(
			"sequence_exhausted",
		);
		expect(await ops.sequenceStatus(env, { name })).toMatchObject({ next: null, issued: "3" });
	});

	it("reaches the top by advance, and an advance past it is refused", async () => {
		const { ops, config } = await operations();
		const name = await createdSequence("top-advance");
		expect((await ops.advanceSequence(env, { name, to: MAX })).next).toBe(`${MAX}`);
		expect((await ops.nextInSequence(env, config, { name, count: 1 })).numbers).toEqual([`${MAX}`]);
		expect((await refusal(ops.nextInSequence(env, config, { name, count: 1 }))).code).toBe(
			"sequence_exhausted",
		);
	});

	it("cuts a pooled segment to what is left below the top", async () => {
		const name = await createdSequence("top-pooled", { start: `${MAX - 4n}`, mode: "pooled" });
		const segment = await sequenceStub(name).segment(name, 100);
		expect(segment).toMatchObject({ ok: true, first: `${MAX - 4n}`, last: `${MAX}`, count: 5 });
		expect(await sequenceStub(name).segment(name, 100)).toMatchObject({
			ok: false,
			code: "sequence_exhausted",
		});
	});

	it("starts again in the next period when a reset sequence is exhausted", async () => {
		const clock = new FrozenClock(Date.UTC(2026, 10, 27, 12));
		const name = sequenceName("top-daily");
		await runInDurableObject(sequenceStub(name), (instance: SequenceObject) => {
			instance.clock = clock;
		});
		const { ops, config } = await operations();
		await ops.createSequence(env, {
			name,
			settings: checkSequenceSettings({ start: `${MAX}`, reset: "daily" }),
		});
		await ops.nextInSequence(env, config, { name, count: 1 });
		const refused = await refusal(ops.nextInSequence(env, config, { name, count: 1 }));
		expect(refused.message).toContain("the next period (daily, UTC) starts again at");
		clock.time += 12 * 3_600_000;
		expect(await ops.nextInSequence(env, config, { name, count: 1 })).toMatchObject({
			numbers: [`${MAX}`],
			period: "2026-11-28",
		});
	});
});
