import type { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { type IdServiceRpc, idErrorCode, idRequestId, idService } from "../../src/client";
import type { IdService } from "../../src/index";
import { expectSnowflakesIncreasing } from "../shared/order";
import { TWITTER_EXAMPLE } from "../shared/spec-vectors";
import { startServiceAndConsumer } from "./setup";

let mf: Miniflare;
let IDS: Service<IdService>;

beforeAll(async () => {
	// With a token set: binding callers must get through without it.
	const started = await startServiceAndConsumer({ apiToken: "integration-secret" });
	mf = started.mf;
	const bindings = await mf.getBindings<{ IDS: Service<IdService> }>(started.consumerName);
	IDS = bindings.IDS;
}, 120_000);

afterAll(() => mf?.dispose());

describe("IdService over a service binding", () => {
	it("has exactly the methods and types of the package's IdServiceRpc (type-level)", () => {
		expectTypeOf<Pick<IdService, keyof IdServiceRpc>>().toEqualTypeOf<IdServiceRpc>();
	});

	it("snowflake: a worker ID's IDs as strictly increasing decimal strings", async () => {
		const first = await IDS.snowflake({ workerId: 5, count: 3 });
		const second = await IDS.snowflake({ workerId: 5, count: 2 });
		expect(first.type).toBe("snowflake");
		expect(first.workerId).toBe(5);
		expectSnowflakesIncreasing([...first.ids, ...second.ids]);
	});

	it("snowflake: picks a worker ID when none is named", async () => {
		const picked = await IDS.snowflake({ count: 2 });
		expect(picked.workerId).toBeGreaterThanOrEqual(0);
		expect(picked.workerId).toBeLessThanOrEqual(31);
		expect(picked.ids).toHaveLength(2);
	});

	it("ulid and uuidv7", async () => {
		const ulids = await IDS.ulid({ count: 3 });
		expect(ulids.type).toBe("ulid");
		for (const id of ulids.ids) expect(id).toMatch(/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
		const asUuid = await IDS.ulid({ count: 1, format: "uuid" });
		expect(asUuid.ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
		const uuids = await IDS.uuidv7();
		expect(uuids.type).toBe("uuidv7");
		expect(uuids.ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab]/);
	});

	it("decode: the spec vectors", async () => {
		expect(await IDS.decode(TWITTER_EXAMPLE.id)).toEqual(TWITTER_EXAMPLE.decoded);
		expect(await IDS.decode("01ARYZ6S41TSV4RRFFQ69G5FAV")).toMatchObject({
			type: "ulid",
			timestamp: 1469918176385,
			uuid: "01563df3-6481-d676-4c61-efb99302bd5b",
		});
		expect(await IDS.decode("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")).toMatchObject({
			type: "uuidv7",
			timestamp: 1645557742000,
		});
		expect(await IDS.decode("175928847299117063", { layout: "discord" })).toMatchObject({
			layout: "discord",
			timestamp: 1462015105796,
			workerId: 1,
			processId: 0,
			increment: 7,
		});
	});

	it("typeid, Snowflake text forms and range", async () => {
		const typeids = await IDS.typeid({ prefix: "user", count: 3 });
		expect(typeids).toMatchObject({ type: "typeid", prefix: "user" });
		for (const id of typeids.ids) expect(id).toMatch(/^user_[0-7][0-9a-hjkmnp-tv-z]{25}$/);
		expect((await IDS.typeid()).ids[0]).toMatch(/^[0-7][0-9a-z]{25}$/);
		expect(await IDS.decode(typeids.ids[0] as string)).toMatchObject({
			type: "typeid",
			version: 7,
		});
		expect(await IDS.decode("01h455vb4pex5vsknk084sn02q", { format: "typeid" })).toMatchObject({
			type: "typeid",
			prefix: "",
		});

		const orders = await IDS.snowflake({ workerId: 5, count: 2, prefix: "order" });
		for (const id of orders.ids) expect(id).toMatch(/^order_[0-7][0-9a-z]{12}$/);
		const base32 = await IDS.snowflakeBlocks({ workerId: 5, count: 3, format: "base32" });
		expect(base32.blocks[0]?.first).toMatch(/^[0-7][0-9a-z]{12}$/);
		expect(await IDS.decode(orders.ids[1] as string)).toMatchObject({
			workerId: 5,
			prefix: "order",
		});

		const day = { from: "2026-11-01", to: Date.UTC(2026, 10, 2) };
		const range = await IDS.range({ kind: "snowflake", ...day, workerId: 5 });
		expect(range).toMatchObject({ kind: "snowflake", from: "2026-11-01T00:00:00.000Z" });
		expect(BigInt(range.min) < BigInt(range.max)).toBe(true);
		expect((await IDS.range({ kind: "typeid", prefix: "user", ...day })).min).toMatch(/^user_/);
	});

	it.each([
		["invalid_prefix", (ids) => ids.typeid({ prefix: "User" })],
		["invalid_prefix", (ids) => ids.typeid({ prefix: 5 as unknown as string })],
		["invalid_prefix", (ids) => ids.snowflake({ format: "decimal", prefix: "order" })],
		["invalid_format", (ids) => ids.snowflake({ format: "hex" as "base32" })],
		["invalid_format", (ids) => ids.decode("1", { format: "hex" as "typeid" })],
		["invalid_range", (ids) => ids.range({ kind: "ulid", from: 5, to: 5 })],
		["invalid_range", (ids) => ids.range({ kind: "ulid", from: {} as number, to: 5 })],
		["invalid_range", (ids) => ids.range({ kind: "nope" as "ulid", from: 1, to: 5 })],
		[
			"invalid_worker_id",
			(ids) => ids.range({ kind: "snowflake", from: 1, to: 5, workerId: "3" as unknown as number }),
		],
		["invalid_count", (ids) => ids.snowflake({ count: 0 })],
		["invalid_count", (ids) => ids.snowflake({ count: 10_001 })],
		["invalid_count", (ids) => ids.ulid({ count: 2.5 })],
		["invalid_count", (ids) => ids.uuidv7({ count: "3" as unknown as number })],
		["invalid_worker_id", (ids) => ids.snowflake({ workerId: 1024 })],
		["invalid_worker_id", (ids) => ids.snowflake({ workerId: -1 })],
		["invalid_format", (ids) => ids.ulid({ format: "hex" as "uuid" })],
		["invalid_id", (ids) => ids.decode("hello")],
		["invalid_id", (ids) => ids.decode("80000000000000000000000000")],
	] as [string, (ids: IdServiceRpc) => Promise<unknown>][])(
		"rejects with %s in the message, directly and through idService (settle)",
		async (code, attempt) => {
			// Miniflare's Node proxy may throw synchronously; a Worker caller gets a rejection.
			const failure = (ids: IdServiceRpc) =>
				Promise.resolve()
					.then(() => attempt(ids))
					.then(
						() => undefined,
						(e: unknown) => e,
					);
			const error = await failure(IDS);
			expect(error).toBeInstanceOf(Error);
			expect((error as Error).message).toMatch(
				new RegExp(`^${code}: .* \\(request [0-9a-f-]{36}\\)$`),
			);
			expect(idErrorCode(error)).toBe(code);
			const settled = await failure(idService(IDS));
			expect(settled).toBeInstanceOf(Error);
			const withoutRequest = (message: string) => message.replace(/ \(request [0-9a-f-]{36}\)/, "");
			expect(withoutRequest((settled as Error).message)).toBe(
				withoutRequest((error as Error).message),
			);
			expect(idRequestId(settled)).toMatch(/^[0-9a-f-]{36}$/);
			expect(idRequestId(error)).toMatch(/^[0-9a-f-]{36}$/);
		},
	);

	it("settle: a method's answer or refusal as a value; only this entrypoint's own methods", async () => {
		expect((await IDS.settle("snowflake", { count: 0 })).error).toMatch(
			/^invalid_count: count must be an integer in \[1, 10000\]; got 0 \(request [0-9a-f-]{36}\)$/,
		);
		const answered: { value?: unknown; error?: string } = await IDS.settle("snowflake", {
			workerId: 5,
			count: 2,
		});
		expect(answered.error).toBeUndefined();
		expect(answered.value).toMatchObject({ type: "snowflake", workerId: 5 });
		expect(await IDS.settle("layout")).toMatchObject({ value: { maxWorkerId: 1023 } });
		for (const name of ["fetch", "settle", "constructor", "toString", "nope"]) {
			const { error } = await IDS.settle(name as "layout");
			expect(error, name).toMatch(/^not_found: IdService has no method .*; it has snowflake, /);
		}
		const ids = idService(IDS);
		expect(await ids.uuidv7({ count: 2 })).toMatchObject({ type: "uuidv7" });
		expect("then" in ids && (ids as { then?: unknown }).then).toBeFalsy(); // not a thenable
	});
});

describe("the example consumer Worker", () => {
	it("gets IDs by RPC, by the typed client over its binding and from its own pool", async () => {
		const consumer = await mf.getWorker("edge-ids-consumer");
		const body = (await (await consumer.fetch("http://consumer.test/")).json()) as {
			rpc: {
				order: { ids: string[] };
				decoded: { workerId: number };
				discord: { workerId: number };
			};
			http: { batch: { ids: string[] }; layout: { maxWorkerId: number } };
			pooled: { workerId: number; ids: string[] };
		};
		expect(body.rpc.order.ids).toHaveLength(3);
		expect(body.rpc.decoded.workerId).toBe(7);
		expect(body.rpc.discord.workerId).toBe(1);
		expect(body.http.batch.ids).toHaveLength(2);
		expect(body.http.layout.maxWorkerId).toBe(1023);
		expect(body.pooled.ids).toHaveLength(2);
		for (const id of body.pooled.ids) {
			expect(Number((BigInt(id) >> 12n) & 1023n)).toBe(body.pooled.workerId);
		}
		const error = (await (await consumer.fetch("http://consumer.test/error")).json()) as {
			code: string;
		};
		expect(error.code).toBe("invalid_count");
	});
});

describe("range: one worker-ID rule over RPC and HTTP", () => {
	let owned: Miniflare;
	let ownedUrl: URL;
	let ownedIds: Service<IdService>;
	beforeAll(async () => {
		const started = await startServiceAndConsumer({ vars: { WORKER_IDS: "0-7" } });
		owned = started.mf;
		ownedUrl = started.url;
		ownedIds = (await owned.getBindings<{ IDS: Service<IdService> }>(started.consumerName)).IDS;
	}, 120_000);
	afterAll(() => owned?.dispose());

	const window = "kind=snowflake&from=2026-11-01&to=2026-11-02";

	it("a worker ID of the layout outside WORKER_IDS: the same bounds both ways", async () => {
		const rpc = await ownedIds.range({
			kind: "snowflake",
			from: "2026-11-01",
			to: "2026-11-02",
			workerId: 100,
		});
		const http = await fetch(new URL(`/range?${window}&workerId=100`, ownedUrl));
		expect(http.status).toBe(200);
		expect(await http.json()).toEqual({ ...rpc });
		expect(Number((BigInt(rpc.min) >> 12n) & 1023n)).toBe(100);
	});

	it("a worker ID beyond the layout: invalid_worker_id naming [0, 1023] both ways", async () => {
		const rpc = await Promise.resolve()
			.then(() => ownedIds.range({ kind: "snowflake", from: 1, to: 5, workerId: 1024 }))
			.then(
				() => undefined,
				(e: unknown) => e,
			);
		expect(idErrorCode(rpc)).toBe("invalid_worker_id");
		expect((rpc as Error).message).toContain("[0, 1023]");
		const http = await fetch(new URL(`/range?${window}&workerId=1024`, ownedUrl));
		const body = (await http.json()) as { error: { code: string; message: string } };
		expect([http.status, body.error.code]).toEqual([400, "invalid_worker_id"]);
		expect(body.error.message).toContain("[0, 1023]");
	});
});
