/**
 * ULIDs and UUIDv7s, made in the isolate itself (no object, no shared state), behind
 * both HTTP (/ulid, /uuidv7; /typeid shares the UUIDv7 factory) and RPC; each takes
 * its input checked by its contract (../contracts/ids.ts).
 *
 *   ulidIds(config, { count: 2 }); // { type: "ulid", ids: ["01J…", "01J…"] }
 */

import { UlidFactory, ulidToUuid } from "../../ids/forms/ulid";
import { UuidV7Factory } from "../../ids/forms/uuidv7";
import type { UlidIds, UuidV7Ids } from "../../wire";
import type { Config } from "../config/config";
import type { ContractInput } from "../contracts/fields";
import type { ulidContract, uuidv7Contract } from "../contracts/ids";

export type { UlidIds, UuidV7Ids };

// Per-isolate monotonic state, made on first use: no randomness at module top level.
let ulids: UlidFactory | undefined;
let uuids: UuidV7Factory | undefined;

export function ulidIds(_config: Config, input: ContractInput<typeof ulidContract>): UlidIds {
	ulids ??= new UlidFactory();
	const ids = ulids.nextBatch(Date.now(), input.count ?? 1);
	return { type: "ulid", ids: input.format === "uuid" ? ids.map(ulidToUuid) : ids };
}

export function uuidv7Ids(_config: Config, input: ContractInput<typeof uuidv7Contract>): UuidV7Ids {
	return { type: "uuidv7", ids: uuidFactory().nextBatch(Date.now(), input.count ?? 1) };
}

/** This isolate's UUIDv7 factory: /uuidv7 and /typeid share it, so both are one monotonic sequence. */
export function uuidFactory(): UuidV7Factory {
	uuids ??= new UuidV7Factory();
	return uuids;
}
