/**
 * `GET /metrics`: the catalog's counts in the Prometheus text exposition format,
 * parsed line by line: every sample belongs to a family declared by `# HELP` and
 * `# TYPE` before it, values are numbers, counters end in `_total`. Worker ID 30 is
 * this file's (its object pushes its counts from its minute alarm). A sequence's
 * samples: ./sequence-stats.test.ts.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { SnowflakeWorker } from "../../src/worker/object/snowflake-worker";
import { call, callJson, snowflakeStub } from "./helpers";

interface Family {
	help: string;
	type: string;
	samples: Map<string, number>;
}

/** The exposition text as families, failing on any line that is not of the format. */
function parseExposition(text: string): Map<string, Family> {
	const families = new Map<string, Family>();
	expect(text.endsWith("\n")).toBe(true);
	for (const line of text.slice(0, -1).split("\n")) {
		const help = /^# HELP ([a-z_]+) (.+)$/.exec(line);
		const type = /^# TYPE ([a-z_]+) (counter|gauge)$/.exec(line);
		const sample = /^([a-z_]+)(\{[a-z_]+="(?:[^"\\]|\\.)*"\})? (-?[0-9.e+]+)$/.exec(line);
		if (help)
			families.set(help[1] as string, { help: help[2] as string, type: "", samples: new Map() });
		else if (type) {
			const family = families.get(type[1] as string);
			expect(family, `# TYPE before # HELP: ${line}`).toBeDefined();
			(family as Family).type = type[2] as string;
		} else if (sample) {
			const family = families.get(sample[1] as string);
			expect(family?.type, `a sample of an undeclared family: ${line}`).toMatch(/counter|gauge/);
			expect(Number.isFinite(Number(sample[3]))).toBe(true);
			family?.samples.set(sample[2] ?? "", Number(sample[3]));
		} else throw new Error(`not exposition format: ${JSON.stringify(line)}`);
	}
	return families;
}

describe("GET /metrics", () => {
	it("answers each worker ID's counters, the leases held and the layout's years left", async () => {
		const now = Date.now(); // read once: two readings may straddle a millisecond
		const minute = now - (now % 60_000);
		await snowflakeStub(30).stats(30);
		await runInDurableObject(snowflakeStub(30), (instance: SnowflakeWorker) => {
			instance.minuteClock = () => minute - 30_000;
		});
		expect((await call("/snowflake/30?count=9")).status).toBe(200);
		await runInDurableObject(snowflakeStub(30), (instance: SnowflakeWorker) => {
			instance.minuteClock = () => minute + 1_000;
		});
		await runDurableObjectAlarm(snowflakeStub(30));

		const response = await call("/metrics");
		expect(response.status).toBe(200);
		expect(response.headers.get("Content-Type")).toBe("text/plain; version=0.0.4; charset=utf-8");
		const families = parseExposition(await response.text());
		for (const [name, family] of families) {
			expect(family.type === "counter", name).toBe(name.endsWith("_total"));
		}
		const worker = '{worker_id="30"}';
		expect(families.get("edge_ids_ids_issued_total")?.samples.get(worker)).toBe(9);
		expect(families.get("edge_ids_requests_total")?.samples.get(worker)).toBe(1);
		expect(families.get("edge_ids_refusals_total")?.samples.get(worker)).toBe(0);
		expect(families.get("edge_ids_waits_total")?.samples.get(worker)).toBe(0);
		expect(families.get("edge_ids_leases_held")?.samples.get("")).toBe(0);
		const { body: stats } = await callJson<{ layout: { yearsLeft: number } }>("/stats");
		const yearsLeft = families.get("edge_ids_layout_years_left")?.samples.get("");
		expect(yearsLeft).toBe(stats.layout.yearsLeft);
		expect(yearsLeft).toBeGreaterThan(50);
	});
});
