/**
 * The service's wire format: what its routes and RPC methods answer, its error
 * codes and their HTTP statuses. Plain types and one table, with no Workers
 * APIs, so the Worker and the clients (in this repo and in the package) share
 * one definition.
 */

import type { IdErrorCode } from "../ids/errors";
import type { DecodedId, DecodeFormat } from "../ids/forms/decode";
import type { DecodedForeign, PresetName } from "../ids/forms/foreign-layouts";
import type { LeaseRefusalCode } from "../ids/leases/span-rules";
import type { BoundsKind } from "../ids/ranges/id-bounds";
import type { SequenceRefusalCode } from "../ids/sequences/refusals";
import type { SequenceSettingsView } from "../ids/sequences/settings";
import type { SnowflakeFormat } from "../ids/snowflake/base32";
import type { SnowflakeBlock } from "../ids/snowflake/blocks";
import type { SnowflakeStats } from "../ids/snowflake/generator";
import type { SnowflakeLayout } from "../ids/snowflake/layout";
import type {
	FleetLeases,
	FleetStats,
	FleetStatsOptions,
	StatsHistory,
	StatsHistoryOptions,
} from "./operations";
import type { SequenceRpc } from "./sequences";

export type * from "./operations";
export type * from "./sequences";
export type {
	BoundsKind,
	DecodedForeign,
	DecodedId,
	DecodeFormat,
	PresetName,
	SequenceSettingsView,
	SnowflakeBlock,
	SnowflakeFormat,
};

/**
 * Every error code the service answers with, and its HTTP status: a 4xx or 5xx,
 * never a 200 with an error body. The core's codes (its errors, the sequence and
 * lease refusals) must all be here; adding a service code is one line.
 */
export const STATUS_OF = {
	/** Returned when a worker ID is not an integer this deployment owns (WORKER_IDS). */
	invalid_worker_id: 400,
	/** Returned when `count` is not an integer in [1, MAX_BATCH]. */
	invalid_count: 400,
	/** Returned when an ID to decode is none of the kinds (or forms) the service reads. */
	invalid_id: 400,
	/** Returned when `/decode`'s `layout` is not a preset, or its widths, epoch or unit are impossible. */
	invalid_layout: 400,
	/** Returned when `format` is not one the route takes (ulid|uuid, decimal|base32, typeid|base32), or RPC options are not an object. */
	invalid_format: 400,
	/** Returned when a TypeID or Snowflake `prefix` is not 1-63 characters of a-z and _ starting and ending with a letter. */
	invalid_prefix: 400,
	/** Returned when `/range`'s kind or window is invalid: unreadable times, `from >= to`, or outside the kind's time range. */
	invalid_range: 400,
	/** Returned when a POST body declared as JSON is malformed or not a JSON object. */
	invalid_body: 400,
	/** Returned when the query has a parameter the route does not take; the message names it and the ones it takes. */
	invalid_request: 400,
	/** Returned when a leaseId is not the 32 URL-safe characters `acquireLease` answers (a well-formed one that is not the worker ID's lease is `lease_lost`). */
	invalid_lease_id: 400,
	/** Returned when a lease's `holder` label is not a string of 1-128 printable characters. */
	invalid_holder: 400,
	/** Returned when a sequence name is not 1-64 characters of `A-Z a-z 0-9 . _ -` starting with a letter or digit. */
	invalid_sequence_name: 400,
	/** Returned when a sequence's settings (`start`, `mode`, `reset`, `timeZone`) or an advance's `to` are not ones allowed. */
	invalid_sequence_options: 400,
	/** Returned when API_TOKEN is set and the request has no valid bearer token. */
	unauthorized: 401,
	/** Returned for a path no route serves (or a URL over 4,096 characters). */
	not_found: 404,
	/** Returned when a sequence was never created; the message says how to create it (`PUT /sequences/:name`). */
	unknown_sequence: 404,
	/** Returned for a known path with a method it does not take; `Allow` lists those it does. */
	method_not_allowed: 405,
	/** Returned for the 0.2.0 forms of renew and release, which took the leaseId in the URL; the message names the routes that replace them. */
	lease_route_moved: 410,
	/** Returned when a POST has a non-empty body not declared `Content-Type: application/json`. */
	unsupported_media_type: 415,
	/** Returned when the lease routes are called but LEASE_WORKER_IDS is not set. */
	leases_disabled: 409,
	/** Returned when the worker ID asked for, or every worker ID of LEASE_WORKER_IDS tried, is held (or in its grace); `Retry-After` is sent. */
	no_free_worker_id: 409,
	/** Returned when a lease was released, replaced after its span and grace ended, or outrun by IDs issued above its span since; acquire anew. */
	lease_lost: 409,
	/** Returned when a named or blocks route asks for a worker ID of LEASE_WORKER_IDS (it is for lease holders only). */
	worker_id_leased: 409,
	/** Returned when a create names a sequence that exists with other settings; the message shows them. */
	sequence_exists: 409,
	/** Returned when the numbers asked for would pass 2^63 - 1, the largest a sequence issues. */
	sequence_exhausted: 409,
	/**
	 * Returned for a sequence that was retired (`DELETE /sequences/:name`): it issues nothing
	 * more (410). A create of its name answers it under 409 instead: a new sequence of that
	 * name, starting again, would repeat its numbers.
	 */
	sequence_retired: 410,
	/** Returned when a caller exceeds the RATE_LIMITER binding's budget; `Retry-After` says when to retry. */
	rate_limited: 429,
	/** Returned when a wrangler var is invalid; the message names the variable. */
	invalid_config: 500,
	/** Returned when a worker ID's object issued IDs under another Snowflake layout. */
	layout_mismatch: 500,
	/** Returned when the clock is past the layout's last representable instant. */
	layout_exhausted: 500,
	/** Returned for a failure the service did not expect; details go to its log only. */
	internal: 500,
	/** Returned when the clock went back further than the service waits out; `Retry-After` is sent. */
	clock_regression: 503,
	/** Returned when a worker ID's object is overloaded; `Retry-After` is sent. */
	overloaded: 503,
	/** Returned when a worker ID's object could not answer (reset, restarting, unreachable, or an older version mid-deploy); `Retry-After` is sent. */
	unavailable: 503,
	/** Returned when an isolate kept closing a pooled sequence's buffer while the call waited (far more than 1,000 pooled sequences in use at once); `Retry-After` is sent. */
	buffer_closed: 503,
} as const satisfies Record<IdErrorCode | SequenceRefusalCode | LeaseRefusalCode, number> &
	Record<string, number>;

