import { WorkerEntrypoint } from "cloudflare:workers";
import type { IdServiceRpc, LayoutInfo, SnowflakeBlocks, SnowflakeStatsInfo } from "../api";
import type { DecodedId } from "../ids/decode";
import { IdError } from "../ids/errors";
import type { DecodedForeign } from "../ids/foreign-layouts";
import { app } from "./app";
import { configFrom } from "./config";
import type { DecodeOptions } from "./decode-options";
import { serviceError } from "./errors";
import {
	decode,
	type SnowflakeIds,
	snowflakeBlocks,
	snowflakeIds,
	snowflakeStats,
	type UlidFormat,
	type UlidIds,
	type UuidV7Ids,
	ulidIds,
	uuidv7Ids,
} from "./operations";

export interface SnowflakeOptions {
	/** Omit to let the service pick one from AUTO_WORKER_IDS. */
	workerId?: number;
	count?: number;
}
export interface SnowflakeBlocksOptions {
	/** Omit to let the service pick one from AUTO_WORKER_IDS. */
	workerId?: number;
	/** Up to MAX_BLOCK_COUNT (default 1). */
	count?: number;
}
export interface UlidOptions {
	count?: number;
	format?: UlidFormat;
}
export interface UuidV7Options {
	count?: number;
}

/**
 * The service for other Workers, over a service binding:
 * `services = [{ binding = "IDS", service = "edge-ids", entrypoint = "IdService" }]`.
 * Same operations, validation and values as the HTTP routes (they share ./operations).
 * Callers through a binding are trusted: no token. A failure rejects with an Error whose message
 * starts with its code, `invalid_count: count must be …`, because only the message
 * survives the RPC boundary; `idErrorCode(error)` in src/client.ts reads it back.
 * `fetch` serves the HTTP API too, so the typed HTTP client works over the binding.
 * `IdServiceRpc` (src/api.ts) is these methods as plain types, for callers outside this repo.
 */
export class IdService extends WorkerEntrypoint<Env> implements IdServiceRpc {
	async snowflake(options: SnowflakeOptions = {}): Promise<SnowflakeIds> {
		return rpc(() =>
			snowflakeIds(
				this.env,
				{ ...optionsObject(options), via: "rpc" },
				{ background: (work) => this.ctx.waitUntil(work) },
			),
		);
	}

	/** Many IDs as `{first, count}` runs of one worker ID; `expandBlocks` (edge-ids/ids) lists them. */
	async snowflakeBlocks(options: SnowflakeBlocksOptions): Promise<SnowflakeBlocks> {
		return rpc(() => snowflakeBlocks(this.env, { ...optionsObject(options), via: "rpc" }));
	}

	async ulid(options: UlidOptions = {}): Promise<UlidIds> {
		return rpc(() => ulidIds(this.env, { ...optionsObject(options), via: "rpc" }));
	}

	async uuidv7(options: UuidV7Options = {}): Promise<UuidV7Ids> {
		return rpc(() => uuidv7Ids(this.env, { ...optionsObject(options), via: "rpc" }));
	}

	/**
	 * What an ID says; `options` reads a Snowflake-like ID of another system:
	 * `{ layout: "discord" }` or explicit `{ timeBits, workerBits, sequenceBits, epoch?, timeUnitMs? }`.
	 */
	async decode(id: string, options: DecodeOptions = {}): Promise<DecodedId | DecodedForeign> {
		return rpc(() => decode(this.env, id, optionsObject(options) as DecodeOptions));
	}

	/** The active Snowflake layout, as `GET /layout` answers it. */
	async layout(): Promise<LayoutInfo> {
		return rpc(() => configFrom(this.env).layout.toJSON());
	}

	/** A worker ID's object: IDs issued, requests, clock regressions, lease writes… */
	async stats(workerId: number): Promise<SnowflakeStatsInfo> {
		return rpc(() => snowflakeStats(this.env, workerId, "rpc"));
	}

	/** HTTP over the binding; like RPC, trusted: the token is not asked for. */
	override async fetch(request: Request): Promise<Response> {
		return app.fetch(request, trustedEnv(this.env), this.ctx);
	}
}

const trusted = new WeakMap<Env, Env>();

/**
 * The env without API_TOKEN and without the rate limiter (binding callers are
 * trusted), one object per env so its parsed config is cached too.
 */
function trustedEnv(env: Env): Env {
	let trustedOne = trusted.get(env);
	if (!trustedOne) {
		const withoutLimits: Partial<Env> = { ...env, API_TOKEN: undefined };
		delete withoutLimits.RATE_LIMITER;
		trustedOne = withoutLimits as Env;
		trusted.set(env, trustedOne);
	}
	return trustedOne;
}

function optionsObject<T extends object>(options: T): Partial<Record<keyof T, unknown>> {
	if (options === null || typeof options !== "object" || Array.isArray(options)) {
		throw serviceError("invalid_format", "options must be an object such as { count: 10 }");
	}
	return options;
}

/**
 * An error's message for RPC: `code: detail`, and for retryable refusals a last
 * `(retry after N s)`, the `Retry-After` of the HTTP answer (`idRetryAfter` in the
 * client reads it back).
 */
function rpcMessage(error: IdError<string>): string {
	const seconds = error.retryAfterSeconds;
	return seconds === undefined
		? error.message
		: `${error.message} (retry after ${Math.max(1, seconds)} s)`;
}

/** Runs an operation; any failure leaves as a plain Error whose message starts with its code. */
async function rpc<T>(operation: () => T | Promise<T>): Promise<T> {
	try {
		return await operation();
	} catch (thrown) {
		if (thrown instanceof IdError) throw new Error(rpcMessage(thrown));
		console.error("internal error in IdService", thrown);
		throw new Error("internal: an internal error occurred; it has been logged");
	}
}
