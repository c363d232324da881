/**
 * The service's operations, one implementation behind both the HTTP routes and
 * the IdService RPC entrypoint: same validation, same values, same errors.
 */
import type { SnowflakeBlocks, SnowflakeIds, UlidFormat, UlidIds, UuidV7Ids } from "../api";
import { blocksOfRuns } from "../ids/blocks";
import type { DecodedId } from "../ids/decode";
import { type CountRule, checkCount, describeValue, IdError, invalidCount } from "../ids/errors";
import type { DecodedForeign } from "../ids/foreign-layouts";
import type { Background, IdBlock } from "../ids/id-pool";
import { type IdRun, maxIdsPerCall } from "../ids/snowflake";
import { formatRunsAs, snowflakeText, snowflakeTextForm } from "../ids/snowflake-base32";
import { UlidFactory, ulidToUuid } from "../ids/ulid";
import { UuidV7Factory } from "../ids/uuidv7";
import { autoPool } from "./auto-pools";
import { type Config, configFrom } from "./config";
import { type DecodeOptions, decodeWith } from "./decode-options";
import { type ServiceError, serviceError } from "./errors";
import { autoSetFor, type CallerCf, placementFor } from "./placement";
import type { IssueResult, StatsResult } from "./snowflake-do";

export type { SnowflakeBlocks, SnowflakeIds, UlidFormat, UlidIds, UuidV7Ids };

/**
 * Who asked, for the wording of a refusal: HTTP callers write numbers as text in a
 * URL ("written in decimal digits"); RPC callers pass JavaScript values ("a number").
 */
export type Via = "http" | "rpc";

/** The most IDs one object call can issue within MAX_WAIT_MS (a slow layout allows few). */
function perCallLimit(config: Config): number {
	return maxIdsPerCall(config.layout, config.maxWaitMs, config.maxBorrowMs);
}

/** The counts a request may ask for: [1, MAX_BATCH], and no more than one call can issue. */
export function countRule(config: Config, via: Via = "http"): CountRule {
	const max = Math.min(config.maxBatch, perCallLimit(config));
	return via === "rpc"
		? { min: 1, max }
		: { min: 1, max, spelling: "written once in decimal digits" };
}

/** A request's count: 1 when absent, else checked against `countRule`. */
export function requestCount(config: Config, count: unknown, via: Via = "http"): number {
	if (count === undefined) return 1;
	if (via === "rpc" && typeof count !== "number") {
		const { max } = countRule(config, via);
		throw new IdError(
			"invalid_count",
			`count must be a number, an integer in [1, ${max}]; got ${describeValue(count)} (${typeof count})`,
		);
	}
	return checkCount(count, countRule(config, via));
}

export function invalidRequestCount(config: Config, got: unknown): IdError {
	return invalidCount(countRule(config), got);
}

/** The longest a blocks request may keep its object issuing (ticks it needs × tick length). */
const MAX_BLOCK_WAIT_MS = 1_000;

/**
 * The counts a blocks request may ask for: MAX_BLOCK_COUNT, no more than fit in
 * 1 s of ticks, and no more than one object call can issue within MAX_WAIT_MS.
 */
export function blockCountRule(config: Config, via: Via = "http"): CountRule {
	const { layout } = config;
	const ticks = Math.max(1, Math.floor(MAX_BLOCK_WAIT_MS / layout.timeUnitMs));
	const max = Math.min(
		config.maxBlockCount,
		ticks * (layout.maxSequence + 1),
		perCallLimit(config),
	);
	return via === "rpc"
		? { min: 1, max }
		: { min: 1, max, spelling: "for blocks, written once in decimal digits" };
}

export function invalidBlockCount(config: Config, got: unknown): IdError {
	return invalidCount(blockCountRule(config), got);
}

/** A worker ID this deployment owns (WORKER_IDS, within the layout's range). */
export function checkWorkerId(config: Config, workerId: unknown, via: Via = "http"): number {
	if (
		typeof workerId === "number" &&
		Number.isInteger(workerId) &&
		config.workerIds.has(workerId)
	) {
		return workerId;
	}
	throw invalidWorkerId(config, workerId, via);
}

