/**
 * One input contract, three readers: a query string, a JSON body and an RPC call of
 * IdService give the same value the same answer. For random inputs (fast-check, fixed
 * seed) to ulid, uuidv7, typeid, range, decode and the sequence operations, each transport that can carry the
 * input is asked, and all must agree on accept or refuse, and on a refusal's code and
 * message. A value goes in a query only where its text reads back as it: a number as
 * its digits (a non-negative integer, for an integer field), text as itself (not digits,
 * for an integer field).
 */
import { createExecutionContext } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Contract } from "../../src/worker/contracts/fields";
import { decodeContract, rangeContract } from "../../src/worker/contracts/forms";
import { typeidContract, ulidContract, uuidv7Contract } from "../../src/worker/contracts/ids";
import {
	advanceContract,
	createContract,
	listContract,
	nextContract,
	reserveContract,
} from "../../src/worker/contracts/sequences";
import { IdService } from "../../src/worker/rpc/id-service";
import { envWith, fetchApp, jsonAnswer } from "../shared/fetch-app";

type Outcome = { ok: true } | { ok: false; code: string; message: string };
type Values = Record<string, unknown>;

const env = envWith({});
const leasesOn = envWith({ WORKER_IDS: "0-1023", LEASE_WORKER_IDS: "900-1023" });

/** The RPC answer: accepted, or the code and message (the request ID cut off). */
async function viaRpc(method: string, args: unknown[], on: Env = env): Promise<Outcome> {
	const service = new IdService(createExecutionContext(), on);
	const settled = (await (service.settle as (m: string, ...a: unknown[]) => Promise<unknown>)(
		method,
		...args,
	)) as { value?: unknown; error?: string };
	if (settled.error === undefined) return { ok: true };
	const match = /^(\w+): (.*) \(request [0-9a-f-]{36}\)$/s.exec(settled.error);
	if (!match) throw new Error(`unexpected RPC refusal: ${settled.error}`);
	return { ok: false, code: match[1] as string, message: match[2] as string };
}

async function viaHttp(path: string, init?: RequestInit): Promise<Outcome> {
	const { status, body } = await jsonAnswer<{ error?: { code: string; message: string } }>(
		await fetchApp(path, init, env),
	);
	if (status === 200 || status === 201) return { ok: true };
	if (!body.error) throw new Error(`no error body, status ${status}`);
	return { ok: false, ...body.error };
}

/** The value as query text, when the query can carry it as the same value. */
function asText(of: Contract, name: string, value: unknown): string | undefined {
	const type = of.fields[name]?.type;
	const integer = type === "integer";
	if (typeof value === "number") {
		if (type === "decimal")
			return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
		return integer && Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
	}
	if (typeof value !== "string") return undefined;
	return integer && /^[0-9]+$/.test(value) ? undefined : value;
}

function queryOf(of: Contract, values: Values): string | undefined {
	const query = new URLSearchParams();
	for (const [name, value] of Object.entries(values)) {
		const text = asText(of, name, value);
		if (text === undefined) return undefined;
		query.set(name, text);
	}
	const search = query.toString();
	return search ? `?${search}` : "";
}

const anyValue = fc.oneof(
	fc.constantFrom(0, 1, 2, 7, 10_000, 10_001, -1, 1.5, 2 ** 53, 1e21),
	fc.integer({ min: 0, max: 12 }),
	fc.constantFrom("", "0", "5", "abc", "uuid", "ulid", "base32", "typeid", "decimal"),
	fc.constantFrom("discord", "snowflake", "uuidv7", "user", "Bad", "a_", "2026-11-01"),
	fc.constantFrom("1767225600000", "2026-11-02T00:00:00Z", "nope", 1_767_225_600_000),
	fc.constantFrom(null, true, [1], { n: 1 }),
	fc.constantFrom("ordered", "pooled", "daily", "never", "UTC", "Europe/London", "Mars/Base"),
	fc.constantFrom("9223372036854775807", "9223372036854775808", "007", "orders", "~catalog"),
);

/** Inputs of `of`: its own names (some misspelled), random values. */
function inputsOf(of: Contract, omit: string[] = []) {
	const names = Object.keys(of.fields).filter((name) => !omit.includes(name));
	const key = fc.oneof(
		{ weight: 6, arbitrary: fc.constantFrom(...names) },
		{ weight: 1, arbitrary: fc.constantFrom("cout", "fromm", "layot", "strat", "too") },
	);
	return fc.dictionary(key, anyValue, { maxKeys: 3 });
}

function expectAgree(outcomes: Outcome[], what: string): void {
	for (const outcome of outcomes.slice(1)) expect(outcome, what).toEqual(outcomes[0]);
}

