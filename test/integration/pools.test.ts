import type { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idsClient } from "../../src/client";
import { createIdPool } from "../../src/client/pool";
import { expandBlocks } from "../../src/ids/snowflake/blocks";
import type { IdService } from "../../src/index";
import { expectSnowflakesIncreasing } from "../shared/order";
import { startServiceAndConsumer } from "./setup";

const TOKEN = "pools-test-secret";
let mf: Miniflare;
let IDS: Service<IdService>;
let baseUrl: string;

beforeAll(async () => {
	const started = await startServiceAndConsumer({ apiToken: TOKEN });
	mf = started.mf;
	baseUrl = started.url.toString();
	IDS = (await mf.getBindings<{ IDS: Service<IdService> }>(started.consumerName)).IDS;
}, 120_000);

afterAll(() => mf?.dispose());

function expectUniqueIncreasingPerAnswer(answers: { workerId: number; ids: string[] }[]) {
	const seen = new Set<string>();
	for (const { workerId, ids } of answers) {
		expectSnowflakesIncreasing(ids);
		for (const id of ids) {
			expect(Number((BigInt(id) >> 12n) & 1023n)).toBe(workerId);
			expect(seen.has(id)).toBe(false);
			seen.add(id);
		}
	}
}

describe("pools over the real bundle", () => {
	it("RPC snowflake() without workerId: pooled, unique, one worker ID per answer", async () => {
		const answers = await Promise.all(
			Array.from({ length: 40 }, (_, i) => IDS.snowflake({ count: 1 + (i % 3) })),
		);
		expectUniqueIncreasingPerAnswer(answers);
		let objectCalls = 0;
		for (let workerId = 0; workerId < 32; workerId++) {
			const stats = (await (
				await mf.dispatchFetch(`${baseUrl}snowflake/${workerId}/stats`, {
					headers: { Authorization: `Bearer ${TOKEN}` },
				})
			).json()) as { requests: number };
			objectCalls += stats.requests;
		}
		// Unpooled this is 40. The first block (16 IDs) serves about 8 of these ~80 IDs;
		// the rest wait on shared refills as the block doubles: a handful of calls.
		expect(objectCalls).toBeLessThanOrEqual(8);
	});

	it("RPC snowflakeBlocks: many IDs as runs", async () => {
		const answer = await IDS.snowflakeBlocks({ workerId: 6, count: 5000 });
		expect(answer).toMatchObject({ type: "snowflake-blocks", workerId: 6 });
		expect([...expandBlocks(answer.blocks)]).toHaveLength(5000);
		// Miniflare's Node proxy may throw synchronously; a Worker caller gets a rejection.
		const error = await Promise.resolve()
			.then(() => IDS.snowflakeBlocks({ count: 0 }))
			.then(
				() => undefined,
				(e: unknown) => e,
			);
		expect((error as Error).message).toMatch(/^invalid_count: .*\[1, 1000000\]/);
	});

	it("createIdPool over the binding and over HTTP: few service calls, unique IDs", async () => {
		const overRpc = createIdPool({ source: IDS });
		const overHttp = createIdPool({
			source: idsClient({ baseUrl, token: TOKEN }),
		});
		const answers = [];
		for (let i = 0; i < 50; i++) {
			answers.push(await overRpc.snowflake({ count: 2 }));
			answers.push(await overHttp.snowflake());
		}
		expectUniqueIncreasingPerAnswer(answers);
		expect(overRpc.stats().refills + overRpc.stats().directCalls).toBeLessThanOrEqual(6);
		expect(overHttp.stats().refills + overHttp.stats().directCalls).toBeLessThanOrEqual(6);
	});
});
