/**
 * What writes a sequence's name to the fleet catalog: its create, once (a create found
 * again writes the same row, a no-op), never next, reserve, advance, status or a
 * pooled segment. A create whose catalog write fails (unreachable, or the catalog's own
 * code threw) answers the sequence's status all the same, never a 500 or 503, and logs
 * one line; a create again lists the name, and so does the object's first report.
 */
import { createExecutionContext, runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { checkSequenceSettings } from "../../src/ids/sequences";
import type { SequenceList } from "../../src/wire";
import { app } from "../../src/worker/http/app";
import { call, callJson, captureErrorLog } from "./helpers";
import {
	atMinuteStart,
	operations,
	sequenceName,
	sequenceStub,
	unreachableCatalogEnv,
} from "./sequence-helpers";

/** The real env, recording each method called on the fleet catalog and each sequence object asked for. */
function recordingEnv(): { env: Env; catalogCalls: string[]; sequencesAsked: string[] } {
	const catalogCalls: string[] = [];
	const sequencesAsked: string[] = [];
	const catalog = env.CATALOG;
	const CATALOG = {
		idFromName: (name: string) => catalog.idFromName(name),
		get: (id: DurableObjectId) => {
			const stub = catalog.get(id);
			return new Proxy(stub, {
				get(target, key) {
					const value = Reflect.get(target, key);
					if (typeof key !== "string" || typeof value !== "function") return value;
					return (...args: unknown[]) => {
						catalogCalls.push(key);
						// An RPC method's own `apply` would be a remote call: call it on the stub.
						return (target as unknown as Record<string, (...a: unknown[]) => unknown>)[key]?.(
							...args,
						);
					};
				},
			});
		},
	};
	const sequences = env.SEQUENCES;
	const SEQUENCES = {
		idFromName: (name: string) => {
			sequencesAsked.push(name);
			return sequences.idFromName(name);
		},
		get: (id: DurableObjectId) => sequences.get(id),
	};
	return {
		env: {
			...env,
			CATALOG: CATALOG as unknown as Env["CATALOG"],
			SEQUENCES: SEQUENCES as unknown as Env["SEQUENCES"],
		},
		catalogCalls,
		sequencesAsked,
	};
}

async function listed(name: string): Promise<boolean> {
	const cursor = name.slice(0, -1); // the name sorts right after it
	const { body } = await callJson<SequenceList>(`/sequences?limit=1&cursor=${cursor}`);
	return body.names[0] === name;
}

describe("the fleet catalog's sequence names", () => {
	it("are written by a create only: never by next, reserve, advance, status or a pooled segment", async () => {
		const { ops, config } = await operations();
		const recording = recordingEnv();
		const name = sequenceName("writes");
		const pooled = sequenceName("writes-pooled");
		const settings = checkSequenceSettings({});
		await ops.createSequence(recording.env, { name, settings });
		await ops.createSequence(recording.env, {
			name: pooled,
			settings: checkSequenceSettings({ mode: "pooled" }),
		});
		// Each create: its name in the directory, its row in its shard.
		const createCalls = ["addSequence", "addSequence", "registerSequence", "registerSequence"];
		expect([...recording.catalogCalls].sort()).toEqual(createCalls);

		await ops.nextInSequence(recording.env, config, { name, count: 3 });
		await ops.reserveInSequence(recording.env, { name, count: 10 });
		await ops.advanceSequence(recording.env, { name, to: 100n });
		await ops.sequenceStatus(recording.env, { name });
		for (let i = 0; i < 3; i++) {
			await ops.nextInSequence(recording.env, config, { name: pooled, count: 2 });
		}
		expect([...recording.catalogCalls].sort()).toEqual(createCalls);
		// Only the sequences' own objects are asked for: no catalog in their namespace.
		expect(new Set(recording.sequencesAsked)).toEqual(new Set([name, pooled]));

		// A create found again writes the same row once more (a no-op): listed once.
		await ops.createSequence(recording.env, { name, settings });
		expect(recording.catalogCalls).toHaveLength(6);
		expect(await listed(name)).toBe(true);
		expect(await listed(pooled)).toBe(true);
	});

	it("a create whose catalog write fails answers its status and logs one line; a create again lists the name", async () => {
		const { ops } = await operations();
		for (const how of ["unreachable", "throws"] as const) {
			const name = sequenceName(`writes-fail-${how}`);
			await atMinuteStart(name); // its report is a minute away: only the create again can list it
			const [made, logged] = await captureErrorLog(() =>
				ops.createSequence(unreachableCatalogEnv(how), {
					name,
					settings: checkSequenceSettings({}),
				}),
			);
			expect(made).toMatchObject({ created: true, status: { name, next: "1" } });
			expect(logged).toHaveLength(1);
			expect(String(logged[0]?.[0])).toContain("catalog_write_failed");
			expect(await listed(name)).toBe(false);

			const again = await call(`/sequences/${name}`, { method: "PUT" });
			expect(again.status).toBe(200); // the sequence was made; the create again finds it
			expect(await listed(name)).toBe(true);
		}
	});

	it("over HTTP, a catalog that throws leaves the create a 201, never a 500", async () => {
		const name = sequenceName("writes-throw-http");
		const [answer] = await captureErrorLog(() =>
			app.fetch(
				new Request(`https://ids.test/sequences/${name}`, { method: "PUT" }),
				unreachableCatalogEnv("throws"),
				createExecutionContext(),
			),
		);
		expect(answer.status).toBe(201);
		expect(await answer.json()).toMatchObject({ type: "sequence-status", name, next: "1" });
	});

	it("a create whose catalog write failed, never created again, is listed by its object's first report", async () => {
		const { ops } = await operations();
		const name = sequenceName("writes-report");
		await atMinuteStart(name);
		await captureErrorLog(() =>
			ops.createSequence(unreachableCatalogEnv(), {
				name,
				settings: checkSequenceSettings({}),
			}),
		);
		expect(await listed(name)).toBe(false);
		expect(await runDurableObjectAlarm(sequenceStub(name))).toBe(true);
		expect(await listed(name)).toBe(true);
	});
});
