/**
 * What the catalog's objects keep about its shards (./catalog-calls.ts names the
 * roles): the root, each shard's last summary (its totals and its busiest
 * sequences), so that fleet totals and `/metrics` are one request to the root; the
 * directory, how many names each shard holds, so that a `/stats` page asks only the
 * shards it lists from. One row per shard in each: 512 rows at most.
 *
 *   const summaries = new ShardSummaries(ctx.storage.sql);
 *   summaries.store(7, { sequences: 2, issued: "30", requests: 3, busiest: [...] }, now);
 *   summaries.totals(); // { sequences: 2, issued: "30", requests: 3 }
 *   summaries.busiest(100); // the 100 with the most calls of every shard's busiest
 */
import type { SequenceCounts } from "../../wire/operations";
import { CATALOG_SHARDS, shardOf } from "./minute-alarm";

/** What a shard sends the root once a minute after it took reports. */
export interface ShardSummary {
	sequences: number;
	/** Numbers issued by its sequences, as decimal text (exact). */
	issued: string;
	requests: number;
	/** Its sequences that issued in the last hour, the most calls first: METRICS_SEQUENCES at most. */
	busiest: SequenceCounts[];
}

const SUMMARY_SCHEMA =
	"CREATE TABLE IF NOT EXISTS shard_summaries (shard INTEGER PRIMARY KEY, sequences INTEGER NOT NULL, issued TEXT NOT NULL, requests INTEGER NOT NULL, busiest TEXT NOT NULL, summarized_at_ms INTEGER NOT NULL)";

/**
 * A table made on its first use, not with its object: a shard or the directory never
 * makes the root's table, nor the root the directory's.
 */
class LazyTable {
	private made = false;

	constructor(
		private readonly storage: SqlStorage,
		private readonly schema: string,
	) {}

	protected get sql(): SqlStorage {
		if (!this.made) this.storage.exec(this.schema);
		this.made = true;
		return this.storage;
	}
}

/** The root's copy of each shard's last summary. */
export class ShardSummaries extends LazyTable {
	constructor(sql: SqlStorage) {
		super(sql, SUMMARY_SCHEMA);
	}

	store(shard: number, summary: ShardSummary, nowMs: number): void {
		this.sql.exec(
			"INSERT OR REPLACE INTO shard_summaries VALUES (?, ?, ?, ?, ?, ?)",
			shard,
			summary.sequences,
			summary.issued,
			summary.requests,
			JSON.stringify(summary.busiest),
			nowMs,
		);
	}

	/** The fleet's sequences, numbers issued (exact) and calls: the sum of the shards' summaries. */
	totals(): { sequences: number; issued: string; requests: number } {
		let sequences = 0;
		let issued = 0n;
		let requests = 0;
		for (const row of this.sql.exec<{ sequences: number; issued: string; requests: number }>(
			"SELECT sequences, issued, requests FROM shard_summaries",
		)) {
			sequences += row.sequences;
			issued += BigInt(row.issued);
			requests += row.requests;
		}
		return { sequences, issued: `${issued}`, requests };
	}

	/** The `limit` sequences with the most calls among every shard's busiest (ties by name). */
	busiest(limit: number): SequenceCounts[] {
		if (limit <= 0) return [];
		const all: SequenceCounts[] = [];
		for (const row of this.sql.exec<{ busiest: string }>("SELECT busiest FROM shard_summaries")) {
			all.push(...(JSON.parse(row.busiest) as SequenceCounts[]));
		}
		all.sort((a, b) => b.requests - a.requests || (a.name < b.name ? -1 : 1));
		return all.slice(0, limit);
	}
}

const SIZES_SCHEMA =
	"CREATE TABLE IF NOT EXISTS shard_sizes (shard INTEGER PRIMARY KEY, names INTEGER NOT NULL)";

/** The directory's count of the names in each shard, bumped by each new name. */
export class ShardSizes extends LazyTable {
	constructor(sql: SqlStorage) {
		super(sql, SIZES_SCHEMA);
	}

	added(shard: number): void {
		this.sql.exec(
			"INSERT INTO shard_sizes VALUES (?, 1) ON CONFLICT (shard) DO UPDATE SET names = names + 1",
			shard,
		);
	}

	removed(shard: number): void {
		this.sql.exec("UPDATE shard_sizes SET names = MAX(names - 1, 0) WHERE shard = ?", shard);
	}

	/**
	 * Names per shard, indexed by shard (CATALOG_SHARDS entries). Counted from `names` the
	 * first time (a directory that listed names before it counted them).
	 */
	sizes(names: () => Iterable<string>): number[] {
		if (this.sql.exec("SELECT 1 FROM shard_sizes LIMIT 1").toArray().length === 0) {
			for (const name of names()) this.added(shardOf(name));
		}
		const sizes = new Array<number>(CATALOG_SHARDS).fill(0);
		for (const row of this.sql.exec<{ shard: number; names: number }>(
			"SELECT shard, names FROM shard_sizes",
		)) {
			sizes[row.shard] = row.names;
		}
		return sizes;
	}
}
