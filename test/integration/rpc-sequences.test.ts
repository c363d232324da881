/**
 * Named sequences over a service binding (IdService's methods, through `idService`)
 * and over HTTP (`idsClient`), against the built Worker: the same answers, the same
 * refusals (code and message, plus the request ID over RPC), the client's checks
 * before a name reaches a URL, and the process-side buffer over either source.
 */
import type { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	createSequenceBuffer,
	type IdServiceRpc,
	IdsError,
	idErrorCode,
	idRequestId,
	idService,
	idsClient,
} from "../../src/client";
import type { IdService } from "../../src/index";
import { startServiceAndConsumer } from "./setup";

const TOKEN = "sequences-secret";
let mf: Miniflare;
let IDS: Service<IdService>;
let rpc: IdServiceRpc;
let http: ReturnType<typeof idsClient>;

beforeAll(async () => {
	const started = await startServiceAndConsumer({ apiToken: TOKEN });
	mf = started.mf;
	IDS = (await mf.getBindings<{ IDS: Service<IdService> }>(started.consumerName)).IDS;
	rpc = idService<IdServiceRpc>(IDS);
	http = idsClient({ baseUrl: started.url.toString(), token: TOKEN });
}, 120_000);

afterAll(() => mf?.dispose());

const unique = (label: string) => `${label}-${crypto.randomUUID().slice(0, 8)}`;

async function rejection(work: Promise<unknown>): Promise<unknown> {
	try {
		await work;
	} catch (error) {
		return error;
	}
	throw new Error("expected a rejection");
}