export function invalidWorkerId(config: Config, got: unknown, via: Via = "http"): IdError {
	const max = config.layout.maxWorkerId;
	const owned = config.workerIds;
	const allowed =
		owned.size === max + 1
			? `an integer in [0, ${max}]`
			: `one of the worker IDs this deployment owns, WORKER_IDS = ${owned},`;
	const detail =
		via === "rpc"
			? typeof got === "number"
				? `workerId must be ${allowed.replace(/,$/, "")}; got ${describeValue(got)}`
				: `workerId must be a number, ${allowed.replace(/,$/, "")}; got ${describeValue(got)} (${typeof got})`
			: `workerId must be ${allowed} written in decimal digits; got ${describeValue(got)}`;
	return new IdError("invalid_worker_id", detail);
}

export function checkFormat(format: unknown): UlidFormat {
	if (format === undefined || format === "ulid" || format === "uuid") return format ?? "ulid";
	throw invalidFormat(format);
}

/** `invalid_format` for a ULID route's `format` (other routes name their own forms). */
export function invalidFormat(got: unknown): ServiceError {
	return serviceError(
		"invalid_format",
		`format must be "ulid" or "uuid", given once; got ${describeValue(got)}`,
	);
}

/**
 * Spreads `/snowflake` across the worker IDs of the caller's region (or
 * AUTO_WORKER_IDS); each is still one object.
 */
function pickWorkerId(config: Config, cf: CallerCf): number {
	return autoSetFor(config, cf).workerIds.pick(Math.random);
}

/** The worker ID's object, created in its region (AUTO_REGIONS) if this is its first use. */
function snowflakeStub(env: Env, workerId: number) {
	const id = env.SNOWFLAKE.idFromName(String(workerId));
	return env.SNOWFLAKE.get(id, placementFor(configFrom(env), workerId));
}

/**
 * Calls a worker ID's object. A Durable Object error marked `.overloaded` is
 * answered 503 at once (retrying adds load); one marked `.retryable` is tried
 * once more on a fresh stub. A retried call may waste IDs, never repeat them.
 */
async function callSnowflake<T extends IssueResult | StatsResult>(
	env: Env,
	workerId: number,
	call: (stub: ReturnType<typeof snowflakeStub>) => Promise<unknown>,
): Promise<Extract<T, { ok: true }>> {
	for (let attempt = 1; ; attempt++) {
		const stub = snowflakeStub(env, workerId); // outside the try: a failure here is ours
		let result: T;
		try {
			result = (await call(stub)) as T;
		} catch (error) {
			const flags = error as { overloaded?: boolean; retryable?: boolean; remote?: boolean };
			if (flags.overloaded) {
				throw serviceError(
					"overloaded",
					`worker ID ${workerId} is overloaded; retry shortly or spread load over more worker IDs`,
					1,
				);
			}
			if (flags.retryable && attempt < 2) continue;
			// Thrown by the object's own code: a bug, answered `internal` and logged.
			if (flags.remote) throw error;
			// The platform's: reset, restarting, broken or unreachable. Transient.
			throw serviceError(
				"unavailable",
				`worker ID ${workerId}'s object could not answer (it is restarting or unreachable); retry shortly`,
				1,
			);
		}
		if (result.ok) return result as Extract<T, { ok: true }>;
		throw serviceError(result.code, result.detail, result.retryAfterSeconds);
	}
}

/**
 * `count` IDs of `workerId` as runs, from its object, checked to be issued under
 * this Worker's layout: during a gradual deployment the object may run another
 * version than the Worker, and runs of another layout formatted with this one
 * would be other worker IDs' IDs.
 */
export async function issueRuns(
	env: Env,
	config: Config,
	workerId: number,
	count: number,
): Promise<IdRun[]> {
	const result = await callSnowflake<IssueResult>(env, workerId, (stub) =>
		stub.issue(workerId, count),
	);
	const own = config.layout.fingerprint();
	if (result.layout === own) return result.runs;
	if (result.layout === undefined) {
		// An object of the previous version, which does not say its layout: wait for it to update.
		throw serviceError(
			"unavailable",
			`worker ID ${workerId}'s object runs an older version of the service; retry shortly`,
			1,
		);
	}
	throw serviceError(
		"layout_mismatch",
		`worker ID ${workerId}'s object issues under another Snowflake layout (${result.layout}) than this Worker (${own}); deploy one layout everywhere`,
	);
}

/** How an auto request is served: the caller's `request.cf` (none over RPC) and where a refill may run on. */
export interface AutoContext {
	cf?: CallerCf;
	/** `ctx.waitUntil`: lets a pool's refill run on after the response. */
	background?: Background;
	/** Told how the auto request was served: from the pool, or by a direct object call. */
	served?: (source: "pool" | "direct") => void;
}

