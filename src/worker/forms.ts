/**
 * The operations of ID forms and ranges, behind both HTTP (/typeid, /range) and RPC
 * (`typeid`, `range`), as ./operations is for the other kinds.
 *
 *   typeidIds(env, { prefix: "user", count: 2 }); // { type: "typeid", prefix: "user", ids: ["user_01j…", …] }
 *   idRange(env, { kind: "ulid", from: "2026-11-01", to: "2026-11-02" });
 */
import type { IdRange, RangeOptions, TypeIdIds } from "../api";
import { describeValue, IdError } from "../ids/errors";
import { type BoundsKind, idBounds } from "../ids/id-bounds";
import type { SnowflakeFormat } from "../ids/snowflake-base32";
import { checkPrefix, TypeIdFactory } from "../ids/typeid";
import type { Config } from "./config";
import { uuidFactory } from "./isolate-ids";
import { requestCount, type Via } from "./rules";

export type { IdRange, TypeIdIds };

/** UUIDv7s from this isolate's factory (shared with /uuidv7) in TypeID form under `prefix`. */
export function typeidIds(
	config: Config,
	input: { count?: unknown; prefix?: unknown; via?: Via },
): TypeIdIds {
	const count = requestCount(config, input.count, input.via);
	const prefix = checkPrefix(input.prefix) ?? "";
	const ids = new TypeIdFactory(prefix, uuidFactory()).nextBatch(Date.now(), count);
	return { type: "typeid", prefix, ids };
}

/** What a range request asks for, as sent (HTTP: text; RPC: the caller's values). */
export type RangeInput = { [K in keyof RangeOptions]?: unknown } & { via?: Via };

/**
 * The tightest ID bounds of `[from, to)` for a kind (`idBounds` checks it); Snowflakes under this
 * deployment's layout. A worker ID need not be one this deployment owns: the
 * bounds are arithmetic, and a table may hold IDs of other deployments.
 */
export function idRange(config: Config, input: RangeInput): IdRange {
	const { kind } = input;
	for (const end of ["from", "to"] as const) {
		const value = input[end];
		if (input.via === "rpc" && typeof value !== "number" && typeof value !== "string") {
			throw new IdError(
				"invalid_range",
				`${end} must be Unix milliseconds (a number) or ISO 8601 text; got ${describeValue(value)} (${typeof value})`,
			);
		}
	}
	if (input.workerId !== undefined && typeof input.workerId !== "number") {
		throw new IdError(
			"invalid_worker_id",
			`workerId must be a number, an integer in [0, ${config.layout.maxWorkerId}]; got ${describeValue(input.workerId)} (${typeof input.workerId})`,
		);
	}
	const bounds = idBounds({
		kind: kind as BoundsKind,
		from: input.from as number | string,
		to: input.to as number | string,
		layout: config.layout,
		workerId: input.workerId,
		format: input.format as SnowflakeFormat | undefined,
		prefix: input.prefix as string | undefined,
	});
	return {
		kind: kind as BoundsKind,
		from: new Date(bounds.fromMs).toISOString(),
		to: new Date(bounds.toMs).toISOString(),
		min: bounds.min,
		max: bounds.max,
	};
}
