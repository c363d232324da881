/**
 * IdService over a service binding, with refusals crossing as values and thrown
 * here, in the caller. workerd reports every rejected RPC call as an uncaught
 * exception of the service (under `wrangler dev`: `✘ [ERROR] Uncaught Error`, and
 * across two dev servers the call is also cancelled as hung), so a caller's bad
 * input would read as a crash of edge-ids. Through `idService` the service
 * answers `{ value }` or `{ error }` (`IdService.settle`), and each method rejects
 * with the same Error a direct call rejects with (`invalid_count: count must be …`):
 * `idErrorCode` and `idRetryAfter` read it alike.
 *
 * @example
 * ```ts
 * // wrangler.toml: [[services]] binding = "IDS", service = "edge-ids", entrypoint = "IdService"
 * const ids = idService(env.IDS);
 * const { ids: [orderId] } = await ids.snowflake({ workerId: 7 });
 * await ids.snowflake({ count: 0 }); // rejects with Error("invalid_count: count must be …")
 * const pool = createIdPool({ source: ids });
 * ```
 */
import type { IdServiceRpc, Settled } from "../wire";

/** What `idService` calls: a binding to the `IdService` entrypoint (any method name, checked by it). */
export interface SettlingBinding {
	settle(method: string, ...args: unknown[]): Promise<Settled<unknown>>;
}

/** The binding's IdService methods, each rejecting in the caller with the service's message. */
export function idService<T extends object = IdServiceRpc>(binding: SettlingBinding): T {
	return new Proxy({} as T, {
		get(_, name) {
			// Not a thenable: `await idService(…)` must not call the service.
			if (typeof name !== "string" || name === "then") return undefined;
			return async (...args: unknown[]) => {
				const settled = await binding.settle(name, ...args);
				if (settled.error !== undefined) throw new Error(settled.error);
				return settled.value;
			};
		},
	});
}
