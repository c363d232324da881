/**
 * The ID core as a library (`edge-ids/ids`): the Snowflake layout and generator,
 * ULID, UUIDv7 and TypeID factories, Snowflake text forms, the decoder, the ID
 * bounds of a time window and worker-ID sets. Plain TypeScript
 * with no Workers APIs; the clock and randomness are injected, so it runs in
 * Node, browsers, Deno, Bun and Workers alike.
 *
 * @example
 * ```ts
 * import { SnowflakeGenerator, SnowflakeLayout, TWITTER_LAYOUT, systemClock } from "edge-ids/ids";
 *
 * // One generator per worker ID, and one worker ID per process: uniqueness is yours to keep.
 * const snowflakes = new SnowflakeGenerator({
 *   layout: new SnowflakeLayout(TWITTER_LAYOUT),
 *   workerId: 7,
 *   clock: systemClock,
 *   maxBackwardMs: 1000,
 *   leaseMs: 1000,
 *   persistMark: () => {}, // store the mark where a restart of this worker ID can read it
 * });
 * const [id] = await snowflakes.next(1);
 * ```
 */

export { type Clock, systemClock } from "./clock";
export { IdError, type IdErrorCode } from "./errors";
export {
	DECODE_FORMATS,
	type DecodedId,
	type DecodedSnowflake,
	type DecodedTypeId,
	type DecodedUuid,
	type DecodedUuidV7,
	type DecodeFormat,
	decodeId,
	decodeSnowflake,
	decodeSnowflakeBase32,
} from "./forms/decode";
export {
	customLayout,
	DECODE_PRESETS,
	type DecodedForeign,
	decodeForeign,
	type ForeignLayout,
	PRESET_NAMES,
} from "./forms/foreign-layouts";
export {
	checkPrefix,
	decodeTypeId,
	formatTypeId,
	isValidPrefix,
	type ParsedTypeId,
	parseTypeId,
	TypeIdFactory,
} from "./forms/typeid";
export { type DecodedUlid, decodeUlid, UlidFactory, ulidToUuid, uuidToUlid } from "./forms/ulid";
export { parseUuid, uuidV7Timestamp } from "./forms/uuid";
export { UuidV7Factory } from "./forms/uuidv7";
export {
	DEFAULT_LEASE_BORROW_MS,
	DEFAULT_LEASE_WAIT_MS,
	LeaseHolder,
	type LeaseHolderOptions,
	type LeaseHolderStats,
} from "./leases/holder/lease-holder";
export type {
	LeaseGrantFields,
	LeaseHolderErrorCode,
	LeaseRefFields,
	LeaseSource,
} from "./leases/holder/lease-source";
export { ServerClock } from "./leases/holder/server-clock";
export {
	type IdBlock,
	IdPool,
	type IdPoolOptions,
	type IdPoolStats,
	type IssuedRuns,
} from "./pools/id-pool";
export { type WorkerIdRange, WorkerIdSet } from "./pools/worker-id-set";
export {
	BOUNDS_KINDS,
	type BoundsKind,
	type IdBounds,
	type IdBoundsOptions,
	idBounds,
	readTime,
	type TimeInput,
} from "./ranges/id-bounds";
export {
	formatRunsAs,
	type ParsedSnowflakeText,
	parseSnowflakeBase32,
	SNOWFLAKE_FORMATS,
	type SnowflakeFormat,
	type SnowflakeTextForm,
	snowflakeFromBase32,
	snowflakeText,
	snowflakeTextForm,
	snowflakeToBase32,
} from "./snowflake/base32";
export { expandBlocks, runsOfBlocks, type SnowflakeBlock } from "./snowflake/blocks";
export { formatRuns } from "./snowflake/decimal";
export {
	type IdRun,
	SnowflakeGenerator,
	type SnowflakeGeneratorOptions,
	type SnowflakeStats,
} from "./snowflake/generator";
export {
	type LayoutConfig,
	type SnowflakeFields,
	SnowflakeLayout,
	splitTwitterWorkerId,
	TWITTER_LAYOUT,
} from "./snowflake/layout";