/** A code the service can answer with: the core's and its own. */
export type ServiceErrorCode = keyof typeof STATUS_OF;

/** The body of every error answer. */
export interface ErrorBody {
	error: { code: ServiceErrorCode; message: string };
}

export interface SnowflakeIds {
	type: "snowflake";
	workerId: number;
	ids: string[];
}
export interface UlidIds {
	type: "ulid";
	ids: string[];
}
export interface UuidV7Ids {
	type: "uuidv7";
	ids: string[];
}
export type UlidFormat = "ulid" | "uuid";
/** What `/typeid` and RPC `typeid` answer: UUIDv7s in TypeID form under one prefix. */
export interface TypeIdIds {
	type: "typeid";
	/** The prefix asked for; "" for bare TypeIDs. */
	prefix: string;
	ids: string[];
}
/** What `/range` and RPC `range` answer: every ID of `kind` with a time in [from, to) lies in [min, max]. */
export interface IdRange {
	kind: BoundsKind;
	/** The window's start (included), ISO 8601. */
	from: string;
	/** The window's end (excluded), ISO 8601. */
	to: string;
	/** The smallest such ID (decimal or base32 for Snowflakes, as asked). */
	min: string;
	/** The largest such ID. */
	max: string;
}

/** What the blocks routes and RPC `snowflakeBlocks` answer: runs of one worker ID. */
export interface SnowflakeBlocks {
	type: "snowflake-blocks";
	workerId: number;
	blocks: SnowflakeBlock[];
}

/** What `GET /layout` answers: the active Snowflake layout. */
export type LayoutInfo = ReturnType<SnowflakeLayout["toJSON"]>;

/**
 * What `GET /snowflake/:workerId/stats` answers. The counts never decrease: every
 * count an answer showed survives restarts and evictions (counts are stored within a
 * second of their call: only a crash may lose counts nobody read, its last second's). `since`
 * (ISO 8601) is when they began.
 */
export type SnowflakeStatsInfo = SnowflakeStats & { workerId: number; since: string };

/** A Cloudflare Durable Object location hint (the Worker lists them in src/worker/config/regions.ts). */
export type LocationHint = "wnam" | "enam" | "sam" | "weur" | "eeur" | "apac" | "oc" | "afr" | "me";

