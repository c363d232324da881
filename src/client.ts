/**
 * A typed client for edge-ids over HTTP: over a base URL
 * (with the bearer token), or over a service binding's `fetch` from another
 * Worker. It answers the same values as the IdService RPC methods and throws
 * `IdsError` carrying the service's error code.
 *
 * Options (all optional):
 * - `baseUrl`: where the service answers. Default `https://edge-ids.internal`
 *   (any URL will do over a binding).
 * - `token`: the service's API_TOKEN, sent as `Authorization: Bearer <token>`.
 *   Default: none (the service has no token, or the caller is a binding).
 * - `fetch`: the fetch to call. Default: the global `fetch`.
 * - `retry`: retries of 429, 502, 503 and 504 answers and of network failures
 *   (client-retry.ts). Default: 3 attempts, each wait at most 10 s, honouring
 *   `Retry-After`.
 *
 * It runs wherever `fetch` does (Workers, Node 18+, Deno, Bun, browsers) and
 * depends on nothing else. (In this repository, `hc<AppType>` from hono/client
 * reaches every route with types inferred from the app itself.)
 *
 * @example
 * ```ts
 * import { idErrorCode, idsClient } from "edge-ids/client";
 *
 * // Over the public URL:
 * const ids = idsClient({ baseUrl: "https://ids.example.com", token: env.IDS_TOKEN });
 * const { ids: [orderId] } = await ids.snowflake({ workerId: 7 });
 *
 * // From another Worker, through a service binding (no public hop, no token):
 * //   wrangler.jsonc: "services": [{ "binding": "IDS", "service": "edge-ids", "entrypoint": "IdService" }]
 * const viaBinding = idsClient({ fetch: env.IDS.fetch.bind(env.IDS) });
 *
 * try {
 *   await ids.ulid({ count: 0 });
 * } catch (error) {
 *   idErrorCode(error); // "invalid_count"
 * }
 * ```
 */
import type {
	DecodedForeign,
	DecodedId,
	DecodeOptions,
	ErrorBody,
	IdRange,
	LayoutInfo,
	RangeOptions,
	RegionsInfo,
	ServiceErrorCode,
	SnowflakeBlocks,
	SnowflakeBlocksOptions,
	SnowflakeIds,
	SnowflakeOptions,
	SnowflakeStatsInfo,
	TypeIdIds,
	TypeIdOptions,
	UlidIds,
	UlidOptions,
	UuidV7Ids,
	UuidV7Options,
} from "./api";
import { type RetryOptions, retryPolicy, withRetries } from "./client-retry";
import type { IdErrorCode } from "./ids/errors";

// The answers' and errors' types, as the service defines them.
export type * from "./api";
export {
	type BlocksSource,
	createIdPool,
	type IdPoolClient,
	type IdPoolClientOptions,
} from "./client-pool";
export type { IdErrorCode, RetryOptions };

/**
 * Thrown by every `idsClient` method when the service answers with an error, or
 * when an answer is not the service's JSON (an HTML error page of a proxy: the
 * code then follows the status, e.g. 429 `rate_limited`, 502-504 `unavailable`).
 */
export class IdsError extends Error {
	override readonly name = "IdsError";
	constructor(
		/** The service's error code, e.g. `invalid_count` or `overloaded`. */
		readonly code: ServiceErrorCode,
		message: string,
		/** The HTTP status of the answer. */
		readonly status: number,
		/** Seconds to wait before retrying, for 503 answers (`Retry-After`). */
		readonly retryAfter: number | undefined,
	) {
		super(`${code}: ${message}`);
	}
}

/**
 * The error code of a failed call, from either client: an `IdsError` (HTTP) or
 * the plain Error an IdService RPC method rejects with (its message starts with
 * the code, because only the message crosses the RPC boundary). `undefined` for
 * anything else.
 *
 * @example
 * ```ts
 * try {
 *   await env.IDS.snowflake({ count: 0 });
 * } catch (error) {
 *   if (idErrorCode(error) === "invalid_count") return new Response("bad count", { status: 400 });
 *   throw error;
 * }
 * ```
 */
export function idErrorCode(error: unknown): ServiceErrorCode | undefined {
	if (error instanceof IdsError) return error.code;
	if (error instanceof Error) {
		const match = /^([a-z_]+): /.exec(error.message);
		return match?.[1] as ServiceErrorCode | undefined;
	}
	return undefined;
}

