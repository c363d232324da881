import { describe, expect, it } from "vitest";
import { expandBlocks, type SnowflakeBlock } from "../../src/ids/snowflake/blocks";
import type { ErrorBody } from "../../src/wire";
import { expectSnowflakesIncreasing } from "../shared/order";
import { tickOf } from "../shared/ticks";
import { call, callJson } from "./helpers";

const AUTO_WORKER_IDS = Array.from({ length: 32 }, (_, i) => i); // wrangler.toml: 0-31

async function objectCalls(workerIds: number[]): Promise<number> {
	const answers = await Promise.all(
		workerIds.map((workerId) => callJson<{ requests: number }>(`/snowflake/${workerId}/stats`)),
	);
	return answers.reduce((total, { body }) => total + body.requests, 0);
}

const workerOf = (id: string) => Number((BigInt(id) >> 12n) & 1023n);

describe("auto /snowflake from the isolate's pool", () => {
	it("serves many requests per object call, unique, each response from one worker ID", async () => {
		const before = await objectCalls(AUTO_WORKER_IDS);
		const seen = new Set<string>();
		for (let i = 0; i < 60; i++) {
			const { status, body } = await callJson<{ workerId: number; ids: string[] }>(
				`/snowflake?count=${1 + (i % 5)}`,
			);
			expect(status).toBe(200);
			for (let j = 0; j < body.ids.length; j++) {
				const id = body.ids[j] as string;
				expect(workerOf(id)).toBe(body.workerId);
				if (j > 0) expect(BigInt(id) > BigInt(body.ids[j - 1] as string)).toBe(true);
				expect(seen.has(id)).toBe(false);
				seen.add(id);
			}
		}
		const calls = (await objectCalls(AUTO_WORKER_IDS)) - before;
		// Without a pool this is 60; the pool grows 16, 32, 64 … so a handful of refills
		// (a few more if a slow machine lets blocks expire).
		expect(calls).toBeGreaterThanOrEqual(1);
		expect(calls).toBeLessThanOrEqual(15);
	}, 30_000);

	it("never hands out an ID older than POOL_MAX_AGE_MS: leftovers expire", async () => {
		await call("/snowflake"); // the pool holds leftovers now
		await scheduler.wait(1100);
		for (let i = 0; i < 5; i++) {
			const before = Date.now();
			const { body } = await callJson<{ ids: string[] }>("/snowflake");
			const { body: decoded } = await callJson<{ timestamp: number }>(`/decode/${body.ids[0]}`);
			// Handed out after `before`, at most 1,000 ms after its tick.
			expect(decoded.timestamp).toBeGreaterThanOrEqual(before - 1000);
		}
	}, 30_000);

	it("the explicit route is never pooled: one object call per request", async () => {
		const before = await objectCalls([9]);
		for (let i = 0; i < 10; i++) expect((await call("/snowflake/9")).status).toBe(200);
		// The stats reads themselves are not issue calls.
		expect((await objectCalls([9])) - before).toBe(10);
	});
});

interface BlocksBody {
	type: string;
	workerId: number;
	blocks: SnowflakeBlock[];
}

describe("/snowflake/blocks and /snowflake/:workerId/blocks", () => {
	it("answers count IDs as runs of consecutive integers, one tick each, after earlier IDs", async () => {
		const { body: earlier } = await callJson<{ ids: string[] }>("/snowflake/5");
		const { status, body, headers } = await callJson<BlocksBody>(
			"/snowflake/5/blocks?count=10000",
			{ method: "POST" },
		);
		expect(status).toBe(200);
		expect(headers.get("Cache-Control")).toBe("no-store");
		expect(body.type).toBe("snowflake-blocks");
		expect(body.workerId).toBe(5);
		expect(body.blocks.reduce((sum, block) => sum + block.count, 0)).toBe(10000);
		// 10,000 IDs need at least three ticks of 4,096.
		expect(body.blocks.length).toBeGreaterThanOrEqual(3);
		for (const block of body.blocks) {
			const last = String(BigInt(block.first) + BigInt(block.count - 1));
			expect(tickOf(last)).toBe(tickOf(block.first));
		}
		const ids = [...expandBlocks(body.blocks)];
		expect(BigInt(ids[0] as string) > BigInt(earlier.ids[0] as string)).toBe(true);
		expectSnowflakesIncreasing(ids);
		expect(ids.every((id) => workerOf(id) === 5)).toBe(true);
		const { body: later } = await callJson<{ ids: string[] }>("/snowflake/5");
		expect(BigInt(later.ids[0] as string) > BigInt(ids.at(-1) as string)).toBe(true);
	});

	it("auto blocks come from an auto worker ID", async () => {
		const { status, body } = await callJson<BlocksBody>("/snowflake/blocks?count=3");
		expect(status).toBe(200);
		expect(AUTO_WORKER_IDS).toContain(body.workerId);
		expect([...expandBlocks(body.blocks)]).toHaveLength(3);
	});

	it.each([
		["/snowflake/blocks?count=0", "invalid_count"],
		["/snowflake/blocks?count=1000001", "invalid_count"],
		["/snowflake/3/blocks?count=abc", "invalid_count"],
		["/snowflake/1024/blocks?count=5", "invalid_worker_id"],
	])("%s is a 400 %s naming the allowed range", async (path, code) => {
		const { status, body } = await callJson<ErrorBody>(path);
		expect(status).toBe(400);
		expect(JSON.stringify(body)).toContain(code);
		expect(JSON.stringify(body)).toContain(code === "invalid_count" ? "[1, 1000000]" : "[0, 1023]");
	});

	it("other methods are a 405", async () => {
		expect((await call("/snowflake/blocks", { method: "DELETE" })).status).toBe(405);
		expect((await call("/snowflake/4/blocks", { method: "PUT" })).status).toBe(405);
	});
});
