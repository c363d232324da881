/** The OpenAPI operations of ../../routes/snowflake.ts (read by ../document.ts only, never by the Worker). */
import { http } from "../../http-inputs";
import { getAndPost, operation } from "../operation";

const tag = "Snowflake";
const auto = { tag, objects: true } as const;
/** A named worker ID may be leased to holders: 409 worker_id_leased. */
const named = { ...auto, conflicts: true } as const;
const ids = { ok: "snowflakeIdsSchema", ids: true } as const;
const runs = { ok: "blocksSchema" } as const;
const AUTO =
	"Snowflakes from a worker ID this deployment picks (near the caller, from a per-isolate pool)";
const NAMED = "Snowflakes from one worker ID, strictly increasing";
const BLOCKS =
	"Blocks of consecutive Snowflakes ({first, count}) from one object call, never pooled";
const NAMED_BLOCKS = "Blocks of consecutive Snowflakes from one worker ID";

export const snowflakeOperations = [
	...getAndPost(
		{ ...auto, ...runs, path: "/snowflake/blocks", summary: BLOCKS },
		http.blocksAuto,
		http.blocksAutoPost,
	),
	...getAndPost(
		{ ...named, ...runs, path: "/snowflake/{workerId}/blocks", summary: NAMED_BLOCKS },
		http.blocksNamed,
		http.blocksNamedPost,
	),
	...getAndPost(
		{ ...auto, ...ids, path: "/snowflake", summary: AUTO },
		http.snowflakeAuto,
		http.snowflakeAutoPost,
	),
	...getAndPost(
		{ ...named, ...ids, path: "/snowflake/{workerId}", summary: NAMED },
		http.snowflakeNamed,
		http.snowflakeNamedPost,
	),
	operation({
		input: http.stats,
		tag,
		objects: true,

		ok: "statsSchema",
		method: "get",
		path: "/snowflake/{workerId}/stats",
		summary: "Counters of one worker ID's object (they survive restarts)",
	}),
];
