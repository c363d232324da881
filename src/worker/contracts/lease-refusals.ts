/**
 * What leases mean for the other routes: the named and blocks routes refuse a leased
 * worker ID, and a log line or error never shows a leaseId from a path. (What a lease
 * request itself must be is its contract, ./leases.ts.)
 *
 *   refuseLeased(config, 600); // throws worker_id_leased when 600 is of LEASE_WORKER_IDS
 */
import type { Config } from "../config/config";
import { type ServiceError, serviceError } from "../errors";

/**
 * `410 lease_route_moved` for the 0.2.0 forms of renew and release, which took the
 * leaseId in the path: it names the routes that replace them, never the path sent.
 */
export function leaseRouteMoved(): ServiceError {
	return serviceError(
		"lease_route_moved",
		'renew and release take the leaseId in a JSON body, never in the URL (where request logs keep it): POST /leases/:workerId/renew and POST /leases/:workerId/release, each with {"leaseId": "…"}; the forms POST /leases/:workerId/:leaseId/renew and DELETE /leases/:workerId/:leaseId were removed',
	);
}

/** `409 worker_id_leased` for a named or blocks request of a leased worker ID. */
export function refuseLeased(config: Config, workerId: number): number {
	if (!config.leaseWorkerIds?.has(workerId)) return workerId;
	throw serviceError(
		"worker_id_leased",
		`worker ID ${workerId} is leased to holders (LEASE_WORKER_IDS = ${config.leaseWorkerIds}), which issue its IDs themselves; ask the auto route, or a worker ID outside LEASE_WORKER_IDS`,
	);
}

/** The segments that may follow `/leases/:workerId/`: the routes' own words. */
const LEASE_ACTIONS = new Set(["renew", "release"]);

/**
 * A path as an error message may show it: on `/leases/:workerId/…` a segment after
 * the worker ID other than `renew` or `release` may be a leaseId (a client of 0.2.0
 * put it there, or a mistyped one), so it is written `:leaseId`.
 */
export function redactedPath(path: string): string {
	const parts = path.split("/");
	if (parts[1] !== "leases" || parts.length < 4) return path;
	if (!LEASE_ACTIONS.has(parts[3] as string)) parts[3] = ":leaseId";
	return parts.join("/");
}
