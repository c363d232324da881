/**
 * What leases mean for the other routes: the named and blocks routes refuse a leased
 * worker ID, and a log line or error never shows a leaseId from a path. (What a lease
 * request itself must be is its contract, ./contracts/leases.ts.)
 *
 *   refuseLeased(config, 600); // throws worker_id_leased when 600 is of LEASE_WORKER_IDS
 */
import type { Config } from "./config";
import { serviceError } from "./errors";

/** `409 worker_id_leased` for a named or blocks request of a leased worker ID. */
export function refuseLeased(config: Config, workerId: number): number {
	if (!config.leaseWorkerIds?.has(workerId)) return workerId;
	throw serviceError(
		"worker_id_leased",
		`worker ID ${workerId} is leased to holders (LEASE_WORKER_IDS = ${config.leaseWorkerIds}), which issue its IDs themselves; ask the auto route, or a worker ID outside LEASE_WORKER_IDS`,
	);
}

/**
 * A path as an error message may show it: on `/leases/:workerId/…` the segment after
 * the worker ID is a leaseId (or a mistyped one), so it is written `:leaseId`.
 */
export function redactedPath(path: string): string {
	const parts = path.split("/");
	if (parts[1] !== "leases" || parts.length < 4) return path;
	parts[3] = ":leaseId";
	return parts.join("/");
}
