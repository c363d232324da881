/**
 * Counts one object call cannot issue in time are refused up front with the limit
 * that holds (never an object's different one), and worker-ID sets of any size
 * cost no memory to parse.
 */
import { describe, expect, it } from "vitest";
import { appWith, layoutVars } from "./helpers";

const refusal = (max: number) => ({
	status: 400,
	body: {
		error: {
			code: "invalid_count",
			message: expect.stringContaining(`count must be an integer in [1, ${max}]`),
		},
	},
});

describe("count limits", () => {
	it("a one-second tick with one sequence bit allows 6 IDs a call: (1 + 2 s of ticks) × 2", async () => {
		const slow = appWith(layoutVars({ time: 31, worker: 10, sequence: 22, unitMs: 1000 }));
		// 22 sequence bits hold millions a tick: MAX_BATCH is the limit.
		expect(await slow("/snowflake/1?count=10001")).toEqual(refusal(10_000));
		const tiny = appWith(layoutVars({ time: 32, worker: 30, sequence: 1, unitMs: 1000 }));
		expect(await tiny("/snowflake/1?count=7")).toEqual(refusal(6));
		expect(await tiny("/snowflake/1/blocks?count=7")).toMatchObject({
			status: 400,
			body: { error: { code: "invalid_count" } },
		});
	});

	it("blocks stop at what one call can issue within MAX_WAIT_MS, below MAX_BLOCK_COUNT", async () => {
		// (1 + 100 ms wait + 5 ms borrowed) ticks × 4,033 IDs a new tick surely holds.
		const short = appWith({ MAX_WAIT_MS: "100" });
		const { status, body } = await short("/snowflake/3/blocks?count=427499");
		expect(status).toBe(400);
		expect(JSON.stringify(body)).toContain("[1, 427498]");
	});

	it("a 30-bit worker field with every worker ID auto parses at once and answers", async () => {
		const wide = appWith({
			...layoutVars({ time: 31, worker: 30, sequence: 2, unitMs: 1000 }),
			AUTO_WORKER_IDS: "0-1073741823",
		});
		const started = performance.now();
		expect(await wide("/health")).toEqual({ status: 200, body: { status: "ok" } });
		expect(await wide("/regions")).toMatchObject({
			status: 200,
			body: { workerIds: "0-1073741823", autoWorkerIds: "0-1073741823" },
		});
		expect(await wide("/snowflake/1073741824")).toMatchObject({
			status: 400,
			body: { error: { code: "invalid_worker_id" } },
		});
		expect(performance.now() - started).toBeLessThan(1_000);
	});
});

describe("a refused number is quoted as it was sent", () => {
	it.each([
		["/ulid?count=99999999999999999999", "count", '"99999999999999999999"'],
		["/uuidv7?count=0050000", "count", '"0050000"'],
		["/snowflake/1?count=000", "count", '"000"'],
		["/snowflake/blocks?count=99999999999999999999", "count", '"99999999999999999999"'],
		["/snowflake/99999999999999999999", "workerId", '"99999999999999999999"'],
		["/snowflake/0001024/stats", "workerId", '"0001024"'],
	])("%s names %s and echoes %s exactly", async (path, name, echoed) => {
		const { status, body } = await appWith({})(path);
		expect(status).toBe(400);
		const message = (body.error as { message: string }).message;
		expect(message).toMatch(new RegExp(`^${name} must be `));
		expect(message.endsWith(`got ${echoed}`)).toBe(true);
		expect(message).not.toMatch(/\b1e\+?20\b|100000000000000000000/);
	});
});
