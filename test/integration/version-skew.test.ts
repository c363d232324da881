import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { builtEntry, workerModules } from "../../scripts/lib/built-worker";

let mf: Miniflare;

beforeAll(async () => {
	const service = unstable_readConfig({ config: "wrangler.toml" });
	const vars = service.vars as Record<string, string>;
	const bundle = {
		...workerModules(builtEntry(".build/service")),
		compatibilityDate: service.compatibility_date,
	};
	mf = new Miniflare(
		convertV4MiniflareOptions({
			workers: [
				{
					...bundle,
					name: "edge-ids",
					bindings: vars,
					durableObjects: { SNOWFLAKE: { className: "SnowflakeWorker", useSQLite: true } },
				},
				{
					...bundle,
					name: "edge-ids-skewed",
					bindings: { ...vars, SNOWFLAKE_WORKER_BITS: "11", SNOWFLAKE_SEQUENCE_BITS: "11" },
					durableObjects: {
						SNOWFLAKE: { className: "SnowflakeWorker", scriptName: "edge-ids", useSQLite: true },
					},
				},
			],
		}),
	);
	await mf.ready;
}, 120_000);

afterAll(() => mf?.dispose());

async function get(worker: string, path: string) {
	const response = await (await mf.getWorker(worker)).fetch(`https://ids.test${path}`);
	return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("two Workers on different layouts, one object namespace", () => {
	it("answers IDs from the Worker on the object's layout", async () => {
		const { status, body } = await get("edge-ids", "/snowflake/7?count=5");
		expect(status).toBe(200);
		expect(body.ids).toHaveLength(5);
	});

	it("refuses with layout_mismatch on the other, issuing no ID of its own", async () => {
		for (const workerId of [7, 8]) {
			const { status, body } = await get("edge-ids-skewed", `/snowflake/${workerId}?count=1000`);
			expect(status).toBe(500);
			expect(body).toMatchObject({
				error: { code: "layout_mismatch", message: expect.stringContaining("bits=41/10/12") },
			});
			expect(body).not.toHaveProperty("ids");
		}
	});
});