/** Degrees: latitude in [-90, 90], longitude in [-180, 180]. */
export interface GeoPoint {
	readonly latitude: number;
	readonly longitude: number;
}

/** What `GET /regions` answers. Worker-ID sets are written as `"0-7,16"`. */
export interface RegionsInfo {
	/** The worker IDs this deployment owns (WORKER_IDS). */
	workerIds: string;
	/** The worker IDs of auto requests without a region (AUTO_WORKER_IDS). */
	autoWorkerIds: string;
	/** The worker IDs lent to lease holders (LEASE_WORKER_IDS); "" when leases are off. */
	leaseWorkerIds: string;
	regions: {
		hint: LocationHint;
		workerIds: string;
		point: GeoPoint & { place: string };
		/** Whole km from the caller to the hint's point; null without the caller's location. */
		distanceKm: number | null;
	}[];
	/** What this request would use. */
	request: { location: GeoPoint | null; region: LocationHint | null; workerIds: string };
}

/** Options of `snowflake`: omit `workerId` to let the service pick one (AUTO_WORKER_IDS or the region). */
export interface SnowflakeOptions extends SnowflakeTextOptions {
	workerId?: number | undefined;
	/** Default 1, at most MAX_BATCH. */
	count?: number | undefined;
}
/** Options of `snowflakeBlocks`: omit `workerId` to let the service pick one. */
export interface SnowflakeBlocksOptions extends SnowflakeTextOptions {
	workerId?: number | undefined;
	/** Default 1, at most MAX_BLOCK_COUNT. */
	count?: number | undefined;
}
/** How Snowflakes are written: decimal (default) or 13 base32 characters; a prefix implies base32. */
export interface SnowflakeTextOptions {
	format?: SnowflakeFormat | undefined;
	/** A TypeID-style prefix (`order` → `order_0g4b3…`); implies base32. */
	prefix?: string | undefined;
}
export interface TypeIdOptions {
	count?: number | undefined;
	/** The type prefix (TypeID's rule); default none: bare TypeIDs. */
	prefix?: string | undefined;
}
/** Options of `range`: the kind, the window [from, to) (Unix ms or ISO 8601), and the kind's text options. */
export interface RangeOptions extends SnowflakeTextOptions {
	kind: BoundsKind;
	/** The window's start, included: Unix ms, or ISO 8601 with a zone (a fraction beyond the ms rounds up). */
	from: number | string;
	/** The window's end, excluded, read as `from` is. */
	to: number | string;
	/** kind snowflake: the bounds of this worker ID's IDs only (any worker ID of the layout). */
	workerId?: number | undefined;
}
export interface UlidOptions {
	count?: number | undefined;
	format?: UlidFormat | undefined;
}
export interface UuidV7Options {
	count?: number | undefined;
}
/**
 * How `decode` reads a Snowflake-like ID of another system: a preset
 * (`{ layout: "discord" }`, optionally with its own `epoch`), or explicit widths
 * `timeBits`, `workerBits`, `sequenceBits` (63 or 64 bits in all) with `epoch` and
 * `timeUnitMs` defaulting to the service's. Nothing: the service's own layout.
 * ULIDs and UUIDs ignore it. The same fields as `/decode/:id`'s query.
 */
export interface DecodeOptions {
	/** Reads a bare TypeID (`typeid`; a bare 26-character text is otherwise a ULID) or a bare base32 Snowflake (`base32`). */
	format?: DecodeFormat | undefined;
	layout?: PresetName | undefined;
	timeBits?: number | undefined;
	workerBits?: number | undefined;
	sequenceBits?: number | undefined;
	epoch?: number | undefined;
	timeUnitMs?: number | undefined;
}

/**
 * A worker-ID lease: the span of ticks `[from, to)` of `workerId` that the holder,
 * and nobody else, may issue IDs in (every sequence of those ticks). What
 * `POST /leases` (201), `POST /leases/:workerId/renew` (200) and RPC
 * `acquireLease` / `renewLease` answer. A renewal keeps `from` and `leaseId` and
 * moves `to` forward (never back).
 */
export interface LeaseGrant {
	workerId: number;
	/** The bearer capability that renews and releases this lease (>= 128 random bits, URL-safe). Keep it secret. */
	leaseId: string;
	/** The span's first tick (included), counted from the layout's epoch. */
	from: number;
	/** The span's end tick (excluded). */
	to: number;
	/** `from` in Unix ms (the tick's first instant), for people. */
	fromMs: number;
	/** `to` in Unix ms, for people. */
	toMs: number;
	/** The object's clock when it granted this (Unix ms): a holder anchors its clock here. */
	serverNowMs: number;
	/** The layout the span is under: the holder formats its IDs with it. */
	layout: LayoutInfo;
}

