/**
 * The HTTP client's operations calls (`GET /leases`, `GET /stats`, the history
 * routes), the same as the IdService RPC methods `leases`, `fleetStats` and
 * `statsHistory`. Each is one request; all are safe to retry.
 *
 *   const { leases } = await client.leases();
 *   const { workerIds, sequences, totals, cursor } = await client.fleetStats({ limit: 100 });
 *   const { history } = await client.statsHistory({ workerId: 7, minutes: 60 });
 */
import type {
	FleetLeases,
	FleetStats,
	FleetStatsOptions,
	StatsHistory,
	StatsHistoryOptions,
} from "../wire";
import type { CallOptions, Query } from "./call-options";
import { workerSegment } from "./path-segments";

/** The client's GET (index.ts). */
type Get = <T>(path: string, query: Query, call?: CallOptions) => Promise<T>;

export function opsCalls(get: Get) {
	return {
		/** Every leased worker ID held or in grace (`GET /leases`); `leases_disabled` without LEASE_WORKER_IDS. */
		async leases(call?: CallOptions) {
			return get<FleetLeases>("/leases", {}, call);
		},
		/**
		 * A page of the worker IDs that have issued, then of the sequences, with counts, the
		 * fleet's totals and the layout's end (`GET /stats`); pass the answer's `cursor` for the next.
		 */
		async fleetStats({ limit, cursor }: FleetStatsOptions = {}, call?: CallOptions) {
			return get<FleetStats>("/stats", { limit, cursor }, call);
		},
		/** Per-minute counts of a worker ID, or of the fleet without one, for the last 1-1440 minutes (default 60). */
		async statsHistory({ workerId, minutes }: StatsHistoryOptions = {}, call?: CallOptions) {
			const path =
				workerId === undefined ? "/stats/history" : `/stats/${workerSegment(workerId)}/history`;
			return get<StatsHistory>(path, { minutes }, call);
		},
	};
}
