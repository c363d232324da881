/**
 * The HTTP client's ID calls GET exactly the routes and query the service reads,
 * each option only when given, with `Accept: application/json` and, when the
 * client has a token, `Authorization: Bearer <token>`; each returns the answer as parsed.
 */
import { describe, expect, it } from "vitest";
import { recordingClient } from "./recording-fetch";

describe("headers", () => {
	it("sends Accept, and Authorization only when the client has a token", async () => {
		const bare = recordingClient({ status: "ok" });
		expect(await bare.client.health()).toEqual({ status: "ok" });
		const authorized = recordingClient({ status: "ok" }, { token: "s3cret" });
		await authorized.client.health();
		expect([bare.sent[0]?.headers, authorized.sent[0]?.headers]).toEqual([
			{ Accept: "application/json" },
			{ Accept: "application/json", Authorization: "Bearer s3cret" },
		]);
	});
});

describe("ID routes", () => {
	it("snowflake and snowflakeBlocks: the worker ID's path with one, the picking route without", async () => {
		const { client, sent } = recordingClient({ ids: ["1"] });
		expect(
			await client.snowflake({ workerId: 7, count: 2, format: "base32", prefix: "o_" }),
		).toEqual({ ids: ["1"] });
		await client.snowflake();
		await client.snowflakeBlocks({ workerId: 3, count: 500 });
		await client.snowflakeBlocks({ format: "base32" });
		expect(sent.map(({ method, url, body }) => [method, url, body])).toEqual([
			["GET", "https://ids.test/v1/snowflake/7?count=2&format=base32&prefix=o_", undefined],
			["GET", "https://ids.test/v1/snowflake", undefined],
			["GET", "https://ids.test/v1/snowflake/3/blocks?count=500", undefined],
			["GET", "https://ids.test/v1/snowflake/blocks?format=base32", undefined],
		]);
	});

	it("ulid, uuidv7 and typeid put their options in the query only when given", async () => {
		const { client, sent } = recordingClient({ ids: ["x"] });
		expect(await client.ulid({ count: 3, format: "uuid" })).toEqual({ ids: ["x"] });
		await client.ulid();
		await client.uuidv7({ count: 4 });
		await client.uuidv7();
		await client.typeid({ count: 2, prefix: "user" });
		await client.typeid();
		expect(sent.map(({ url }) => url)).toEqual([
			"https://ids.test/v1/ulid?count=3&format=uuid",
			"https://ids.test/v1/ulid",
			"https://ids.test/v1/uuidv7?count=4",
			"https://ids.test/v1/uuidv7",
			"https://ids.test/v1/typeid?count=2&prefix=user",
			"https://ids.test/v1/typeid",
		]);
	});

	it("range sends every option given, and no other", async () => {
		const { client, sent } = recordingClient({ min: "1", max: "2" });
		const options = {
			kind: "snowflake",
			from: "2026-11-29T00:00:00Z",
			to: 1_764_460_800_000,
			workerId: 4,
			format: "base32",
			prefix: "o_",
		} as const;
		expect(await client.range(options)).toEqual({ min: "1", max: "2" });
		await client.range({ kind: "ulid", from: 0, to: 1 });
		expect(sent.map(({ url }) => url)).toEqual([
			"https://ids.test/v1/range?kind=snowflake&from=2026-11-29T00%3A00%3A00Z&to=1764460800000&workerId=4&format=base32&prefix=o_",
			"https://ids.test/v1/range?kind=ulid&from=0&to=1",
		]);
	});

	it("decode sends the layout's options given, and no other", async () => {
		const { client, sent } = recordingClient({ kind: "foreign" });
		expect(
			await client.decode("175928847299117063", {
				timeBits: 42,
				workerBits: 10,
				sequenceBits: 12,
				epoch: 1_420_070_400_000,
				timeUnitMs: 1,
				format: "base32",
			}),
		).toEqual({ kind: "foreign" });
		await client.decode("175928847299117063", { layout: "discord" });
		await client.decode("01ARYZ6S41TSV4RRFFQ69G5FAV");
		expect(sent.map(({ url }) => url)).toEqual([
			"https://ids.test/v1/decode/175928847299117063?format=base32&timeBits=42&workerBits=10&sequenceBits=12&epoch=1420070400000&timeUnitMs=1",
			"https://ids.test/v1/decode/175928847299117063?layout=discord",
			"https://ids.test/v1/decode/01ARYZ6S41TSV4RRFFQ69G5FAV",
		]);
	});

	it("layout, regions, health and stats GET their routes with no query", async () => {
		const { client, sent } = recordingClient({ ok: 1 });
		expect(await client.layout()).toEqual({ ok: 1 });
		expect(await client.regions()).toEqual({ ok: 1 });
		await client.health();
		await client.stats(12);
		expect(sent.map(({ method, url, body }) => [method, url, body])).toEqual([
			["GET", "https://ids.test/v1/layout", undefined],
			["GET", "https://ids.test/v1/regions", undefined],
			["GET", "https://ids.test/v1/health", undefined],
			["GET", "https://ids.test/v1/snowflake/12/stats", undefined],
		]);
	});
});
