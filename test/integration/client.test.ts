import { hc } from "hono/client";
import type { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { IdsError, idErrorCode, idsClient } from "../../src/client";
import type { AppType } from "../../src/index";
import type {
	DecodedForeign,
	DecodedId,
	SnowflakeBlocks,
	SnowflakeIds,
	UlidIds,
	UuidV7Ids,
} from "../../src/wire";
import { DISCORD_EXAMPLE } from "../shared/spec-vectors";
import { startServiceAndConsumer } from "./setup";

const TOKEN = "client-test-secret";
let mf: Miniflare;
let baseUrl: string;

beforeAll(async () => {
	const started = await startServiceAndConsumer({ apiToken: TOKEN });
	mf = started.mf;
	baseUrl = started.url.toString();
}, 120_000);

afterAll(() => mf?.dispose());

describe("the typed HTTP client against the running service", () => {
	it("covers every route", async () => {
		const ids = idsClient({ baseUrl, token: TOKEN });
		const named = await ids.snowflake({ workerId: 903, count: 4 });
		expect(named).toMatchObject({ type: "snowflake", workerId: 903 });
		expect(named.ids).toHaveLength(4);
		const auto = await ids.snowflake();
		expect(auto.ids).toHaveLength(1);
		expect((await ids.ulid({ count: 2 })).ids).toHaveLength(2);
		expect((await ids.ulid({ format: "uuid" })).ids[0]).toMatch(/^[0-9a-f]{8}-/);
		expect((await ids.uuidv7({ count: 3 })).ids).toHaveLength(3);
		expect(await ids.decode(named.ids[0] ?? "")).toMatchObject({
			type: "snowflake",
			workerId: 903,
		});
		expect(await ids.layout()).toMatchObject({ timeBits: 41, maxWorkerId: 1023 });
		expect(await ids.regions()).toMatchObject({
			workerIds: "0-1023",
			regions: [],
			request: { region: null, workerIds: "0-31" },
		});
		expect(await ids.stats(903)).toMatchObject({ workerId: 903, issued: 4 }); // outside the auto set: no pool draws from it
		expect(await ids.health()).toEqual({ status: "ok" });
	});

	it("ID forms and ranges: typeid, Snowflake text, decode format, range", async () => {
		const ids = idsClient({ baseUrl, token: TOKEN });
		const users = await ids.typeid({ prefix: "user", count: 2 });
		expect(users).toMatchObject({ type: "typeid", prefix: "user" });
		for (const id of users.ids) expect(id).toMatch(/^user_[0-7][0-9a-hjkmnp-tv-z]{25}$/);
		const orders = await ids.snowflake({ workerId: 904, count: 2, prefix: "order" });
		for (const id of orders.ids) expect(id).toMatch(/^order_[0-7][0-9a-z]{12}$/);
		const blocks = await ids.snowflakeBlocks({ workerId: 904, count: 2, format: "base32" });
		expect(blocks.blocks[0]?.first).toMatch(/^[0-7][0-9a-z]{12}$/);
		const bare = (orders.ids[0] as string).slice("order_".length);
		expect(await ids.decode(bare, { format: "base32" })).toMatchObject({ workerId: 904 });
		const range = await ids.range({
			kind: "snowflake",
			from: "2026-11-01",
			to: "2026-11-02",
			prefix: "order",
		});
		expect(range.min < range.max).toBe(true);
		expect(range.min).toMatch(/^order_/);
		await expect(ids.range({ kind: "ulid", from: 5, to: 5 })).rejects.toMatchObject({
			code: "invalid_range",
			status: 400,
		});
		await expect(ids.typeid({ prefix: "User" })).rejects.toMatchObject({ code: "invalid_prefix" });
	});

	it("throws IdsError with the code, status and message", async () => {
		const ids = idsClient({ baseUrl, token: TOKEN });
		const error = await ids.snowflake({ workerId: 3, count: 0 }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(IdsError);
		expect(error).toMatchObject({ code: "invalid_count", status: 400 });
		expect(idErrorCode(error)).toBe("invalid_count");
		// The request ID the service's log line carries (a UUID it made: none was sent).
		expect((error as IdsError).requestId).toMatch(/^[0-9a-f-]{36}$/);
	});

	it("decodes another system's ID with a preset or explicit widths (Discord's documented ID)", async () => {
		const ids = idsClient({ baseUrl, token: TOKEN });
		expectTypeOf(ids.decode).returns.resolves.toEqualTypeOf<DecodedId | DecodedForeign>();
		const discord = DISCORD_EXAMPLE.id;
		expect(await ids.decode(discord, { layout: "discord" })).toEqual(DISCORD_EXAMPLE.decoded);
		// Discord's 42 time bits since 2015 with a 10-bit worker field: (1 << 5) | 0.
		expect(
			await ids.decode(discord, {
				timeBits: 42,
				workerBits: 10,
				sequenceBits: 12,
				epoch: 1420070400000,
			}),
		).toMatchObject({ layout: "custom", timestamp: 1462015105796, workerId: 32, sequence: 7 });
		// Without options it is read under the service's (Twitter's) layout.
		expect(await ids.decode(discord)).toMatchObject({ timestamp: 1330779680453 });
		await expect(ids.decode(discord, { layout: "discord", timeBits: 42 })).rejects.toMatchObject({
			code: "invalid_layout",
			status: 400,
		});
		await expect(ids.decode(discord, { layout: "snowflake" as "discord" })).rejects.toMatchObject({
			code: "invalid_layout",
		});
	});

	it("sends any ID to /decode only: hostile IDs reach no other route", async () => {
		const ids = idsClient({ baseUrl, token: TOKEN });
		const before = await ids.stats(402);
		for (const hostile of [
			"../snowflake/402?count=3",
			"../layout",
			"1?count=3",
			"1#x",
			"%2F",
			"a/b",
			"",
			".",
			"..",
			"%2e%2E",
		]) {
			const error = await ids.decode(hostile).catch((thrown: unknown) => thrown);
			expect(error, hostile).toMatchObject({ code: "invalid_id", status: 400 });
		}
		expect(await ids.stats(402)).toEqual(before);
	});

	it("sends no worker ID to another route: '.', '..' and non-integers are refused before any request", async () => {
		let requests = 0;
		const counted: typeof fetch = (input, init) => {
			requests++;
			return fetch(input, init);
		};
		const ids = idsClient({ baseUrl, token: TOKEN, fetch: counted });
		const before = await ids.stats(402);
		requests = 0;
		for (const hostile of [".", "..", "", "%2e", "7/../..", -1, 1.5]) {
			const workerId = hostile as number;
			for (const call of [
				ids.snowflake({ workerId }),
				ids.snowflakeBlocks({ workerId, count: 5 }),
				ids.stats(workerId),
			]) {
				await expect(call, String(hostile)).rejects.toMatchObject({
					code: "invalid_worker_id",
					status: 400,
				});
			}
		}
		expect(requests).toBe(0);
		expect(await ids.stats(402)).toEqual(before);
	});

	it("turns an unreachable service into IdsError network_error, the fetch's error as cause", async () => {
		const closed = new URL(baseUrl);
		closed.port = "9"; // discard: nothing listens on loopback
		const ids = idsClient({ baseUrl: closed.toString(), retry: { attempts: 2, baseDelayMs: 1 } });
		const error = await ids.health().catch((thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(IdsError);
		expect(error).toMatchObject({ code: "network_error", status: undefined });
		expect((error as Error).cause).toBeInstanceOf(TypeError);
	});

	it("keeps Hono's typed client (hc<AppType>) working over the same service", async () => {
		const api = hc<AppType>(baseUrl, { headers: { Authorization: `Bearer ${TOKEN}` } });
		const answer = await api.snowflake[":workerId"].$get({
			param: { workerId: "5" },
			query: { count: "2" },
		});
		const body = await answer.json();
		expectTypeOf(body.ids).toEqualTypeOf<string[]>();
		expect(body).toMatchObject({ type: "snowflake", workerId: 5 });
		expect(body.ids).toHaveLength(2);
	});

	it("types every ID route's json() from the routes themselves (type-level)", () => {
		type Api = ReturnType<typeof hc<AppType>>;
		type JsonOf<Call> = Call extends (...args: never[]) => Promise<infer Answer>
			? Answer extends { json(): Promise<infer Body> }
				? Body
				: never
			: never;
		expectTypeOf<JsonOf<Api["snowflake"]["$get"]>>().toEqualTypeOf<SnowflakeIds>();
		expectTypeOf<JsonOf<Api["snowflake"]["$post"]>>().toEqualTypeOf<SnowflakeIds>();
		expectTypeOf<JsonOf<Api["snowflake"][":workerId"]["$post"]>>().toEqualTypeOf<SnowflakeIds>();
		expectTypeOf<JsonOf<Api["ulid"]["$get"]>>().toEqualTypeOf<UlidIds>();
		expectTypeOf<JsonOf<Api["ulid"]["$post"]>>().toEqualTypeOf<UlidIds>();
		expectTypeOf<JsonOf<Api["uuidv7"]["$post"]>>().toEqualTypeOf<UuidV7Ids>();
		expectTypeOf<JsonOf<Api["snowflake"]["blocks"]["$get"]>>().toEqualTypeOf<SnowflakeBlocks>();
		expectTypeOf<
			JsonOf<Api["snowflake"][":workerId"]["blocks"]["$post"]>
		>().toEqualTypeOf<SnowflakeBlocks>();
		// The query's parameters stay typed as what the validators read.
		expectTypeOf<Parameters<Api["ulid"]["$get"]>[0]>().toExtend<{
			query: { count?: string; format?: "ulid" | "uuid" };
		}>();
	});

	it("needs the token over HTTP", async () => {
		const anonymous = idsClient({ baseUrl });
		await expect(anonymous.uuidv7()).rejects.toMatchObject({ code: "unauthorized", status: 401 });
		const wrong = idsClient({ baseUrl, token: "nope" });
		await expect(wrong.decode("1")).rejects.toMatchObject({ code: "unauthorized" });
		expect(await anonymous.health()).toEqual({ status: "ok" });
	});
});
