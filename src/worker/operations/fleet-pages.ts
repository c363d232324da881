/**
 * A page of `GET /stats`: worker IDs first (in ID order, from the catalog's root), then
 * sequences in catalog order (by shard, then by name), `limit` rows in all, with the
 * fleet's totals on every page. Requests per page: the root, and once the page reaches
 * the sequences the directory (how many names each shard holds) and the non-empty
 * shards it lists from, SHARD_BATCH at a time in parallel, MAX_SHARD_REQUESTS at most.
 * The cursor is `w:<worker ID>` or `s:<sequence name>` (the row the page ended at: a
 * name's shard is its hash's), so it stays valid whatever is created meanwhile.
 *
 *   await statsPage(env, { limit: 100 });                 // { workerIds, sequences, totals, cursor: "s:orders" }
 *   await statsPage(env, { limit: 100, cursor: "s:orders" });
 */
import type { FleetStats, SequenceCounts } from "../../wire";
import type { ContractInput } from "../contracts/fields";
import { DEFAULT_STATS_LIMIT, type fleetStatsContract } from "../contracts/ops";
import { askCatalog, directoryStub, rootStub, shardStubAt } from "../object/catalog-calls";
import { CATALOG_SHARDS, shardOf } from "../object/minute-alarm";

/**
 * Shards asked at once, and at most for one page: with the root and the directory, 34
 * requests, inside the Workers Free plan's 50 subrequests. A page of a sparse fleet (fewer
 * rows a shard than `limit` / 32) may then hold fewer rows than `limit`; its cursor goes on.
 */
const SHARD_BATCH = 16;
const MAX_SHARD_REQUESTS = 32;

type Position = { workerIdAfter: number | null } | { sequenceAfter: string | null };

function positionOf(cursor: string | undefined): Position {
	if (cursor === undefined) return { workerIdAfter: null };
	if (cursor.startsWith("w:")) return { workerIdAfter: Number(cursor.slice(2)) };
	return { sequenceAfter: cursor.slice(2) };
}

export async function statsPage(
	env: Env,
	input: ContractInput<typeof fleetStatsContract>,
): Promise<Omit<FleetStats, "layout">> {
	const limit = input.limit ?? DEFAULT_STATS_LIMIT;
	const position = positionOf(input.cursor);
	const workerIdAfter = "workerIdAfter" in position ? position.workerIdAfter : null;
	const root = await askCatalog(
		() => rootStub(env),
		(stub) => stub.statsPage(workerIdAfter, "workerIdAfter" in position ? limit : 0),
	);
	const { workerIds, totals, serverNowMs } = root;
	const last = workerIds.at(-1);
	if (root.more && last) {
		return { workerIds, sequences: [], totals, cursor: `w:${last.workerId}`, serverNowMs };
	}
	const after = "sequenceAfter" in position ? position.sequenceAfter : null;
	const { sequences, more } = await sequencesFrom(env, after, limit - workerIds.length);
	const lastName = sequences.at(-1)?.name;
	let cursor: string | null = null;
	if (more && lastName !== undefined) cursor = `s:${lastName}`;
	else if (more && last) cursor = `w:${last.workerId}`; // a full page of worker IDs only
	return { workerIds, sequences, totals, cursor, serverNowMs };
}

/** Up to `wanted` sequences after `after` in catalog order, and whether more may follow. */
async function sequencesFrom(
	env: Env,
	after: string | null,
	wanted: number,
): Promise<{ sequences: SequenceCounts[]; more: boolean }> {
	const sizes = await askCatalog(
		() => directoryStub(env),
		(directory) => directory.shardSizes(),
	);
	const first = after === null ? 0 : shardOf(after);
	// The shards to read, in order: the cursor's own (for the names after it), then every non-empty one.
	const shards: number[] = [];
	for (let shard = first; shard < CATALOG_SHARDS; shard++) {
		if ((sizes[shard] ?? 0) > 0 || (shard === first && after !== null)) shards.push(shard);
	}
	if (wanted <= 0) return { sequences: [], more: shards.length > 0 };
	const sequences: SequenceCounts[] = [];
	let asked = 0;
	while (sequences.length < wanted && asked < shards.length && asked < MAX_SHARD_REQUESTS) {
		const need = wanted - sequences.length;
		// As many shards as the directory says hold the rows needed (and one more), at most a batch.
		const batch: number[] = [];
		for (let held = 0; held <= need && batch.length < SHARD_BATCH; ) {
			const shard = shards[asked + batch.length];
			if (shard === undefined) break;
			batch.push(shard);
			held += sizes[shard] ?? 0;
		}
		const pages = await Promise.all(
			batch.map((shard) =>
				askCatalog(
					() => shardStubAt(env, shard),
					(stub) => stub.sequencesPage(shard === first ? after : null, need + 1),
				),
			),
		);
		asked += batch.length;
		for (const page of pages) sequences.push(...page);
	}
	// More follow if the shards read held more than the page takes (each is asked for one
	// more than needed), or shards are left to read.
	return {
		sequences: sequences.slice(0, wanted),
		more: sequences.length > wanted || asked < shards.length,
	};
}
