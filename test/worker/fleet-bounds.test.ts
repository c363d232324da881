/**
 * Every fleet answer is bounded whatever the number of sequences: measured at 200 and at
 * 2,000 sequences (rows written into the catalog as creates and reports leave them), each
 * answer's size stays within a constant of the smaller one's, and `/metrics` carries at
 * most METRICS_SEQUENCES sequences (0: none). docs/SCALING.md has the 200,000-sequence run.
 */
import { describe, expect, it } from "vitest";
import { envWith, fetchApp } from "../shared/fetch-app";
import { writeSequences } from "./fleet-catalog-rows";

const LEASES = { LEASE_WORKER_IDS: "600-699" };
/**
 * Each route, and how much more it may hold at 2,000 sequences than at 200: a page holds
 * at most `limit` rows (~250 bytes a /stats row, at most 67 a name), and at 200 sequences
 * it may be short (all 200 names; a /stats page reads 32 shards) where at 2,000 it is full.
 * The other answers do not grow with the sequences at all.
 */
const ROUTES: Record<string, number> = {
	"/stats": 100 * 250,
	"/stats?limit=1000": 1_000 * 250,
	"/metrics": 0,
	"/leases": 0,
	"/stats/history?minutes=1440": 0,
	"/sequences": 100 * 67,
	"/sequences?limit=1000": 1_000 * 67,
};

/** Each route's answer size in bytes (each must answer 200). */
async function sizes(): Promise<Record<string, number>> {
	const measured: Record<string, number> = {};
	for (const route of Object.keys(ROUTES)) {
		const response = await fetchApp(route, {}, envWith(LEASES));
		expect(response.status, route).toBe(200);
		measured[route] = (await response.arrayBuffer()).byteLength;
	}
	return measured;
}

/** The sequences with samples in a `/metrics` answer. */
function metricsSequences(text: string): Set<string> {
	return new Set([...text.matchAll(/\{sequence="([^"]+)"\}/g)].map((m) => m[1] as string));
}

describe("fleet answers as the sequences grow", () => {
	it("stay within a constant from 200 to 2,000 sequences", { timeout: 180_000 }, async () => {
		await writeSequences("grow", 0, 200);
		const small = await sizes();
		await writeSequences("grow", 200, 2_000);
		const large = await sizes();
		for (const [route, pageRows] of Object.entries(ROUTES)) {
			expect(large[route], route).toBeLessThanOrEqual((small[route] ?? 0) * 1.1 + 4_096 + pageRows);
		}
		expect(large["/stats?limit=1000"]).toBeLessThan(500_000);
		const metrics = await (await fetchApp("/metrics")).text();
		const shown = metricsSequences(metrics);
		expect(shown.size).toBe(100);
		// The busiest: the 100 with the most calls (grow-01900 … grow-01999 made the most).
		expect([...shown].every((name) => Number(name.slice(5)) >= 1_900)).toBe(true);
		expect(metrics).toContain("edge_ids_sequences 2000\n");
	});

	it("show METRICS_SEQUENCES sequences in /metrics, none at 0", { timeout: 60_000 }, async () => {
		await writeSequences("few", 0, 50);
		const ten = await (await fetchApp("/metrics", {}, envWith({ METRICS_SEQUENCES: "10" }))).text();
		expect(metricsSequences(ten).size).toBe(10);
		const none = await (await fetchApp("/metrics", {}, envWith({ METRICS_SEQUENCES: "0" }))).text();
		expect(metricsSequences(none).size).toBe(0);
		expect(none).toMatch(/^edge_ids_sequences [0-9]+$/m);
	});

	it("refuse a METRICS_SEQUENCES that is not an integer in [0, 1000] as invalid_config", async () => {
		for (const bad of ["-1", "1001", "many", "1.5"]) {
			const response = await fetchApp("/metrics", {}, envWith({ METRICS_SEQUENCES: bad }));
			expect(response.status, bad).toBe(500);
			const { error } = (await response.json()) as { error: { code: string; message: string } };
			expect(error.code).toBe("invalid_config");
			expect(error.message).toContain("METRICS_SEQUENCES must be an integer in [0, 1000]");
		}
	});
});
