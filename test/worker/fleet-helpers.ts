/**
 * The fleet view in tests: every row of `GET /stats` (page by page), and a shard's
 * summary for the root run when the test says (its alarm is a minute away at most).
 *
 *   const row = (await statsRows()).sequences.find((s) => s.name === name);
 *   await summarizeShardOf(name); // the root's totals and /metrics now count it
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { FleetStats } from "../../src/wire";
import { shardStub } from "../../src/worker/object/catalog-calls";
import { callJson } from "./helpers";

/** Every worker ID and sequence `GET /stats` lists, through every page (limit 1000). */
export async function statsRows(): Promise<Pick<FleetStats, "workerIds" | "sequences">> {
	const rows: Pick<FleetStats, "workerIds" | "sequences"> = { workerIds: [], sequences: [] };
	let cursor: string | null = null;
	do {
		const query: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
		const { status, body } = await callJson<FleetStats>(`/stats?limit=1000${query}`);
		expect(status).toBe(200);
		rows.workerIds.push(...body.workerIds);
		rows.sequences.push(...body.sequences);
		cursor = body.cursor;
	} while (cursor !== null);
	return rows;
}

/** Runs the alarm of the shard of sequence `name`: its summary reaches the root. */
export async function summarizeShardOf(name: string): Promise<boolean> {
	return runDurableObjectAlarm(shardStub(env, name));
}
