/**
 * The service's configuration: wrangler's vars read once per isolate into a checked,
 * typed `Config` (./vars.ts reads one var, ./worker-ids.ts the worker-ID sets); a
 * var out of range is `invalid_config` naming it, answered 500 on every request.
 *
 *   const config = configFrom(env); // config.maxBatch, config.layout, config.leaseWorkerIds …
 */
import { IdError } from "../../ids/errors";
import type { WorkerIdSet } from "../../ids/pools/worker-id-set";
import {
	type LayoutConfig,
	MAX_DATE_MS,
	SnowflakeLayout,
	TWITTER_LAYOUT,
} from "../../ids/snowflake/layout";
import { DEFAULT_MAX_WAIT_MS } from "../../ids/snowflake/options";
import { TOKEN_ALPHABET, TOKEN_PATTERN } from "./bearer-token";
import { ConfigProblems } from "./problems";
import type { RegionMap } from "./regions";
import {
	type ConfigVars,
	gotKind,
	integerVar,
	isUnset,
	secretVar,
	switchVar,
	textVar,
	type VarName,
} from "./vars";
import { maxWorkerIdWithoutLayout, workerIdVars } from "./worker-ids";

export type { ConfigVars };

/** The service's settings, parsed once per isolate from wrangler vars. */
export interface Config {
	layout: SnowflakeLayout;
	maxBatch: number;
	maxClockBackwardMs: number;
	/** How far ahead of the clock a tick may be borrowed (0: wait at every rollover). */
	maxBorrowMs: number;
	/** The wait budget of one Snowflake call, queueing included. */
	maxWaitMs: number;
	leaseMs: number;
	/** The worker IDs this deployment owns; a request for any other is refused. */
	workerIds: WorkerIdSet;
	/** Worker IDs `/snowflake` picks from when no region applies. */
	autoWorkerIds: WorkerIdSet;
	/** Location hints and their worker IDs (AUTO_REGIONS); empty when unset. */
	regions: RegionMap;
	/** Worker IDs leased to holders (LEASE_WORKER_IDS); undefined: leases are off. */
	leaseWorkerIds: WorkerIdSet | undefined;
	/** How far past the object's clock a span reaches when granted or renewed. */
	leaseSpanMs: number;
	/** How long after a span ends only its holder may renew it. */
	leaseGraceMs: number;
	/** Lease acquires per minute per caller over HTTP (LEASE_ACQUIRE_LIMIT); 0: no limit. */
	leaseAcquireLimit: number;
	/** Freshness bound of the auto route's per-isolate pools, in ms; 0 turns pools off. */
	poolMaxAgeMs: number;
	/** Largest block a pool asks an object for (and largest count it serves). */
	poolMaxSize: number;
	/** Largest `count` of the blocks routes. */
	maxBlockCount: number;
	/** `*` or the exact origins CORS answers. */
	corsOrigins: "*" | string[];
	/** The bearer token callers send (API_TOKEN); unset: no auth. */
	apiToken: string | undefined;
	/** A second accepted token while callers move to it (API_TOKEN_NEXT, for rotation). */
	apiTokenNext: string | undefined;
	/** One JSON log line per request (REQUEST_LOG, default on). */
	requestLog: boolean;
	/** The RATE_LIMITER binding's period, sent as `Retry-After` (it cannot be read at runtime). */
	rateLimitPeriod: 10 | 60;
	/**
	 * Whether `CF-Connecting-IP` is the caller's address (TRUST_CF_CONNECTING_IP, default
	 * on): Cloudflare sets it on every request to a deployed Worker, and a caller cannot.
	 * `wrangler dev` passes on whatever a caller sends, so local runs turn it off.
	 */
	trustClientAddress: boolean;
	/** Sequences with series in `/metrics`: the most active of the last hour (0: none). */
	metricsSequences: number;
}

/** Sequences with series in `/metrics` when METRICS_SEQUENCES is unset. */
export const DEFAULT_METRICS_SEQUENCES = 100;

/** The measured default (docs/PERFORMANCE.md, "Borrowed time"). */
const DEFAULT_MAX_BORROW_MS = 5;
export const MAX_LEASE_MS = 5_000;

