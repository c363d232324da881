/**
 * A typed client for edge-ids over HTTP, built on Hono's `hc`: over a base URL
 * (with the bearer token), or over a service binding's `fetch`. It answers the
 * same values as the IdService RPC methods and throws `IdsError` with the code.
 *
 *   const ids = idsClient({ baseUrl: "https://ids.example.com", token });
 *   const { ids: [id] } = await ids.snowflake({ workerId: 7 });
 *
 *   // From another Worker, through the binding (no public hop):
 *   const ids = idsClient({ fetch: env.IDS.fetch.bind(env.IDS) });
 */
import { hc } from "hono/client";
import type { DecodedId } from "./ids/decode";
import type { IdErrorCode } from "./ids/errors";
import type { SnowflakeLayout } from "./ids/layout";
import type { AppType } from "./worker/app";
import type { ErrorBody } from "./worker/errors";
import type { SnowflakeIds, UlidFormat, UlidIds, UuidV7Ids } from "./worker/operations";
import type { RegionsInfo } from "./worker/routes/regions";

export type LayoutInfo = ReturnType<SnowflakeLayout["toJSON"]>;
export type { DecodedId, IdErrorCode, RegionsInfo, SnowflakeIds, UlidIds, UuidV7Ids };

export class IdsError extends Error {
	override readonly name = "IdsError";
	constructor(
		readonly code: IdErrorCode,
		message: string,
		readonly status: number,
		/** Seconds, for 503 answers. */
		readonly retryAfter: number | undefined,
	) {
		super(`${code}: ${message}`);
	}
}

/**
 * The error code of a failed call, from either client: an `IdsError` (HTTP) or
 * the plain Error an RPC method rejects with (its message starts with the code).
 */
export function idErrorCode(error: unknown): IdErrorCode | undefined {
	if (error instanceof IdsError) return error.code;
	if (error instanceof Error) {
		const match = /^([a-z_]+): /.exec(error.message);
		return match?.[1] as IdErrorCode | undefined;
	}
	return undefined;
}

export interface IdsClientOptions {
	/** Where the service answers; any URL will do over a service binding. */
	baseUrl?: string;
	/** The API_TOKEN, when the service has one. */
	token?: string;
	/** A binding's fetch (`env.IDS.fetch.bind(env.IDS)`) or any fetch. */
	fetch?: typeof fetch;
}

/** What `read` needs of an `hc` answer (a Response, typed by route). */
interface AnswerLike {
	ok: boolean;
	status: number;
	headers: Headers;
	json(): Promise<unknown>;
}

const text = (value: number | undefined) => (value === undefined ? undefined : String(value));

export function idsClient(options: IdsClientOptions = {}) {
	const api = hc<AppType>(options.baseUrl ?? "https://edge-ids.internal", {
		fetch: options.fetch,
		headers: options.token ? { Authorization: `Bearer ${options.token}` } : undefined,
	});

	async function read<T>(pending: Promise<AnswerLike>): Promise<T> {
		const response = await pending;
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
		snowflake({ workerId, count }: { workerId?: number; count?: number } = {}) {
			const query = { count: text(count) };
			return read<SnowflakeIds>(
				workerId === undefined
					? api.snowflake.$get({ query })
					: api.snowflake[":workerId"].$get({ param: { workerId: String(workerId) }, query }),
			);
		},
		ulid({ count, format }: { count?: number; format?: UlidFormat } = {}) {
			return read<UlidIds>(api.ulid.$get({ query: { count: text(count), format } }));
		},
		uuidv7({ count }: { count?: number } = {}) {
			return read<UuidV7Ids>(api.uuidv7.$get({ query: { count: text(count) } }));
		},
		decode(id: string) {
			return read<DecodedId>(api.decode[":id"].$get({ param: { id } }));
		},
		layout() {
			return read<LayoutInfo>(api.layout.$get());
		},
		/** The region mapping, and the region this client's requests would use. */
		regions() {
			return read<RegionsInfo>(api.regions.$get());
		},
	};
}

export type IdsClient = ReturnType<typeof idsClient>;