/**
 * Seconds to wait before retrying a failed call, from either client: an
 * `IdsError`'s `retryAfter` (the `Retry-After` header), or the `(retry after N s)`
 * that ends the message of a retryable RPC rejection (`overloaded`,
 * `unavailable`, `clock_regression`, `rate_limited`). `undefined` when the call
 * should not simply be retried.
 *
 * @example
 * ```ts
 * try {
 *   await env.IDS.snowflake({ workerId: 7 });
 * } catch (error) {
 *   const seconds = idRetryAfter(error); // 1 for a restarting object
 *   if (seconds !== undefined) await scheduler.wait(seconds * 1000);
 * }
 * ```
 */
export function idRetryAfter(error: unknown): number | undefined {
	if (error instanceof IdsError) return error.retryAfter;
	if (error instanceof Error) {
		const match = /\(retry after ([0-9]+) s\)$/.exec(error.message);
		return match ? Number(match[1]) : undefined;
	}
	return undefined;
}

export interface IdsClientOptions {
	/** Where the service answers. Default `https://edge-ids.internal`; any URL will do over a binding. */
	baseUrl?: string;
	/** The API_TOKEN, when the service has one. Default: no `Authorization` header. */
	token?: string;
	/** A binding's fetch (`env.IDS.fetch.bind(env.IDS)`) or any fetch. Default: the global `fetch`. */
	fetch?: typeof fetch;
	/** Retries of answers 429, 502-504 and of network failures (see client-retry.ts). Default: 3 attempts, waits up to 10 s. */
	retry?: RetryOptions;
}

type Query = Record<string, string | number | undefined>;

/**
 * A client for the service's HTTP API (see the module comment for the options
 * and an example). Each method resolves with the route's JSON body or rejects
 * with `IdsError` (or the fetch's own error when the network fails on every
 * attempt). Throws `RangeError` when the `retry` options are invalid.
 */