/** 10 or 60 (empty: 10), the periods the Rate Limiting binding offers; a number or its digits. */
function rateLimitPeriodVar(vars: ConfigVars): 10 | 60 {
	const raw = vars.RATE_LIMIT_PERIOD;
	if (isUnset(raw)) return 10;
	const period = typeof raw === "number" || typeof raw === "string" ? String(raw).trim() : "";
	if (period === "10" || period === "60") return Number(period) as 10 | 60;
	throw new IdError(
		"invalid_config",
		`RATE_LIMIT_PERIOD must be 10 or 60, the "period" of the RATE_LIMITER binding${gotKind(raw)}`,
	);
}

/**
 * API_TOKEN and API_TOKEN_NEXT: only tokens a caller can send (one rule with auth:
 * ./bearer-token.ts), and NEXT only beside API_TOKEN (alone it would turn auth on
 * with the token callers have not moved to yet). The error never shows the value.
 */
function tokenVars(vars: ConfigVars) {
	const token = (name: "API_TOKEN" | "API_TOKEN_NEXT") => {
		const raw = secretVar(name, vars[name]);
		if (!raw) return undefined;
		if (!TOKEN_PATTERN.test(raw)) {
			throw new IdError(
				"invalid_config",
				`${name} must be a bearer token of ${TOKEN_ALPHABET}, with no spaces; callers could never send this one`,
			);
		}
		return raw;
	};
	const apiToken = token("API_TOKEN");
	const apiTokenNext = token("API_TOKEN_NEXT");
	if (apiTokenNext && !apiToken) {
		throw new IdError(
			"invalid_config",
			"API_TOKEN_NEXT is set without API_TOKEN; set API_TOKEN (the token callers use now) or delete API_TOKEN_NEXT",
		);
	}
	return { apiToken, apiTokenNext };
}

const CORS_RULE = `"*" or a comma-separated list of origins such as "https://app.example.com"`;

function corsOriginsVar(vars: ConfigVars): "*" | string[] {
	const raw = textVar("CORS_ORIGINS", vars.CORS_ORIGINS, CORS_RULE) ?? "*";
	if (raw === "*") return "*";
	const origins = raw
		.split(",")
		.map((origin) => origin.trim())
		.filter(Boolean);
	for (const origin of origins) {
		if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
			throw new IdError("invalid_config", `CORS_ORIGINS must be ${CORS_RULE}`);
		}
	}
	return origins;
}

/** The layout, or undefined when a SNOWFLAKE_* variable is bad (each problem noted once). */
function layoutVars(vars: ConfigVars, problems: ConfigProblems): SnowflakeLayout | undefined {
	const field = (name: VarName, fallback: number, min: number, max: number) =>
		problems.read(() => integerVar(name, vars[name], fallback, min, max), undefined);
	const config = {
		epoch: field("SNOWFLAKE_EPOCH", TWITTER_LAYOUT.epoch, 0, MAX_DATE_MS),
		timeBits: field("SNOWFLAKE_TIME_BITS", TWITTER_LAYOUT.timeBits, 1, 52),
		workerBits: field("SNOWFLAKE_WORKER_BITS", TWITTER_LAYOUT.workerBits, 0, 30),
		sequenceBits: field("SNOWFLAKE_SEQUENCE_BITS", TWITTER_LAYOUT.sequenceBits, 1, 30),
		timeUnitMs: field("SNOWFLAKE_TIME_UNIT_MS", TWITTER_LAYOUT.timeUnitMs, 1, 86_400_000),
	};
	if (Object.values(config).some((value) => value === undefined)) return undefined;
	return problems.read(() => {
		try {
			return new SnowflakeLayout(config as LayoutConfig);
		} catch (error) {
			if (error instanceof IdError) {
				// Name the variables, not the layout's field names.
				throw new IdError(
					"invalid_config",
					`SNOWFLAKE_* variables do not form a valid layout: ${error.detail}`,
				);
			}
			throw error;
		}
	}, undefined);
}

const DEFAULT_LEASE_SPAN_MS = 30_000;
const DEFAULT_LEASE_ACQUIRE_LIMIT = 1_000;

