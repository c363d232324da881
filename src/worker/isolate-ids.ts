/**
 * ULIDs and UUIDv7s, made in the isolate itself (no object, no shared state), behind
 * both HTTP (/ulid, /uuidv7; /typeid shares the UUIDv7 factory) and RPC.
 *
 *   ulidIds(config, { count: 2 }); // { type: "ulid", ids: ["01J…", "01J…"] }
 */
import type { UlidIds, UuidV7Ids } from "../api";
import { UlidFactory, ulidToUuid } from "../ids/ulid";
import { UuidV7Factory } from "../ids/uuidv7";
import type { Config } from "./config";
import { checkFormat, requestCount, type Via } from "./rules";

export type { UlidIds, UuidV7Ids };

// Per-isolate monotonic state, made on first use: no randomness at module top level.
let ulids: UlidFactory | undefined;
let uuids: UuidV7Factory | undefined;

export function ulidIds(
	config: Config,
	input: { count?: unknown; format?: unknown; via?: Via },
): UlidIds {
	const count = requestCount(config, input.count, input.via);
	const format = checkFormat(input.format);
	ulids ??= new UlidFactory();
	const ids = ulids.nextBatch(Date.now(), count);
	return { type: "ulid", ids: format === "uuid" ? ids.map(ulidToUuid) : ids };
}

export function uuidv7Ids(config: Config, input: { count?: unknown; via?: Via }): UuidV7Ids {
	const count = requestCount(config, input.count, input.via);
	return { type: "uuidv7", ids: uuidFactory().nextBatch(Date.now(), count) };
}

/** This isolate's UUIDv7 factory: /uuidv7 and /typeid share it, so both are one monotonic sequence. */
export function uuidFactory(): UuidV7Factory {
	uuids ??= new UuidV7Factory();
	return uuids;
}