describe("named sequences over RPC and the HTTP client", () => {
	it("create, next, reserve, advance, status and list answer alike both ways", async () => {
		const name = unique("rpc");
		const created = await rpc.createSequence(name, { start: 100 });
		expect(created).toMatchObject({ type: "sequence-status", name, next: "100", issued: "0" });
		expect(await http.createSequence(name, { start: "100" })).toEqual(created);
		expect(await rpc.nextInSequence(name, { count: 2 })).toEqual({
			type: "sequence",
			name,
			first: "100",
			count: 2,
			numbers: ["100", "101"],
		});
		expect((await http.nextInSequence(name)).numbers).toEqual(["102"]);
		expect(await rpc.reserveInSequence(name, { count: 10 })).toEqual({
			type: "sequence-range",
			name,
			first: "103",
			last: "112",
			count: 10,
		});
		expect((await http.reserveInSequence(name, { count: 5 })).first).toBe("113");
		expect((await rpc.advanceSequence(name, { to: 1000 })).next).toBe("1000");
		expect((await http.advanceSequence(name, { to: "900" })).next).toBe("1000");
		const status = await rpc.sequenceStatus(name);
		expect(status).toMatchObject({ next: "1000", issued: "18", requests: 4 });
		expect(await http.sequenceStatus(name)).toEqual(status);
		const listed = await rpc.listSequences({ limit: 1000 });
		expect(listed.names).toContain(name);
		expect(await http.listSequences({ limit: 1000 })).toEqual(listed);
		// Its minutes: the calls that issued this minute (an earlier minute's alarm may have stored some).
		const history = await rpc.sequenceHistory(name, { minutes: 5 });
		expect(history).toMatchObject({ name, minutes: 5 });
		const issued = history.history.reduce((sum, m) => sum + m.issued, 0);
		expect([issued, history.history.reduce((sum, m) => sum + m.requests, 0)]).toEqual([18, 4]);
		const viaHttp = await http.sequenceHistory(name, { minutes: 5 });
		expect({ ...viaHttp, serverNowMs: 0 }).toEqual({ ...history, serverNowMs: 0 });
	});

	it("refuses alike: the same code and message, RPC's with its request ID", async () => {
		const name = unique("refusals");
		await rpc.createSequence(name);
		for (const [method, args] of [
			["createSequence", [name, { mode: "fast" }]],
			["createSequence", [name, { strat: 5 }]],
			["createSequence", [name, { start: 7 }]],
			["nextInSequence", [name, { count: 0 }]],
			["nextInSequence", [name, { cout: 2 }]],
			["nextInSequence", [unique("never"), {}]],
			["reserveInSequence", [name, {}]],
			["advanceSequence", [name, { to: -1 }]],
			["listSequences", [{ limit: 0 }]],
			["sequenceHistory", [name, { minutes: 1441 }]],
			["sequenceHistory", [unique("never"), {}]],
		] as const) {
			const viaRpc = (await rejection(
				(rpc[method] as (...a: unknown[]) => Promise<unknown>)(...args),
			)) as Error;
			const viaHttp = (await rejection(
				(http[method] as (...a: unknown[]) => Promise<unknown>)(...args),
			)) as IdsError;
			expect(viaHttp).toBeInstanceOf(IdsError);
			expect(idErrorCode(viaRpc), `${method} ${JSON.stringify(args)}`).toBe(viaHttp.code);
			expect(idRequestId(viaRpc)).toMatch(/^[0-9a-f-]{36}$/);
			expect(viaRpc.message.replace(/ \(request [0-9a-f-]{36}\)$/, "")).toBe(viaHttp.message);
		}
	});

	it("retire answers alike both ways, and so does every call on the retired name", async () => {
		const name = unique("retire");
		await rpc.createSequence(name, { start: 10 });
		await http.nextInSequence(name, { count: 3 });
		const mismatch = [name, { confirm: "other" }] as const;
		const viaRpc = (await rejection(rpc.retireSequence(...mismatch))) as Error;
		const viaHttp = (await rejection(http.retireSequence(...mismatch))) as IdsError;
		expect(viaHttp).toMatchObject({ code: "invalid_request", status: 400 });
		expect(viaRpc.message.replace(/ \(request [0-9a-f-]{36}\)$/, "")).toBe(viaHttp.message);

		const retired = await http.retireSequence(name, { confirm: name });
		expect(retired).toMatchObject({ name, next: "13", issued: "3", retiredAt: expect.any(String) });
		expect(await rpc.retireSequence(name, { confirm: name })).toEqual(retired);
		for (const [method, args, status] of [
			["nextInSequence", [name], 410],
			["reserveInSequence", [name, { count: 2 }], 410],
			["advanceSequence", [name, { to: 100 }], 410],
			["sequenceStatus", [name], 410],
			["createSequence", [name, { start: 10 }], 409],
		] as const) {
			const fromRpc = (await rejection(
				(rpc[method] as (...a: unknown[]) => Promise<unknown>)(...args),
			)) as Error;
			const fromHttp = (await rejection(
				(http[method] as (...a: unknown[]) => Promise<unknown>)(...args),
			)) as IdsError;
			expect([method, fromHttp.code, fromHttp.status]).toEqual([
				method,
				"sequence_retired",
				status,
			]);
			expect(fromRpc.message.replace(/ \(request [0-9a-f-]{36}\)$/, "")).toBe(fromHttp.message);
		}
		expect((await rpc.listSequences({ limit: 1000 })).names).not.toContain(name);
	});

	it("the client checks a name before it reaches a URL, in the service's words", async () => {
		for (const name of ["..", "a/b", "?x", "~catalog", ""]) {
			const error = (await rejection(http.nextInSequence(name))) as IdsError;
			expect(error).toMatchObject({ code: "invalid_sequence_name", status: 400 });
			const viaRpc = (await rejection(rpc.nextInSequence(name))) as Error;
			expect(viaRpc.message.replace(/ \(request [0-9a-f-]{36}\)$/, "")).toBe(error.message);
		}
	});

	it("pooled mode answers a request that waits for a segment after the request that made the buffer ended", async () => {
		// Workers never settle a promise made by a request that has ended for another
		// request: the isolate's buffer once raced every wait against one made by its
		// first request, and such a wait was answered 500.
		const name = unique("pooled-later");
		await http.createSequence(name, { mode: "pooled" });
		expect((await http.nextInSequence(name)).first).toBe("1"); // the isolate learns the mode
		expect((await http.nextInSequence(name)).first).toBe("2"); // makes the buffer: a segment of 10
		// 9 held, 50 asked: this request waits for a segment of its own.
		const later = await http.nextInSequence(name, { count: 50 });
		expect([later.first, later.count, later.numbers.at(-1)]).toEqual(["12", 50, "61"]);
	});

	it("pooled numbers strictly increase in the service's isolate across RPC, the binding's fetch and HTTP", async () => {
		const name = unique("pooled-ways");
		await http.createSequence(name, { mode: "pooled" });
		const overBinding = idsClient({ fetch: IDS.fetch.bind(IDS) });
		const ways = [
			(count: number) => rpc.nextInSequence(name, { count }),
			(count: number) => overBinding.nextInSequence(name, { count }),
			(count: number) => http.nextInSequence(name, { count }),
		];
		for (const way of ways) await way(1); // each learns the mode
		const handedOut: bigint[] = [];
		for (let round = 0; round < 30; round++) {
			const way = ways[round % ways.length] as (typeof ways)[number];
			for (const number of (await way(1 + (round % 3))).numbers) handedOut.push(BigInt(number));
		}
		for (let i = 1; i < handedOut.length; i++) {
			expect(handedOut[i], handedOut.join(", ")).toBeGreaterThan(handedOut[i - 1] as bigint);
		}
	});

	it("createSequenceBuffer hands out unique increasing numbers over either source", async () => {
		const name = unique("buffer");
		await http.createSequence(name);
		const seen: bigint[] = [];
		for (const source of [http, rpc]) {
			const buffer = createSequenceBuffer({ source, name, minStep: 10, maxStep: 100 });
			for (let i = 0; i < 30; i++) {
				for (const n of (await buffer.next(2)).numbers) seen.push(BigInt(n));
			}
			buffer.close();
		}
		expect(new Set(seen).size).toBe(seen.length);
		for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1] as bigint);
	});
});
