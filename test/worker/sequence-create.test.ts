/**
 * Creating a named sequence: 201 new, 200 the same settings again (however the zone
 * is spelled), `sequence_exists` with others (showing the stored ones), and
 * `unknown_sequence` on every call to a name never created, writing nothing.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { checkSequenceSettings } from "../../src/ids/sequences";
import { operations, refusal, sequenceName, sequenceStub, unusedStatus } from "./sequence-helpers";

describe("createSequence", () => {
	it("creates a sequence with its status, finds it again with the same settings, refuses others", async () => {
		const { ops } = await operations();
		const name = sequenceName("create");
		const settings = checkSequenceSettings({
			start: 1000,
			reset: "daily",
			timeZone: "Asia/Kolkata",
		});
		const before = Date.now();
		const first = await ops.createSequence(env, { name, settings });
		expect(first.created).toBe(true);
		expect(first.status).toEqual({
			...unusedStatus(name, {
				start: "1000",
				mode: "ordered",
				reset: "daily",
				timeZone: "Asia/Kolkata",
			}),
			created: first.status.created,
			lastIssuedAt: null,
			period: first.status.period,
		});
		expect(Date.parse(first.status.created)).toBeGreaterThanOrEqual(before);
		expect(first.status.period).toMatch(/^\d{4}-\d{2}-\d{2}$/);

		// The same settings, the zone spelled as its link: 200, nothing changed.
		const again = await ops.createSequence(env, {
			name,
			settings: checkSequenceSettings({ start: "1000", reset: "daily", timeZone: "Asia/Calcutta" }),
		});
		expect(again).toEqual({ created: false, status: first.status });

		const other = await refusal(
			ops.createSequence(env, { name, settings: checkSequenceSettings({ start: 1 }) }),
		);
		expect(other.code).toBe("sequence_exists");
		expect(other.message).toContain(
			'{"start":"1000","mode":"ordered","reset":"daily","timeZone":"Asia/Kolkata"}',
		);
	});

	it("answers a pooled sequence's status with its step", async () => {
		const { ops } = await operations();
		const name = sequenceName("create-pooled");
		const { status } = await ops.createSequence(env, {
			name,
			settings: checkSequenceSettings({ mode: "pooled" }),
		});
		expect(status).toMatchObject({ next: "1", step: 10, period: null });
	});

	it("the object refuses settings the rules refuse, whoever calls it", async () => {
		const name = sequenceName("create-bad");
		const answer = await sequenceStub(name).create(name, {
			start: "-1",
			mode: "ordered",
			reset: "never",
			timeZone: "UTC",
		});
		expect(answer).toMatchObject({ ok: false, code: "invalid_sequence_options" });
	});
});

describe("a name never created", () => {
	it("is unknown_sequence to every operation, saying how to create it, and stores nothing", async () => {
		const { ops, config } = await operations();
		const name = sequenceName("never");
		// All four at once, each refusal read as it comes (none left unhandled meanwhile).
		const refusals = await Promise.all(
			[
				ops.nextInSequence(env, config, { name, count: 1 }),
				ops.reserveInSequence(env, { name, count: 5 }),
				ops.advanceSequence(env, { name, to: 100n }),
				ops.sequenceStatus(env, { name }),
			].map(refusal),
		);
		for (const { code, message } of refusals) {
			expect(code).toBe("unknown_sequence");
			expect(message).toContain(`PUT /sequences/${name}`);
		}
		const segment = await sequenceStub(name).segment(name, 10);
		expect(segment).toMatchObject({ ok: false, code: "unknown_sequence" });
		await runInDurableObject(sequenceStub(name), (_instance, state) => {
			expect([...state.storage.kv.list()]).toEqual([]);
		});
	});
});
