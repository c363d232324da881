/** The OpenAPI operations of ../../routes/snowflake.ts (read by ../document.ts only, never by the Worker). */
import { http } from "../../http-inputs";
import { operation } from "../operation";

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
	operation({
		input: http.blocksAuto,
		...auto,
		...runs,
		method: "get",
		path: "/snowflake/blocks",
		summary: BLOCKS,
	}),
	operation({
		input: http.blocksAutoPost,
		...auto,
		...runs,
		method: "post",
		path: "/snowflake/blocks",
		summary: BLOCKS,
	}),
	operation({
		input: http.blocksNamed,
		...named,
		...runs,
		method: "get",
		path: "/snowflake/{workerId}/blocks",
		summary: NAMED_BLOCKS,
	}),
	operation({
		input: http.blocksNamedPost,
		...named,
		...runs,
		method: "post",
		path: "/snowflake/{workerId}/blocks",
		summary: NAMED_BLOCKS,
	}),
	operation({
		input: http.snowflakeAuto,
		...auto,
		...ids,
		method: "get",
		path: "/snowflake",
		summary: AUTO,
	}),
	operation({
		input: http.snowflakeAutoPost,
		...auto,
		...ids,
		method: "post",
		path: "/snowflake",
		summary: AUTO,
	}),
	operation({
		input: http.snowflakeNamed,
		...named,
		...ids,
		method: "get",
		path: "/snowflake/{workerId}",
		summary: NAMED,
	}),
	operation({
		input: http.snowflakeNamedPost,
		...named,
		...ids,
		method: "post",
		path: "/snowflake/{workerId}",
		summary: NAMED,
	}),
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