describe("one contract, three readers", () => {
	it.each([
		["ulid", ulidContract],
		["uuidv7", uuidv7Contract],
		["typeid", typeidContract],
	] as const)("%s: the query, a JSON body and RPC give the same answer", async (name, of) => {
		await fc.assert(
			fc.asyncProperty(inputsOf(of), async (values) => {
				const outcomes = [
					await viaRpc(name, [values]),
					await viaHttp(`/${name}`, {
						method: "POST",
						headers: { "Content-Type": "application/json" },
						body: JSON.stringify(values),
					}),
				];
				const query = queryOf(of, values);
				if (query !== undefined) outcomes.push(await viaHttp(`/${name}${query}`));
				expectAgree(outcomes, JSON.stringify(values));
			}),
			{ seed: 39, numRuns: 120 },
		);
	});

	it("range: the query and RPC give the same answer", async () => {
		await fc.assert(
			fc.asyncProperty(inputsOf(rangeContract), async (values) => {
				const query = queryOf(rangeContract, values);
				fc.pre(query !== undefined);
				expectAgree(
					[await viaRpc("range", [values]), await viaHttp(`/range${query}`)],
					JSON.stringify(values),
				);
			}),
			{ seed: 39, numRuns: 120 },
		);
	});

	it("decode: the path and query, and RPC's arguments, give the same answer", async () => {
		await fc.assert(
			fc.asyncProperty(inputsOf(decodeContract, ["id"]), async (values) => {
				const query = queryOf(decodeContract, values);
				fc.pre(query !== undefined);
				const id = "175928847299117063";
				expectAgree(
					[await viaRpc("decode", [id, values]), await viaHttp(`/decode/${id}${query}`)],
					JSON.stringify(values),
				);
			}),
			{ seed: 39, numRuns: 120 },
		);
	});

	it.each([
		["createSequence", createContract, "PUT", ""],
		["nextInSequence", nextContract, "POST", "/next"],
		["reserveInSequence", reserveContract, "POST", "/reserve"],
		["advanceSequence", advanceContract, "POST", "/advance"],
	] as const)(
		"%s: the query, a JSON body and RPC give the same answer",
		async (method, of, verb, action) => {
			let runs = 0;
			await fc.assert(
				fc.asyncProperty(inputsOf(of, ["name"]), async (values) => {
					// A sequence of its own per run: every transport finds the same state.
					const name = `input-${method}-${++runs}-${crypto.randomUUID().slice(0, 8)}`;
					if (method !== "createSequence") await viaRpc("createSequence", [name]);
					const path = `/sequences/${name}${action}`;
					const outcomes = [
						await viaRpc(method, [name, values]),
						await viaHttp(path, {
							method: verb,
							headers: { "Content-Type": "application/json" },
							body: JSON.stringify(values),
						}),
					];
					const query = queryOf(of, values);
					if (query !== undefined)
						outcomes.push(await viaHttp(`${path}${query}`, { method: verb }));
					expectAgree(outcomes, JSON.stringify(values));
				}),
				{ seed: 40, numRuns: 60 },
			);
		},
		20_000, // 60 runs, each a create (its catalog shard often a new object in the test's storage)
	);

	it("listSequences and sequence names: the query, the path and RPC give the same answer", async () => {
		await fc.assert(
			fc.asyncProperty(inputsOf(listContract), async (values) => {
				const query = queryOf(listContract, values);
				fc.pre(query !== undefined);
				expectAgree(
					[await viaRpc("listSequences", [values]), await viaHttp(`/sequences${query}`)],
					JSON.stringify(values),
				);
			}),
			{ seed: 40, numRuns: 60 },
		);
		for (const name of [".x", "~catalog", "a".repeat(65), "ok-name-never-made"]) {
			expectAgree(
				[await viaRpc("sequenceStatus", [name]), await viaHttp(`/sequences/${name}`)],
				name,
			);
			expectAgree(
				[await viaRpc("nextInSequence", [name]), await viaHttp(`/sequences/${name}/next`)],
				name,
			);
		}
	});

	it("gives count=0 one answer everywhere, and refuses a misspelled name everywhere", async () => {
		const zero = {
			ok: false,
			code: "invalid_count",
			message: "count must be an integer in [1, 10000]; got 0",
		};
		const post = (body: string) => ({
			method: "POST",
			headers: { "Content-Type": "application/json" },
			body,
		});
		expect(await viaHttp("/ulid?count=0")).toEqual(zero);
		expect(await viaHttp("/ulid", post('{"count":0}'))).toEqual(zero);
		expect(await viaRpc("ulid", [{ count: 0 }])).toEqual(zero);
		const cout = {
			ok: false,
			code: "invalid_request",
			message: 'unknown parameter "cout"; it takes count, format',
		};
		expect(await viaHttp("/ulid?cout=5")).toEqual(cout);
		expect(await viaHttp("/ulid", post('{"cout":5}'))).toEqual(cout);
		expect(await viaRpc("ulid", [{ cout: 5 }])).toEqual(cout);
		for (const [method, args, name] of [
			["snowflake", [{ workerId: 3, workerid: 4 }], "workerid"],
			["range", [{ kind: "ulid", from: 0, to: 1, fromm: 0 }], "fromm"],
			["acquireLease", [{ holdr: "pod-7" }], "holdr"],
		] as const) {
			const outcome = await viaRpc(method, [...args], leasesOn);
			expect(outcome, method).toMatchObject({ ok: false, code: "invalid_request" });
			expect((outcome as { message: string }).message).toMatch(`unknown parameter "${name}"`);
		}
		expect(await viaRpc("decode", ["01", { layot: "discord" }])).toEqual({
			ok: false,
			code: "invalid_request",
			message:
				'unknown parameter "layot"; it takes format, layout, timeBits, workerBits, sequenceBits, epoch, timeUnitMs',
		});
	});
});
