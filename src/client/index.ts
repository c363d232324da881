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
 *   (retry.ts). Default: 3 attempts, each wait at most 10 s, honouring
 *   `Retry-After`.
 * - `timeoutMs`: each call's deadline, retries and their waits included.
 *   Default 30,000. A call past it rejects with `timeout`.
 * - `signal`: an AbortSignal that cancels every call (e.g. on shutdown).
 *
 * Every method takes a last, optional `{ signal, timeoutMs }` for that call.
 * Every failure is an `IdsError` (errors.ts): the service's code, or
 * `network_error`, `timeout`, `aborted` when no answer came.
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
 * //   wrangler.toml: [[services]] binding = "IDS", service = "edge-ids", entrypoint = "IdService"
 * const viaBinding = idsClient({ fetch: env.IDS.fetch.bind(env.IDS) });
 *
 * try {
 *   await ids.ulid({ count: 0 });
 * } catch (error) {
 *   idErrorCode(error); // "invalid_count"
 * }
 * ```
 */

import { describeValue, type IdErrorCode } from "../ids/errors";
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
} from "../wire";
import type { CallOptions, Query } from "./call-options";
import { checkTimeoutMs, type Deadline, startDeadline } from "./deadline";
import { IdsError } from "./errors";
import { leaseCalls } from "./lease-calls";
import { opsCalls } from "./ops-calls";
import { idSegment, workerSegment } from "./path-segments";
import { type RetryOptions, retryPolicy, withRetries } from "./retry";
import { sequenceCalls } from "./sequence-calls";

export type { LeaseHolderStats } from "../ids/leases/holder/lease-holder";
// The answers' and errors' types, as the service defines them.
export type * from "../wire";
export {
	type ClientErrorCode,
	IdsError,
	type IdsErrorCode,
	idErrorCode,
	idRequestId,
	idRetryAfter,
} from "./errors";
export {
	createLeasedGenerator,
	type LeasedGenerator,
	type LeasedGeneratorOptions,
	type LeaseSourceRpc,
} from "./leased-generator";
export {
	type BlocksSource,
	createIdPool,
	type IdPoolClient,
	type IdPoolClientOptions,
	type IdPoolSnowflakeOptions,
} from "./pool";
export {
	createSequenceBuffer,
	type RangeSource,
	type SequenceBuffer,
	type SequenceBufferNextOptions,
	type SequenceBufferOptions,
} from "./sequence-buffer";
export { idService, type SettlingBinding } from "./service";
export type { CallOptions, IdErrorCode, RetryOptions };

/** A call's default deadline, retries and their waits included. */
const DEFAULT_TIMEOUT_MS = 30_000;

export interface IdsClientOptions {
	/**
	 * Where the service answers: an absolute `http:` or `https:` URL, optionally with
	 * a path prefix. Default `https://edge-ids.internal`; any URL will do over a binding.
	 */
	baseUrl?: string | undefined;
	/** The API_TOKEN, when the service has one. Default: no `Authorization` header. */
	token?: string | undefined;
	/** A binding's fetch (`env.IDS.fetch.bind(env.IDS)`) or any fetch. Default: the global `fetch`. */
	fetch?: typeof fetch | undefined;
	/** Retries of answers 429, 502-504 and of network failures (see retry.ts). Default: 3 attempts, waits up to 10 s. */
	retry?: RetryOptions | undefined;
	/** Each call's deadline in ms, retries and their waits included. Default 30,000. */
	timeoutMs?: number | undefined;
	/** Cancels every call of this client when it aborts (each rejects with `aborted`). */
	signal?: AbortSignal | undefined;
}

/**
 * A client for the service's HTTP API (see the module comment for the options
 * and an example). Each method resolves with the route's JSON body or rejects
 * with `IdsError`. Throws `IdsError` `invalid_config` when `baseUrl`, `retry` or
 * `timeoutMs` is invalid.
 */