/**
 * LEASE_SPAN_MS (LEASE_GRACE_MS is a plain integer). A span of at least 1 s (and 3 ticks, so a third of
 * it, when holders renew, is a tick or more): renewing every third of a shorter one
 * would cost a storage write several times a second per holder and leave a renewal an
 * ocean away too little time to land. At most 10 minutes: a holder that dies keeps its
 * worker ID for a span and the grace, and a released span's unused tail is never
 * reissued. The grace, up to a minute, delays only takeovers of a dead holder's worker ID.
 */
function leaseSpanVar(vars: ConfigVars, layout: SnowflakeLayout | undefined): number {
	const spanMs = integerVar(
		"LEASE_SPAN_MS",
		vars.LEASE_SPAN_MS,
		DEFAULT_LEASE_SPAN_MS,
		1_000,
		600_000,
	);
	if (layout && spanMs < 3 * layout.timeUnitMs) {
		throw new IdError(
			"invalid_config",
			`LEASE_SPAN_MS (${spanMs}) must be at least 3 ticks of SNOWFLAKE_TIME_UNIT_MS (${layout.timeUnitMs}): holders renew every third of a span`,
		);
	}
	return spanMs;
}

/**
 * POOL_MAX_AGE_MS: 0 (pools off), or at least one tick. A bound shorter than a
 * tick makes every block stale as it arrives (its tick began up to a tick ago).
 */
function poolMaxAgeVar(vars: ConfigVars, layout: SnowflakeLayout | undefined): number {
	const maxAgeMs = integerVar("POOL_MAX_AGE_MS", vars.POOL_MAX_AGE_MS, 1_000, 0, 60_000);
	if (layout && maxAgeMs > 0 && maxAgeMs < layout.timeUnitMs) {
		throw new IdError(
			"invalid_config",
			`POOL_MAX_AGE_MS (${maxAgeMs}) must be 0 (pools off) or at least one tick, SNOWFLAKE_TIME_UNIT_MS (${layout.timeUnitMs}): an ID is up to a tick old when issued`,
		);
	}
	return maxAgeMs;
}

/** Reads an integer var, noting a problem and answering the fallback if it is bad. */
function integerReader(vars: ConfigVars, problems: ConfigProblems) {
	return (name: VarName, fallback: number, min: number, max: number) =>
		problems.read(() => integerVar(name, vars[name], fallback, min, max), fallback);
}

/** The Snowflake generator's settings: with the layout, all a Snowflake object reads. */
function generatorVars(vars: ConfigVars, problems: ConfigProblems) {
	const integer = integerReader(vars, problems);
	return {
		maxClockBackwardMs: integer("MAX_CLOCK_BACKWARD_MS", 1_000, 0, 60_000),
		maxBorrowMs: integer("MAX_BORROW_MS", DEFAULT_MAX_BORROW_MS, 0, 1_000),
		maxWaitMs: integer("MAX_WAIT_MS", DEFAULT_MAX_WAIT_MS, 1, 60_000),
		// After a restart, IDs may lead the clock by up to the lease (borrowed time), and a
		// lease of 1 s already means at most one storage write per second: a few seconds at most.
		leaseMs: integer("LEASE_MS", 1_000, 1, MAX_LEASE_MS),
	};
}

/** The lease keeper's settings: its spans and their grace. */
function leaseKeeperVars(
	vars: ConfigVars,
	layout: SnowflakeLayout | undefined,
	problems: ConfigProblems,
) {
	return {
		leaseSpanMs: problems.read(() => leaseSpanVar(vars, layout), DEFAULT_LEASE_SPAN_MS),
		leaseGraceMs: integerReader(vars, problems)("LEASE_GRACE_MS", 2_000, 0, 60_000),
	};
}

/** What a Snowflake object reads of the config. */
export type ObjectConfig = Pick<Config, "layout"> &
	ReturnType<typeof generatorVars> &
	ReturnType<typeof leaseKeeperVars>;

/**
 * The config, or one `invalid_config` that names every bad variable with what it
 * allows (a bad layout does not hide a bad MAX_BATCH).
 */
