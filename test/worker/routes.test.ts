import { describe, expect, it } from "vitest";
import { expectSnowflakesIncreasing } from "../shared/order";
import { TWITTER_EXAMPLE } from "../shared/spec-vectors";
import { call, callJson } from "./helpers";

describe("GET /health and /layout", () => {
	it("answers health", async () => {
		const { status, body } = await callJson("/health");
		expect(status).toBe(200);
		expect(body).toEqual({ status: "ok" });
	});

	it("states the active layout and when it runs out", async () => {
		const { body } = await callJson("/layout");
		expect(body).toEqual({
			epoch: 1288834974657,
			timeBits: 41,
			workerBits: 10,
			sequenceBits: 12,
			timeUnitMs: 1,
			maxWorkerId: 1023,
			maxSequence: 4095,
			exhaustsAt: "2080-07-10T17:30:30.209Z",
		});
	});
});

describe("/snowflake/:workerId", () => {
	it("issues one ID as a decimal string, uncached", async () => {
		const before = Date.now();
		const response = await call("/snowflake/7");
		expect(response.status).toBe(200);
		expect(response.headers.get("Cache-Control")).toBe("no-store");
		const body = (await response.json()) as { type: string; workerId: number; ids: string[] };
		expect(body.type).toBe("snowflake");
		expect(body.workerId).toBe(7);
		expect(body.ids).toHaveLength(1);
		const [id] = body.ids as [string];
		expect(id).toMatch(/^[0-9]+$/);
		const decoded = await callJson<{ workerId: number; timestamp: number }>(`/decode/${id}`);
		expect(decoded.body.workerId).toBe(7);
		expect(decoded.body.timestamp).toBeGreaterThanOrEqual(before - 1);
	});

	it("issues a batch of 10,000 strictly increasing IDs, also by POST", async () => {
		const { body } = await callJson<{ ids: string[] }>("/snowflake/8?count=10000", {
			method: "POST",
		});
		expect(body.ids).toHaveLength(10_000);
		expectSnowflakesIncreasing(body.ids);
	});

	it("keeps increasing across requests to one worker ID", async () => {
		const first = await callJson<{ ids: string[] }>("/snowflake/9?count=5");
		const second = await callJson<{ ids: string[] }>("/snowflake/9?count=5");
		expectSnowflakesIncreasing([...first.body.ids, ...second.body.ids]);
	});

	it("accepts leading zeros", async () => {
		const { status, body } = await callJson<{ workerId: number; ids: string[] }>(
			"/snowflake/007?count=002",
		);
		expect(status).toBe(200);
		expect(body.workerId).toBe(7);
		expect(body.ids).toHaveLength(2);
	});

	it("answers text/plain one ID per line", async () => {
		const response = await call("/snowflake/3?count=3", { headers: { Accept: "text/plain" } });
		expect(response.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
		expect(response.headers.get("Cache-Control")).toBe("no-store");
		const lines = (await response.text()).split("\n");
		expect(lines).toHaveLength(4);
		expect(lines[3]).toBe("");
		expectSnowflakesIncreasing(lines.slice(0, 3));
	});

	it("issues IDs unique across concurrent requests", async () => {
		const responses = await Promise.all(
			Array.from({ length: 40 }, () => callJson<{ ids: string[] }>("/snowflake/11?count=100")),
		);
		const ids = responses.flatMap((r) => r.body.ids);
		expect(new Set(ids).size).toBe(4_000);
	});

	it("reports the object's stats", async () => {
		await call("/snowflake/12?count=10");
		await call("/snowflake/12?count=5");
		const { body } = await callJson("/snowflake/12/stats");
		expect(body).toMatchObject({
			workerId: 12,
			issued: 15,
			requests: 2,
			leaseWrites: expect.any(Number),
		});
		expect(body.lastTimestamp).toBeGreaterThan(1_700_000_000_000);
	});
});

describe("/snowflake (worker ID picked by the service)", () => {
	it("names a worker ID from AUTO_WORKER_IDS", async () => {
		const seen = new Set<number>();
		for (let i = 0; i < 20; i++) {
			const { body } = await callJson<{ workerId: number; ids: string[] }>("/snowflake?count=2");
			expect(body.workerId).toBeGreaterThanOrEqual(0);
			expect(body.workerId).toBeLessThanOrEqual(31);
			expect(body.ids).toHaveLength(2);
			seen.add(body.workerId);
		}
		expect(seen.size).toBeGreaterThan(1);
	});
});

describe("/ulid and /uuidv7", () => {
	it("issues monotonic ULIDs", async () => {
		const { body, headers } = await callJson<{ type: string; ids: string[] }>("/ulid?count=1000");
		expect(headers.get("Cache-Control")).toBe("no-store");
		expect(body.type).toBe("ulid");
		expect(body.ids).toHaveLength(1000);
		for (const id of body.ids) expect(id).toMatch(/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
		expect([...body.ids].sort()).toEqual(body.ids);
		expect(new Set(body.ids).size).toBe(1000);
	});

	it("writes ULIDs as lowercase UUIDs with format=uuid, decoding to the same ULID kind", async () => {
		const { body } = await callJson<{ ids: string[] }>("/ulid?count=2&format=uuid", {
			method: "POST",
		});
		for (const id of body.ids)
			expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
		const decoded = await callJson<{ ulid: string }>(`/decode/${body.ids[0]}`);
		expect(decoded.body.ulid).toMatch(/^[0-7]/);
	});

	it("issues UUIDv7s", async () => {
		const { body } = await callJson<{ type: string; ids: string[] }>("/uuidv7?count=500");
		expect(body.type).toBe("uuidv7");
		for (const id of body.ids)
			expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		expect([...body.ids].sort()).toEqual(body.ids);
	});

	it("answers text/plain", async () => {
		const response = await call("/uuidv7?count=2", { headers: { Accept: "text/plain" } });
		expect(response.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
		expect((await response.text()).trim().split("\n")).toHaveLength(2);
	});
});

describe("GET /decode/:id", () => {
	it("decodes Twitter's worked example", async () => {
		const { status, body } = await callJson(`/decode/${TWITTER_EXAMPLE.id}`);
		expect(status).toBe(200);
		expect(body).toEqual(TWITTER_EXAMPLE.decoded);
	});

	it("decodes a ULID, case-insensitively, to its canonical form", async () => {
		const { body } = await callJson("/decode/01aryz6s41tsv4rrffq69g5fav");
		expect(body).toEqual({
			type: "ulid",
			id: "01ARYZ6S41TSV4RRFFQ69G5FAV",
			timestamp: 1469918176385,
			time: "2016-07-30T22:36:16.385Z",
			randomness: expect.stringMatching(/^[0-9a-f]{20}$/),
			uuid: "01563df3-6481-d676-4c61-efb99302bd5b",
		});
	});

	it("decodes a UUIDv7", async () => {
		const { body } = await callJson("/decode/017F22E2-79B0-7CC3-98C4-DC0C0C07398F");
		expect(body).toMatchObject({
			type: "uuidv7",
			id: "017f22e2-79b0-7cc3-98c4-dc0c0c07398f",
			timestamp: 1645557742000,
			time: "2022-02-22T19:22:22.000Z",
		});
	});

	it("decodes another UUID version with its ULID form", async () => {
		const { body } = await callJson("/decode/01563df3-6481-d676-4c61-efb99302bd5b");
		expect(body).toEqual({
			type: "uuid",
			id: "01563df3-6481-d676-4c61-efb99302bd5b",
			version: 13,
			ulid: "01ARYZ6S41TSV4RRFFQ69G5FAV",
		});
	});
});
