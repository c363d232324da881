/**
 * Retiring a named sequence (`DELETE /sequences/:name` with `{"confirm": name}`): 200
 * and its last status; afterwards every call on it is 410 `sequence_retired`, a create
 * of its name 409 `sequence_retired` (a new one would repeat numbers), a retire again
 * the same 200; through object restarts too. Its object keeps only a tombstone and no
 * alarm, and a bad or missing `confirm` is refused by name, over HTTP and RPC alike.
 */
import {
	abortAllDurableObjects,
	createExecutionContext,
	runDurableObjectAlarm,
	runInDurableObject,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ErrorBody, SequenceStatus } from "../../src/wire";
import type { SequenceObject } from "../../src/worker/object/sequence-object";
import { IdService } from "../../src/worker/rpc/id-service";
import { call, callJson } from "./helpers";
import { atMinuteStart, sequenceName, sequenceStub } from "./sequence-helpers";

const json = (method: string, body?: unknown): RequestInit => ({
	method,
	headers: { "Content-Type": "application/json" },
	...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

const retire = (name: string, body: unknown = { confirm: name }) =>
	callJson<SequenceStatus & ErrorBody>(`/sequences/${name}`, json("DELETE", body));

/** A created sequence that issued 1..5 (start 1). */
async function usedSequence(label: string, settings: object = {}): Promise<string> {
	const name = sequenceName(label);
	expect((await call(`/sequences/${name}`, json("PUT", settings))).status).toBe(201);
	expect((await call(`/sequences/${name}/next?count=5`, { method: "POST" })).status).toBe(200);
	return name;
}

/** What every call on a retired name answers, but a create and a retire. */
async function expectGone(name: string): Promise<void> {
	const calls: [string, RequestInit][] = [
		[`/sequences/${name}/next`, {}],
		[`/sequences/${name}/next?count=2`, { method: "POST" }],
		[`/sequences/${name}/reserve?count=10`, { method: "POST" }],
		[`/sequences/${name}/advance`, json("POST", { to: 100 })],
		[`/sequences/${name}`, {}],
		[`/sequences/${name}/history`, {}],
	];
	for (const [path, init] of calls) {
		const { status, body } = await callJson<ErrorBody>(path, init);
		expect([path, status, body.error.code]).toEqual([path, 410, "sequence_retired"]);
		expect(body.error.message).toContain(`sequence "${name}" was retired at `);
		expect(body.error.message).toContain("use another name");
	}
}

const rpc = () => new IdService(createExecutionContext(), env);

describe("retiring a sequence", () => {
	it("answers 200 and its last status; then next, reserve, advance, status and history are 410", async () => {
		const name = await usedSequence("retire");
		const before = await callJson<SequenceStatus>(`/sequences/${name}`);
		const retired = await retire(name);
		expect(retired.status).toBe(200);
		expect(retired.headers.get("Cache-Control")).toBe("no-store");
		expect(retired.body).toEqual({ ...before.body, retiredAt: expect.any(String) });
		expect(retired.body).toMatchObject({ next: "6", issued: "5", requests: 1 });
		expect(Date.now() - Date.parse(retired.body.retiredAt as string)).toBeLessThan(60_000);
		await expectGone(name);
	});

	it("keeps the name retired for good: create is 409, a retire again the same 200, after restarts too", async () => {
		const name = await usedSequence("retire-forever", { start: 1000 });
		const first = await retire(name);
		for (let round = 0; round < 2; round++) {
			const created = await callJson<ErrorBody>(`/sequences/${name}`, json("PUT", { start: 1000 }));
			expect([created.status, created.body.error.code]).toEqual([409, "sequence_retired"]);
			expect(created.body.error.message).toContain("cannot be created again");
			expect(created.body.error.message).toContain("its next was 1005");
			// Any settings: the name itself is taken for good.
			const other = await callJson<ErrorBody>(`/sequences/${name}`, json("PUT", { start: 1 }));
			expect([other.status, other.body.error.code]).toEqual([409, "sequence_retired"]);
			await expectGone(name);
			const again = await retire(name);
			expect([again.status, again.body]).toEqual([200, first.body]);
			await abortAllDurableObjects(); // the tombstone is stored: a new instance reads it
		}
	});

	it("refuses a missing or mismatched confirm by name, and an unknown or invalid name", async () => {
		const name = await usedSequence("retire-confirm");
		const missing = await retire(name, {});
		expect([missing.status, missing.body.error]).toEqual([
			400,
			{
				code: "invalid_request",
				message: "confirm must be the sequence's name, repeated; it is missing",
			},
		]);
		const empty = await callJson<ErrorBody>(`/sequences/${name}`, { method: "DELETE" });
		expect([empty.status, empty.body.error.message]).toEqual([400, missing.body.error.message]);
		const other = await retire(name, { confirm: `${name}x` });
		expect([other.status, other.body.error]).toEqual([
			400,
			{
				code: "invalid_request",
				message: `confirm must be the sequence's name, "${name}"; got "${name}x"`,
			},
		]);
		const number = await retire(name, { confirm: 5 });
		expect([number.status, number.body.error.message]).toEqual([
			400,
			"confirm must be the sequence's name, repeated; got 5",
		]);
		// The body only: a confirm in the URL is refused as a parameter the route does not take.
		const inQuery = await callJson<ErrorBody>(`/sequences/${name}?confirm=${name}`, {
			method: "DELETE",
		});
		expect([inQuery.status, inQuery.body.error.code]).toEqual([400, "invalid_request"]);
		expect(inQuery.body.error.message).toContain('unknown parameter "confirm"');
		const extra = await retire(name, { confirm: name, force: true });
		expect(extra.body.error.message).toBe('unknown parameter "force"; it takes confirm');
		// None of these retired it.
		expect((await call(`/sequences/${name}/next`)).status).toBe(200);

		const unknown = sequenceName("retire-unknown");
		const never = await retire(unknown);
		expect([never.status, never.body.error.code]).toEqual([404, "unknown_sequence"]);
		const bad = await retire("-bad", { confirm: "-bad" });
		expect([bad.status, bad.body.error.code]).toEqual([400, "invalid_sequence_name"]);
	});

	it("leaves its object only a tombstone: no record, minutes, history table or alarm", async () => {
		const name = await usedSequence("retire-tombstone");
		const clock = await atMinuteStart(name);
		expect((await call(`/sequences/${name}/next?count=2`)).status).toBe(200);
		clock.time += 60_000; // the minute is over: its alarm stores it
		expect(await runDurableObjectAlarm(sequenceStub(name))).toBe(true);
		expect((await call(`/sequences/${name}/next`)).status).toBe(200); // sets the next alarm
		const stored = () =>
			runInDurableObject(sequenceStub(name), async (_instance, state) => ({
				keys: [...state.storage.kv.list()].map(([key]) => key).sort(),
				tables: state.storage.sql
					.exec<{ name: string }>(
						"SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'",
					)
					.toArray()
					.map((row) => row.name),
				alarm: await state.storage.getAlarm(),
			}));
		const live = await stored();
		expect(live.keys).toEqual(["historyMark", "sequence"]);
		expect(live.tables).toEqual(["history_minutes"]);
		expect(live.alarm).not.toBeNull();

		expect((await retire(name)).status).toBe(200);
		const dead = await stored();
		expect(dead).toEqual({ keys: ["retired"], tables: [], alarm: null });
		// Refused calls count nothing and write nothing: no alarm is set again.
		await expectGone(name);
		expect(await stored()).toEqual(dead);
		expect(await runDurableObjectAlarm(sequenceStub(name))).toBe(false);
		// An alarm set before the retire, whose delete a restart lost, does nothing and sets none.
		await runInDurableObject(sequenceStub(name), (instance: SequenceObject) => instance.alarm());
		expect(await stored()).toEqual(dead);
	});

	it("answers over RPC as over HTTP, refusals in the same words", async () => {
		const name = await usedSequence("retire-rpc");
		await expect(rpc().retireSequence(name, { confirm: "nope" })).rejects.toThrow(
			`invalid_request: confirm must be the sequence's name, "${name}"; got "nope"`,
		);
		await expect(
			rpc().retireSequence(name, undefined as unknown as { confirm: string }),
		).rejects.toThrow(
			/^invalid_request: confirm must be the sequence's name, repeated; it is missing/,
		);
		const status = await rpc().retireSequence(name, { confirm: name });
		expect(status).toMatchObject({ name, next: "6", issued: "5", retiredAt: expect.any(String) });
		expect(await rpc().retireSequence(name, { confirm: name })).toEqual(status);
		await expect(rpc().nextInSequence(name)).rejects.toThrow(/^sequence_retired: /);
		await expect(rpc().createSequence(name)).rejects.toThrow(
			/^sequence_retired: .*cannot be created again/,
		);
		const settled = await rpc().settle("reserveInSequence", name, { count: 1 });
		expect(settled.error).toMatch(/^sequence_retired: /);
	});
});