/** What a Snowflake request asks for; `format`/`prefix` choose the text (decimal by default). */
type SnowflakeInput = {
	workerId?: unknown;
	count?: unknown;
	format?: unknown;
	prefix?: unknown;
	via?: Via;
};

/**
 * Snowflake IDs. With a worker ID: straight from its object (strictly increasing
 * after every earlier ID). Without: from this isolate's pool over the caller's
 * region or AUTO_WORKER_IDS (unique, k-sorted within POOL_MAX_AGE_MS).
 */
export async function snowflakeIds(
	env: Env,
	input: SnowflakeInput,
	auto: AutoContext = {},
): Promise<SnowflakeIds> {
	const config = configFrom(env);
	const count = requestCount(config, input.count, input.via);
	const form = snowflakeTextForm(input.format, input.prefix);
	let block: IdBlock;
	if (input.workerId === undefined) {
		const pool = autoPool(config, autoSetFor(config, auto.cf).workerIds, (id, n) =>
			issueBlock(env, config, id, n),
		);
		const taken = await pool.take(count, auto.background);
		auto.served?.(taken.source);
		block = taken;
	} else {
		block = await issueBlock(env, config, checkWorkerId(config, input.workerId, input.via), count);
	}
	return {
		type: "snowflake",
		workerId: block.workerId,
		ids: formatRunsAs(config.layout, block.workerId, block.runs, form),
	};
}

async function issueBlock(
	env: Env,
	config: Config,
	workerId: number,
	count: number,
): Promise<IdBlock> {
	return { workerId, runs: await issueRuns(env, config, workerId, count) };
}

/** Up to MAX_BLOCK_COUNT IDs as `{first, count}` runs, from one object call; never pooled. */
export async function snowflakeBlocks(
	env: Env,
	input: SnowflakeInput,
	cf?: CallerCf,
): Promise<SnowflakeBlocks> {
	const config = configFrom(env);
	const rule = blockCountRule(config, input.via);
	if (input.via === "rpc" && input.count !== undefined && typeof input.count !== "number") {
		throw invalidCount(rule, input.count);
	}
	const count = input.count === undefined ? 1 : checkCount(input.count, rule);
	const form = snowflakeTextForm(input.format, input.prefix);
	const workerId =
		input.workerId === undefined
			? pickWorkerId(config, cf)
			: checkWorkerId(config, input.workerId, input.via);
	const runs = await issueRuns(env, config, workerId, count);
	const blocks = blocksOfRuns(config.layout, workerId, runs);
	return {
		type: "snowflake-blocks",
		workerId,
		blocks:
			form.format === "decimal"
				? blocks
				: blocks.map(({ first, count }) => ({ first: snowflakeText(BigInt(first), form), count })),
	};
}

export async function snowflakeStats(env: Env, workerIdInput: unknown, via: Via = "http") {
	const config = configFrom(env);
	const workerId = checkWorkerId(config, workerIdInput, via);
	const { stats } = await callSnowflake<StatsResult>(env, workerId, (stub) => stub.stats(workerId));
	return stats;
}

// Per-isolate monotonic state, made on first use: no randomness at module top level.
let ulids: UlidFactory | undefined;
let uuids: UuidV7Factory | undefined;

export function ulidIds(
	env: Env,
	input: { count?: unknown; format?: unknown; via?: Via },
): UlidIds {
	const count = requestCount(configFrom(env), input.count, input.via);
	const format = checkFormat(input.format);
	ulids ??= new UlidFactory();
	const ids = ulids.nextBatch(Date.now(), count);
	return { type: "ulid", ids: format === "uuid" ? ids.map(ulidToUuid) : ids };
}

export function uuidv7Ids(env: Env, input: { count?: unknown; via?: Via }): UuidV7Ids {
	const count = requestCount(configFrom(env), input.count, input.via);
	return { type: "uuidv7", ids: uuidFactory().nextBatch(Date.now(), count) };
}

/** This isolate's UUIDv7 factory: /uuidv7 and /typeid share it, so both are one monotonic sequence. */
export function uuidFactory(): UuidV7Factory {
	uuids ??= new UuidV7Factory();
	return uuids;
}

export function decode(
	env: Env,
	id: unknown,
	options: DecodeOptions = {},
): DecodedId | DecodedForeign {
	if (typeof id !== "string") throw new IdError("invalid_id", "id must be a string");
	return decodeWith(configFrom(env), id, options);
}
