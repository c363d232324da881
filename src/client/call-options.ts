/**
 * What every call of `idsClient` takes and how its method files reach the service:
 * the per-call options, a query's values, and the one request function index.ts
 * hands to each group of calls (leases, the operations view, sequences).
 *
 *   await ids.ulid({ count: 3 }, { timeoutMs: 2_000 }); // CallOptions, the last argument
 */

/** Options of one call, the last argument of every method. */
export interface CallOptions {
	/** Cancels this call (it rejects with `aborted`, the signal's reason as `cause`). */
	signal?: AbortSignal | undefined;
	/** This call's deadline in ms, instead of the client's `timeoutMs`. */
	timeoutMs?: number | undefined;
}

export type Query = Record<string, string | number | undefined>;

/** The client's one way to call the service (index.ts). */
export type ServiceRequest = <T>(
	method: "GET" | "POST" | "PUT" | "DELETE",
	path: string,
	query: Query,
	body: object | undefined,
	call?: CallOptions,
) => Promise<T>;

/**
 * Whether `source` is a plain object (such as `idsClient`'s) whose `method` takes call
 * options as argument `position` (0-based), so a signal can be handed to it. An RPC
 * binding's arguments cross to the service, which a signal cannot: its calls are
 * abandoned instead, and run on.
 */
export function takesCallOptions(
	source: object,
	method: (...args: never[]) => unknown,
	position: number,
): boolean {
	return Object.getPrototypeOf(source) === Object.prototype && method.length > position;
}