export function idsClient(options: IdsClientOptions = {}) {
	const retry = retryPolicy(options.retry);
	const base = checkBaseUrl(options.baseUrl ?? "https://edge-ids.internal");
	const timeoutMs = checkTimeoutMs("timeoutMs", options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
	const send = options.fetch ?? ((input, init) => fetch(input, init));
	const headers: Record<string, string> = { Accept: "application/json" };
	if (options.token) headers.Authorization = `Bearer ${options.token}`;

	/**
	 * `method` `path` (whose parameters the caller encoded) with `query` and, when
	 * given, `body` as JSON; the answer's JSON body (nothing for a 204), or IdsError.
	 */
	async function request<T>(
		method: "GET" | "POST" | "PUT" | "DELETE",
		path: string,
		query: Query,
		body: object | undefined,
		call: CallOptions = {},
	): Promise<T> {
		const url = new URL(base + path);
		for (const [name, value] of Object.entries(query)) {
			if (value !== undefined) url.searchParams.set(name, String(value));
		}
		const ms =
			call.timeoutMs === undefined ? timeoutMs : checkTimeoutMs("timeoutMs", call.timeoutMs);
		const deadline = startDeadline(ms, [options.signal, call.signal], `${method} ${path}`);
		const sent =
			body === undefined
				? { method, headers }
				: {
						method,
						headers: { ...headers, "Content-Type": "application/json" },
						body: JSON.stringify(body),
					};
		try {
			return await answerOf<T>(deadline, () => {
				const init = { ...sent, signal: deadline.signal };
				return withRetries(() => send(url.toString(), init), retry, deadline.signal);
			});
		} catch (error) {
			throw failureOf(error, deadline);
		} finally {
			deadline.end();
		}
	}

	/** GET `path` with `query`. */
	function get<T>(path: string, query: Query, call?: CallOptions): Promise<T> {
		return request<T>("GET", path, query, undefined, call);
	}

	return {
		/**
		 * Snowflake IDs (decimal strings). With `workerId` they come from that worker
		 * ID's object, strictly increasing; without it the service picks one from
		 * AUTO_WORKER_IDS (or the caller's region). `count` defaults to 1, at most
		 * MAX_BATCH (10,000).
		 */
		async snowflake(
			{ workerId, count, format, prefix }: SnowflakeOptions = {},
			call?: CallOptions,
		) {
			const path = workerId === undefined ? "/snowflake" : `/snowflake/${workerSegment(workerId)}`;
			return get<SnowflakeIds>(path, { count, format, prefix }, call);
		},
		/**
		 * Many Snowflake IDs as `{first, count}` blocks of consecutive IDs (up to
		 * MAX_BLOCK_COUNT, one worker ID); `expandBlocks` in edge-ids/ids lists them.
		 */
		async snowflakeBlocks(
			{ workerId, count, format, prefix }: SnowflakeBlocksOptions = {},
			call?: CallOptions,
		) {
			const path =
				workerId === undefined
					? "/snowflake/blocks"
					: `/snowflake/${workerSegment(workerId)}/blocks`;
			return get<SnowflakeBlocks>(path, { count, format, prefix }, call);
		},
		/** ULIDs, monotonic within the answer; `format: "uuid"` writes them as UUIDs. Default: 1, as ULIDs. */
		async ulid({ count, format }: UlidOptions = {}, call?: CallOptions) {
			return get<UlidIds>("/ulid", { count, format }, call);
		},
		/** UUIDv7s (RFC 9562), monotonic within the answer. `count` defaults to 1. */
		async uuidv7({ count }: UuidV7Options = {}, call?: CallOptions) {
			return get<UuidV7Ids>("/uuidv7", { count }, call);
		},
		/** UUIDv7s as TypeIDs (`user_01j…`), monotonic with `uuidv7`; no `prefix`: bare TypeIDs. */
		async typeid({ count, prefix }: TypeIdOptions = {}, call?: CallOptions) {
			return get<TypeIdIds>("/typeid", { count, prefix }, call);
		},
		/**
		 * The tightest `[min, max]` holding every ID of `kind` with a time in `[from, to)`
		 * (Unix ms or ISO 8601), for `WHERE id BETWEEN min AND max`.
		 */
		async range({ kind, from, to, workerId, format, prefix }: RangeOptions, call?: CallOptions) {
			return get<IdRange>("/range", { kind, from, to, workerId, format, prefix }, call);
		},
		/**
		 * What an ID says: a Snowflake's time, worker ID and sequence; a ULID's or
		 * UUID's time and forms. `options` reads a Snowflake-like ID of another
		 * system (`{ layout: "discord" }`, or explicit widths), as `/decode/:id?…` does.
		 */
		async decode(
			id: string,
			options: DecodeOptions = {},
			call?: CallOptions,
		): Promise<DecodedId | DecodedForeign> {
			const { format, layout, timeBits, workerBits, sequenceBits, epoch, timeUnitMs } = options;
			const query = { format, layout, timeBits, workerBits, sequenceBits, epoch, timeUnitMs };
			return get<DecodedId | DecodedForeign>(`/decode/${idSegment(id)}`, query, call);
		},
		/** The active Snowflake layout, with the date it runs out (`exhaustsAt`). */
		async layout(call?: CallOptions) {
			return get<LayoutInfo>("/layout", {}, call);
		},
		/** A worker ID's object: IDs issued, requests, clock regressions, lease writes. */
		async stats(workerId: number, call?: CallOptions) {
			return get<SnowflakeStatsInfo>(`/snowflake/${workerSegment(workerId)}/stats`, {}, call);
		},
		/** The region mapping, and the region this client's requests would use. */
		async regions(call?: CallOptions) {
			return get<RegionsInfo>("/regions", {}, call);
		},
		/** `{"status":"ok"}` while the service answers. */
		async health(call?: CallOptions) {
			return get<{ status: "ok" }>("/health", {}, call);
		},
		...leaseCalls(request),
		...opsCalls(get),
		...sequenceCalls(request),
	};
}

/**
 * The answer's JSON body, read within the deadline; an `IdsError` for an error
 * answer or one that is not the service's JSON.
 */
async function answerOf<T>(deadline: Deadline, request: () => Promise<Response>): Promise<T> {
	const response = await deadline.race(request());
	const text = await deadline.race(response.text());
	if (response.status === 204) return undefined as T;
	const body = parseJson(text);
	if (response.ok && typeof body === "object" && body !== null) return body as T;
	const retryAfter = seconds(response.headers.get("Retry-After"));
	const requestId = response.headers.get("X-Request-Id") ?? undefined;
	if (!response.ok && isErrorBody(body)) {
		const { code, message } = body.error;
		throw new IdsError(code, message, response.status, retryAfter, { requestId });
	}
	throw new IdsError(
		codeOfStatus(response.status),
		`answer ${response.status} is not the service's JSON: ${JSON.stringify(text.slice(0, 100))}`,
		response.status,
		retryAfter,
		{ requestId },
	);
}

/**
 * What a failed call rejects with: the deadline's `timeout` or `aborted` once it
 * has passed (whatever the fetch threw for it), an IdsError as it is, a custom
 * fetch's own abort as `timeout` or `aborted`, and any other rejection (the
 * fetch's `TypeError`) as `network_error`; the original is the `cause`.
 */
function failureOf(thrown: unknown, deadline: Deadline): IdsError {
	const error = deadline.blame(thrown);
	if (error instanceof IdsError) return error;
	const detail = error instanceof Error ? error.message : describeValue(error);
	// A custom fetch's own cancellation (its AbortSignal or AbortSignal.timeout).
	if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
		const code = error.name === "TimeoutError" ? "timeout" : "aborted";
		return new IdsError(code, `the fetch was cancelled (${detail})`, undefined, undefined, {
			cause: error,
		});
	}
	return new IdsError(
		"network_error",
		`the service could not be reached (${detail}); see the error's cause`,
		undefined,
		undefined,
		{ cause: error },
	);
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

/**
 * `baseUrl` without trailing slashes, once it is an absolute http(s) URL with no
 * query, fragment or credentials (`localhost:8787` parses as the scheme
 * `localhost:`, and fetch would refuse it only on the first call).
 */
function checkBaseUrl(baseUrl: string): string {
	let url: URL | undefined;
	try {
		url = new URL(baseUrl);
	} catch {
		url = undefined;
	}
	const plain =
		url !== undefined &&
		(url.protocol === "https:" || url.protocol === "http:") &&
		url.search === "" &&
		url.hash === "" &&
		url.username === "" &&
		url.password === "" &&
		!baseUrl.includes("?") &&
		!baseUrl.includes("#");
	if (typeof baseUrl === "string" && plain) return baseUrl.replace(/\/+$/, "");
	throw new IdsError(
		"invalid_config",
		`baseUrl must be an absolute http: or https: URL such as "https://ids.example.com" or "http://localhost:8787" (a path prefix is allowed; no query, fragment or credentials: use token); got ${describeValue(baseUrl)}`,
		undefined,
		undefined,
	);
}

/** The object `idsClient` returns. */
export type IdsClient = ReturnType<typeof idsClient>;
