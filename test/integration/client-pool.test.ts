import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { builtEntry, workerModules } from "../../scripts/lib/built-worker";
import { type IdServiceRpc, idsClient } from "../../src/client";
import { createIdPool } from "../../src/client/pool";
import type { IdService } from "../../src/index";

const LAYOUT = { SNOWFLAKE_WORKER_BITS: "8", SNOWFLAKE_SEQUENCE_BITS: "14" };
let mf: Miniflare;
let baseUrl: string;
let IDS: Service<IdService>;

beforeAll(async () => {
	const { compatibility_date: compatibilityDate } = unstable_readConfig({
		config: "wrangler.toml",
	});
	mf = new Miniflare(
		convertV4MiniflareOptions({
			host: "127.0.0.1",
			port: 0,
			workers: [
				{
					name: "edge-ids",
					...workerModules(builtEntry(".build/service")),
					compatibilityDate,
					bindings: { ...LAYOUT, REQUEST_LOG: "off" },
					durableObjects: { SNOWFLAKE: { className: "SnowflakeWorker", useSQLite: true } },
				},
				{
					name: "caller",
					modules: true,
					script: "export default { fetch() { return new Response(null, { status: 404 }); } };",
					compatibilityDate,
					serviceBindings: { IDS: { name: "edge-ids", entrypoint: "IdService" } },
				},
			],
		}),
	);
	baseUrl = (await mf.ready).toString();
	IDS = (await mf.getBindings<{ IDS: Service<IdService> }>("caller")).IDS;
}, 120_000);

afterAll(() => mf?.dispose());

/** The service's own reading of each ID: its worker ID under its layout. */
async function servedWorkerIds(ids: string[]): Promise<number[]> {
	return Promise.all(
		ids.map(async (id) => ((await IDS.decode(id)) as { workerId: number }).workerId),
	);
}

describe("createIdPool against a service on an 8/14 layout", () => {
	it("the service runs the layout", async () => {
		expect(await IDS.layout()).toMatchObject({ workerBits: 8, sequenceBits: 14, maxWorkerId: 255 });
	});

	it.each([
		["RPC", (): Pick<IdServiceRpc, "snowflakeBlocks" | "layout"> => IDS],
		["HTTP", () => idsClient({ baseUrl })],
	])("over %s: every pooled ID is the service's, of its answer's worker ID", async (_, source) => {
		const pool = createIdPool({ source: source() });
		const seen = new Set<string>();
		for (let i = 0; i < 12; i++) {
			const answer = await pool.snowflake({ count: 1 + (i % 3) });
			expect(await servedWorkerIds(answer.ids)).toEqual(answer.ids.map(() => answer.workerId));
			for (const id of answer.ids) {
				expect(seen.has(id)).toBe(false);
				seen.add(id);
			}
		}
		// A count above maxSize goes straight to the service, under the same layout.
		const direct = await pool.snowflake({ count: 5000 });
		expect(await servedWorkerIds([direct.ids[0] ?? "", direct.ids.at(-1) ?? ""])).toEqual([
			direct.workerId,
			direct.workerId,
		]);
	});

	it("a pool told Twitter's layout refuses to run against it", async () => {
		const pool = createIdPool({
			source: IDS,
			layout: {
				epoch: 1288834974657,
				timeBits: 41,
				workerBits: 10,
				sequenceBits: 12,
				timeUnitMs: 1,
			},
		});
		await expect(pool.snowflake()).rejects.toMatchObject({ code: "layout_mismatch" });
	});
});
