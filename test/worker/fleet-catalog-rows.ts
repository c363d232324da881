/**
 * Rows written into the fleet catalog the way creates and reports leave them (the
 * directory's name, the shard's row and its counts, the shard's summary at the root),
 * without the sequences' own objects: many sequences in a test, fast.
 *
 *   await writeSequences("bound", 0, 200); // bound-00000 … bound-00199, each reported once
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { ROW_SETTINGS, reportedRow } from "../../scripts/load/fleet-scale-worker/reported-row";
import { directoryStub, shardStub } from "../../src/worker/object/catalog-calls";
import type { FleetCatalog } from "../../src/worker/object/fleet-catalog";
import { shardOf } from "../../src/worker/object/minute-alarm";
import { summarizeShardOf } from "./fleet-helpers";

/** The name of row `i` under `label`. */
export const rowName = (label: string, i: number) => `${label}-${String(i).padStart(5, "0")}`;

/** Sequences `from` to `to - 1` under `label`: created, reported (issued i + 1 numbers), summed up. */
export async function writeSequences(label: string, from: number, to: number): Promise<void> {
	const now = Date.now();
	const names = Array.from({ length: to - from }, (_, k) => rowName(label, from + k));
	await runInDurableObject(directoryStub(env), async (directory: FleetCatalog) => {
		for (const name of names) await directory.registerSequence(name, ROW_SETTINGS, now);
	});
	const byShard = new Map<number, string[]>();
	for (const name of names)
		byShard.set(shardOf(name), [...(byShard.get(shardOf(name)) ?? []), name]);
	for (const [, inShard] of byShard) {
		const [first] = inShard;
		if (first === undefined) continue;
		await runInDurableObject(shardStub(env, first), async (shard: FleetCatalog) => {
			for (const name of inShard) {
				await shard.addSequence(name, ROW_SETTINGS, now);
				await shard.reportSequence(
					reportedRow(name, Number(name.slice(label.length + 1)) + 1, now),
				);
			}
		});
		await summarizeShardOf(first);
	}
}
