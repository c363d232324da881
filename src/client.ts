/**
 * A typed client for edge-ids over HTTP, built on Hono's `hc`: over a base URL
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
import { hc } from "hono/client";
import { type RetryOptions, withRetries } from "./client-retry";
import type { DecodedId } from "./ids/decode";
import type { IdErrorCode } from "./ids/errors";
import type { SnowflakeLayout } from "./ids/layout";
import type { AppType } from "./worker/app";
import type { ErrorBody, ServiceErrorCode } from "./worker/errors";
import type { SnowflakeIds, UlidFormat, UlidIds, UuidV7Ids } from "./worker/operations";
import type { RegionsInfo } from "./worker/routes/regions";

/** What `GET /layout` (and `layout()`) answers: the active Snowflake layout. */
export type LayoutInfo = ReturnType<SnowflakeLayout["toJSON"]>;
export type {
	DecodedId,
	IdErrorCode,
	RegionsInfo,
	RetryOptions,
	ServiceErrorCode,
	SnowflakeIds,
	UlidIds,
	UuidV7Ids,
};

/** Thrown by every `idsClient` method when the service answers with an error. */
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

export interface IdsClientOptions {
	/** Where the service answers. Default `https://edge-ids.internal`; any URL will do over a binding. */
	baseUrl?: string;
	/** The API_TOKEN, when the service has one. Default: no `Authorization` header. */
	token?: string;
	/** A binding's fetch (`env.IDS.fetch.bind(env.IDS)`) or any fetch. Default: the global `fetch`. */
	fetch?: typeof fetch;
	/** Retries of answers 503 and 429 (see client-retry.ts). Default: 3 attempts, waits up to 10 s. */
	retry?: RetryOptions;
}

/** What `read` needs of an `hc` answer (a Response, typed by route). */
interface AnswerLike {
	ok: boolean;
	status: number;
	headers: Headers;
	json(): Promise<unknown>;
}

const text = (value: number | undefined) => (value === undefined ? undefined : String(value));

/**
 * A client for the service's HTTP API (see the module comment for the options
 * and an example). Each method resolves with the route's JSON body or rejects
 * with `IdsError`.
 */
export function idsClient(options: IdsClientOptions = {}) {
	const api = hc<AppType>(options.baseUrl ?? "https://edge-ids.internal", {
		fetch: options.fetch,
		headers: options.token ? { Authorization: `Bearer ${options.token}` } : undefined,
	});

	async function read<T>(call: () => Promise<AnswerLike>): Promise<T> {
		const response = await withRetries(call, options.retry);
		const body = (await response.json()) as T | ErrorBody;
		if (response.ok) return body as T;
		const { error } = body as ErrorBody;
		const retryAfter = response.headers.get("Retry-After");
		throw new IdsError(
			error.code,
			error.message,
			response.status,
			retryAfter ? Number(retryAfter) : undefined,
		);
	}

	return {
		/** The underlying `hc` client, for routes the helpers below do not cover. */
		api,
		/**
		 * Snowflake IDs (decimal strings). With `workerId` they come from that worker
		 * ID's object, strictly increasing; without it the service picks one from
		 * AUTO_WORKER_IDS. `count` defaults to 1, at most MAX_BATCH (10,000).
		 */
		snowflake({ workerId, count }: { workerId?: number; count?: number } = {}) {
			const query = { count: text(count) };
			return read<SnowflakeIds>(() =>
				workerId === undefined
					? api.snowflake.$get({ query })
					: api.snowflake[":workerId"].$get({ param: { workerId: String(workerId) }, query }),
			);
		},
		/** ULIDs, monotonic within the answer; `format: "uuid"` writes them as UUIDs. Default: 1, as ULIDs. */
		ulid({ count, format }: { count?: number; format?: UlidFormat } = {}) {
			return read<UlidIds>(() => api.ulid.$get({ query: { count: text(count), format } }));
		},
		/** UUIDv7s (RFC 9562), monotonic within the answer. `count` defaults to 1. */
		uuidv7({ count }: { count?: number } = {}) {
			return read<UuidV7Ids>(() => api.uuidv7.$get({ query: { count: text(count) } }));
		},
		/** What an ID says: a Snowflake's time, worker ID and sequence; a ULID's or UUID's time and forms. */
		decode(id: string) {
			return read<DecodedId>(() => api.decode[":id"].$get({ param: { id } }));
		},
		/** The active Snowflake layout, with the date it runs out (`exhaustsAt`). */
		layout() {
			return read<LayoutInfo>(() => api.layout.$get());
		},
		/** The region mapping, and the region this client's requests would use. */
		regions() {
			return read<RegionsInfo>(() => api.regions.$get());
		},
	};
}

/** The object `idsClient` returns. */
export type IdsClient = ReturnType<typeof idsClient>;
