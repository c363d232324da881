/**
 * The operations of ID forms and ranges, behind both HTTP (/typeid, /range) and RPC
 * (`typeid`, `range`), as ./snowflake.ts and ./stateless.ts are for the other kinds;
 * each takes its input checked by its contract (../contracts/).
 *
 *   typeidIds(env, { prefix: "user", count: 2 }); // { type: "typeid", prefix: "user", ids: ["user_01j…", …] }
 *   idRange(env, { kind: "ulid", from: "2026-11-01", to: "2026-11-02" });
 */

import { TypeIdFactory } from "../../ids/forms/typeid";
import { idBounds } from "../../ids/ranges/id-bounds";
import type { IdRange, TypeIdIds } from "../../wire";
import type { Config } from "../config/config";
import type { ContractInput } from "../contracts/fields";
import type { rangeContract } from "../contracts/forms";
import type { typeidContract } from "../contracts/ids";
import { uuidFactory } from "./stateless";

export type { IdRange, TypeIdIds };

/** UUIDv7s from this isolate's factory (shared with /uuidv7) in TypeID form under `prefix`. */
export function typeidIds(_config: Config, input: ContractInput<typeof typeidContract>): TypeIdIds {
	const prefix = input.prefix ?? "";
	const ids = new TypeIdFactory(prefix, uuidFactory()).nextBatch(Date.now(), input.count ?? 1);
	return { type: "typeid", prefix, ids };
}

/**
 * The tightest ID bounds of `[from, to)` for a kind (`idBounds` checks it); Snowflakes under this
 * deployment's layout. A worker ID need not be one this deployment owns: the
 * bounds are arithmetic, and a table may hold IDs of other deployments.
 */
export function idRange(config: Config, input: ContractInput<typeof rangeContract>): IdRange {
	const { kind } = input;
	const bounds = idBounds({ ...input, layout: config.layout });
	return {
		kind,
		from: new Date(bounds.fromMs).toISOString(),
		to: new Date(bounds.toMs).toISOString(),
		min: bounds.min,
		max: bounds.max,
	};
}