export function idsClient(options: IdsClientOptions = {}) {
	const retry = retryPolicy(options.retry);
	const base = (options.baseUrl ?? "https://edge-ids.internal").replace(/\/+$/, "");
	const send = options.fetch ?? ((input, init) => fetch(input, init));
	const headers: Record<string, string> = { Accept: "application/json" };
	if (options.token) headers.Authorization = `Bearer ${options.token}`;

	/** GET `path` (whose parameters the caller encoded) with `query`; the body, or IdsError. */
	async function get<T>(path: string, query: Query = {}): Promise<T> {
		const url = new URL(base + path);
		for (const [name, value] of Object.entries(query)) {
			if (value !== undefined) url.searchParams.set(name, String(value));
		}
		const response = await withRetries(() => send(url.toString(), { headers }), retry);
		const text = await response.text();
		const body = parseJson(text);
		if (response.ok && typeof body === "object" && body !== null) return body as T;
		const retryAfter = seconds(response.headers.get("Retry-After"));
		if (!response.ok && isErrorBody(body)) {
			throw new IdsError(body.error.code, body.error.message, response.status, retryAfter);
		}
		throw new IdsError(
			codeOfStatus(response.status),
			`answer ${response.status} is not the service's JSON: ${JSON.stringify(text.slice(0, 100))}`,
			response.status,
			retryAfter,
		);
	}

	return {
		/**
		 * Snowflake IDs (decimal strings). With `workerId` they come from that worker
		 * ID's object, strictly increasing; without it the service picks one from
		 * AUTO_WORKER_IDS (or the caller's region). `count` defaults to 1, at most
		 * MAX_BATCH (10,000).
		 */
		snowflake({ workerId, count, format, prefix }: SnowflakeOptions = {}) {
			const path = workerId === undefined ? "/snowflake" : `/snowflake/${segment(workerId)}`;
			return get<SnowflakeIds>(path, { count, format, prefix });
		},
		/**
		 * Many Snowflake IDs as `{first, count}` blocks of consecutive IDs (up to
		 * MAX_BLOCK_COUNT, one worker ID); `expandBlocks` in edge-ids/ids lists them.
		 */
		snowflakeBlocks({ workerId, count, format, prefix }: SnowflakeBlocksOptions = {}) {
			const path =
				workerId === undefined ? "/snowflake/blocks" : `/snowflake/${segment(workerId)}/blocks`;
			return get<SnowflakeBlocks>(path, { count, format, prefix });
		},
		/** ULIDs, monotonic within the answer; `format: "uuid"` writes them as UUIDs. Default: 1, as ULIDs. */
		ulid({ count, format }: UlidOptions = {}) {
			return get<UlidIds>("/ulid", { count, format });
		},
		/** UUIDv7s (RFC 9562), monotonic within the answer. `count` defaults to 1. */
		uuidv7({ count }: UuidV7Options = {}) {
			return get<UuidV7Ids>("/uuidv7", { count });
		},
		/** UUIDv7s as TypeIDs (`user_01j…`), monotonic with `uuidv7`; no `prefix`: bare TypeIDs. */
		typeid({ count, prefix }: TypeIdOptions = {}) {
			return get<TypeIdIds>("/typeid", { count, prefix });
		},
		/**
		 * The tightest `[min, max]` holding every ID of `kind` with a time in `[from, to)`
		 * (Unix ms or ISO 8601), for `WHERE id BETWEEN min AND max`.
		 */
		range({ kind, from, to, workerId, format, prefix }: RangeOptions) {
			return get<IdRange>("/range", { kind, from, to, workerId, format, prefix });
		},
		/**
		 * What an ID says: a Snowflake's time, worker ID and sequence; a ULID's or
		 * UUID's time and forms. `options` reads a Snowflake-like ID of another
		 * system (`{ layout: "discord" }`, or explicit widths), as `/decode/:id?…` does.
		 */
		decode(id: string, options: DecodeOptions = {}): Promise<DecodedId | DecodedForeign> {
			const refused = notASegment(id);
			if (refused) return Promise.reject(refused);
			const { format, layout, timeBits, workerBits, sequenceBits, epoch, timeUnitMs } = options;
			const query = { format, layout, timeBits, workerBits, sequenceBits, epoch, timeUnitMs };
			return get<DecodedId | DecodedForeign>(`/decode/${segment(id)}`, query);
		},
		/** The active Snowflake layout, with the date it runs out (`exhaustsAt`). */
		layout() {
			return get<LayoutInfo>("/layout");
		},
		/** A worker ID's object: IDs issued, requests, clock regressions, lease writes. */
		stats(workerId: number) {
			return get<SnowflakeStatsInfo>(`/snowflake/${segment(workerId)}/stats`);
		},
		/** The region mapping, and the region this client's requests would use. */
		regions() {
			return get<RegionsInfo>("/regions");
		},
		/** `{"status":"ok"}` while the service answers. */
		health() {
			return get<{ status: "ok" }>("/health");
		},
	};
}

/** The JSON in `text`, or undefined when it is none (an HTML error page). */
function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

function isErrorBody(body: unknown): body is ErrorBody {
	const error = (body as Partial<ErrorBody> | null)?.error;
	return typeof error?.code === "string" && typeof error.message === "string";
}

/** The service's code for a status, for answers that are not its own (a proxy's). */
function codeOfStatus(status: number): ServiceErrorCode {
	if (status === 429) return "rate_limited";
	if (status === 502 || status === 503 || status === 504) return "unavailable";
	if (status === 401) return "unauthorized";
	if (status === 404) return "not_found";
	if (status === 405) return "method_not_allowed";
	return "internal";
}

/** `Retry-After` as whole seconds; undefined when absent or not a number (an HTTP date). */
function seconds(header: string | null): number | undefined {
	const value = header === null || header.trim() === "" ? Number.NaN : Number(header);
	return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** One path segment, percent-encoded, so that no value can reach another route (`1?count=3`, `%2F`, `#`). */
function segment(value: string | number): string {
	return encodeURIComponent(String(value));
}

/**
 * An ID that cannot be a path segment of its own: URLs drop empty, "." and ".."
 * segments (encoded or not), so these would reach another route. None is an ID.
 */
function notASegment(id: string): IdsError | undefined {
	if (id !== "" && !/^(\.|%2e){1,2}$/i.test(id)) return undefined;
	return new IdsError(
		"invalid_id",
		`id must be a Snowflake, a ULID or a UUID; got ${JSON.stringify(id)}`,
		400,
		undefined,
	);
}

/** The object `idsClient` returns. */
export type IdsClient = ReturnType<typeof idsClient>;