export function parseConfig(vars: ConfigVars): Config {
	const problems = new ConfigProblems();
	const layout = layoutVars(vars, problems);
	const integer = integerReader(vars, problems);
	const maxWorkerId = layout?.maxWorkerId ?? maxWorkerIdWithoutLayout(vars);
	const config: Omit<Config, "layout"> = {
		maxBatch: integer("MAX_BATCH", 10_000, 1, 100_000),
		...generatorVars(vars, problems),
		...workerIdVars(vars, maxWorkerId, problems),
		...leaseKeeperVars(vars, layout, problems),
		// A fleet restart: the 512 worker IDs of docs/LEASES.md's example range serve ~380
		// holders; all of them acquiring at once, with a retry each, fits in one minute's
		// budget. docs/PRODUCTION.md, "Lease acquires", says how to size it.
		leaseAcquireLimit: integer("LEASE_ACQUIRE_LIMIT", DEFAULT_LEASE_ACQUIRE_LIMIT, 0, 1_000_000),
		poolMaxAgeMs: problems.read(() => poolMaxAgeVar(vars, layout), 0),
		// Measured (npm run bench:pools, docs/PERFORMANCE.md): 4,096 serves ~100 auto
		// requests per object call with ~1% of IDs unused; 16,384 makes 4× fewer calls, but
		// every pool an isolate drops may take 4× more IDs with it.
		poolMaxSize: integer("POOL_MAX_SIZE", 4_096, 1, 1_000_000),
		maxBlockCount: integer("MAX_BLOCK_COUNT", 1_000_000, 1, 100_000_000),
		corsOrigins: problems.read(() => corsOriginsVar(vars), "*"),
		...problems.read(() => tokenVars(vars), { apiToken: undefined, apiTokenNext: undefined }),
		requestLog: problems.read(() => switchVar("REQUEST_LOG", vars.REQUEST_LOG, true), true),
		rateLimitPeriod: problems.read(() => rateLimitPeriodVar(vars), 10),
		trustClientAddress: problems.read(
			() => switchVar("TRUST_CF_CONNECTING_IP", vars.TRUST_CF_CONNECTING_IP, true),
			true,
		),
		// Prometheus warns against a series per tenant: 100 sequences are ~400 series.
		metricsSequences: integer("METRICS_SEQUENCES", DEFAULT_METRICS_SEQUENCES, 0, 1_000),
	};
	const error = problems.error();
	if (error || !layout) throw error ?? new IdError("invalid_config", "the layout is invalid");
	return { layout, ...config };
}

/** An env's parse, or its failure, kept as long as the env (the isolate) lives. */
function parsedOnce<T>(
	cache: WeakMap<object, T | IdError>,
	env: ConfigVars,
	parse: (env: ConfigVars) => T,
): T {
	let parsed = cache.get(env);
	if (parsed === undefined) {
		try {
			parsed = parse(env);
		} catch (error) {
			parsed =
				error instanceof IdError
					? error
					: new IdError("invalid_config", "the configuration could not be read");
		}
		cache.set(env, parsed);
	}
	if (parsed instanceof IdError) throw parsed;
	return parsed;
}

const configs = new WeakMap<object, Config | IdError>();

/**
 * The config for this env, parsed once per isolate (the env object lives as long
 * as the isolate), and so is a failure: a bad value throws the same
 * `invalid_config` naming the variable on every request, without parsing again,
 * until it is fixed (a deploy makes a new env).
 */
export function configFrom(env: ConfigVars): Config {
	return parsedOnce(configs, env, parseConfig);
}

const objectConfigs = new WeakMap<object, ObjectConfig | IdError>();

/**
 * What a Snowflake object reads of the config (the layout, the generator's and the
 * lease keeper's settings), parsed once per isolate like `configFrom`, and nothing more: an
 * object's first start does not parse worker-ID sets, regions, origins or tokens.
 * Every caller of an object has parsed the whole config first and refuses a bad one
 * (the middleware, an RPC call), so an object only ever runs under a valid config.
 * An object in an isolate that has parsed the whole config already (its callers'
 * isolate) reads it from there.
 */
export function objectConfigFrom(env: ConfigVars): ObjectConfig {
	const whole = configs.get(env);
	if (whole !== undefined && !(whole instanceof IdError)) return whole;
	return parsedOnce(objectConfigs, env, (vars) => {
		const problems = new ConfigProblems();
		const layout = layoutVars(vars, problems);
		const settings = {
			...generatorVars(vars, problems),
			...leaseKeeperVars(vars, layout, problems),
		};
		const error = problems.error();
		if (error || !layout) throw error ?? new IdError("invalid_config", "the layout is invalid");
		return { layout, ...settings };
	});
}