/** Options of `acquireLease`: a label for people, and optionally the worker ID wanted. */
export interface AcquireLeaseOptions {
	/** A label shown by `leaseStatus` (e.g. a pod name): at most 128 printable characters. */
	holder?: string | undefined;
	/** A worker ID of LEASE_WORKER_IDS; default: the service picks a free one. */
	workerId?: number | undefined;
}

/** Names a lease to renew or release. */
export interface LeaseRef {
	workerId: number;
	leaseId: string;
}

/**
 * What `GET /leases/:workerId` and RPC `leaseStatus` answer: the worker ID's lease
 * state, never its `leaseId`. `held`: a span is current; `grace`: the span ended
 * less than LEASE_GRACE_MS ago and only its holder may renew it; `free`: anyone may
 * acquire it (never leased, released, or grace over). Span fields are null when
 * the worker ID was never leased.
 */
export interface LeaseState {
	workerId: number;
	state: "held" | "grace" | "free";
	holder: string | null;
	from: number | null;
	to: number | null;
	fromMs: number | null;
	toMs: number | null;
	serverNowMs: number;
}

/**
 * The RPC methods of the service's `IdService` entrypoint, as plain types (no
 * Workers types), so that a caller outside this repository can type its binding.
 * `IdService` (src/worker/rpc/id-service.ts) implements it, the lease methods included. A
 * failure rejects with an Error whose message starts with its code (`idErrorCode`
 * reads it); call through `idService(env.IDS)` (edge-ids/client, `SettledRpc`) so
 * that it rejects in the caller only.
 */
export interface IdServiceRpc extends LeaseRpc, SequenceRpc {
	snowflake(options?: SnowflakeOptions): Promise<SnowflakeIds>;
	snowflakeBlocks(options: SnowflakeBlocksOptions): Promise<SnowflakeBlocks>;
	ulid(options?: UlidOptions): Promise<UlidIds>;
	uuidv7(options?: UuidV7Options): Promise<UuidV7Ids>;
	typeid(options?: TypeIdOptions): Promise<TypeIdIds>;
	range(options: RangeOptions): Promise<IdRange>;
	decode(id: string, options?: DecodeOptions): Promise<DecodedId | DecodedForeign>;
	layout(): Promise<LayoutInfo>;
	stats(workerId: number): Promise<SnowflakeStatsInfo>;
	/** Every leased worker ID held or in grace, from the catalog (`GET /leases`). */
	leases(): Promise<FleetLeases>;
	/** A page of the worker IDs that have issued, then of the sequences, with their counts and the fleet's totals (`GET /stats`). */
	fleetStats(options?: FleetStatsOptions): Promise<FleetStats>;
	/** Per-minute counts of a worker ID, or of the fleet without one (`GET /stats/history`). */
	statsHistory(options?: StatsHistoryOptions): Promise<StatsHistory>;
}

/**
 * An RPC call answered as a value: its result, or the message it would have
 * rejected with (`invalid_count: count must be …`, the code first).
 */
export type Settled<T> = { value: T; error?: undefined } | { error: string };

/**
 * `IdService.settle`: any of its methods, a refusal answered as a value instead of
 * a rejection. workerd reports every rejected RPC call as an uncaught exception of
 * the service (under `wrangler dev`: `✘ [ERROR] Uncaught Error`, and across two dev
 * servers the call is then also cancelled as hung), a refusal of bad input included.
 * `idService(env.IDS)` (edge-ids/client) calls through here and rejects in the caller.
 */
export interface SettledRpc {
	settle<M extends keyof IdServiceRpc>(
		method: M,
		...args: Parameters<IdServiceRpc[M]>
	): Promise<Settled<Awaited<ReturnType<IdServiceRpc[M]>>>>;
}

/**
 * The lease methods of `IdService` (the same as the `/leases` routes). A failure
 * rejects with an Error whose message starts with its code (`lease_lost: …`).
 */
export interface LeaseRpc {
	acquireLease(options?: AcquireLeaseOptions): Promise<LeaseGrant>;
	renewLease(lease: LeaseRef): Promise<LeaseGrant>;
	releaseLease(lease: LeaseRef): Promise<void>;
	leaseStatus(workerId: number): Promise<LeaseState>;
}
