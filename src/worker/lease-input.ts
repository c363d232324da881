/**
 * What a lease request must be, one module behind both transports (as ./rules.ts
 * is for IDs): leases turned on, a worker ID of LEASE_WORKER_IDS, a well-formed
 * leaseId, a holder label; and the refusal of the named and blocks routes for a
 * leased worker ID. A refusal never quotes a leaseId (it may be a real one, mistyped).
 */
import { describeValue } from "../ids/errors";
import type { WorkerIdSet } from "../ids/worker-id-set";
import type { Config } from "./config";
import { type ServiceError, serviceError } from "./errors";
import { LEASE_ID_PATTERN } from "./lease-secret";
import type { Via } from "./rules";

/** LEASE_WORKER_IDS, or `409 leases_disabled` naming the setting when it is unset. */
export function leaseWorkerIdsOf(config: Config): WorkerIdSet {
	if (config.leaseWorkerIds) return config.leaseWorkerIds;
	throw serviceError(
		"leases_disabled",
		'worker-ID leases are off in this deployment: set LEASE_WORKER_IDS to worker IDs of WORKER_IDS outside AUTO_WORKER_IDS and AUTO_REGIONS (such as "512-1023") to turn them on',
	);
}

/**
 * A worker ID of LEASE_WORKER_IDS, else `invalid_worker_id` naming the set. `via`
 * words it: "rpc" for JavaScript and JSON values, "http" for text in a path.
 */
export function checkLeaseWorkerId(config: Config, workerId: unknown, via: Via = "http"): number {
	const leased = leaseWorkerIdsOf(config);
	if (typeof workerId === "number" && Number.isInteger(workerId) && leased.has(workerId)) {
		return workerId;
	}
	throw invalidLeaseWorkerId(config, workerId, via);
}

/** `invalid_worker_id` for a lease request, naming LEASE_WORKER_IDS. */
export function invalidLeaseWorkerId(
	config: Config,
	got: unknown,
	via: Via = "http",
): ServiceError {
	const leased = leaseWorkerIdsOf(config);
	const kind = via === "rpc" && typeof got !== "number" ? "a number, " : "";
	const spelling = via === "http" ? ", written in decimal digits" : "";
	return serviceError(
		"invalid_worker_id",
		`workerId must be ${kind}one of the worker IDs leased to holders, LEASE_WORKER_IDS = ${leased}${spelling}; got ${describeValue(got)}`,
	);
}

/** The longest holder label. */
export const MAX_HOLDER_LENGTH = 128;
/** Printable: no control, format, unassigned or private-use characters, no lone surrogates. */
const PRINTABLE = /^[^\p{C}]+$/u;

/** A holder label (1-128 printable characters), or null when none is given. */
export function checkHolder(holder: unknown): string | null {
	if (holder === undefined) return null;
	if (
		typeof holder === "string" &&
		[...holder].length <= MAX_HOLDER_LENGTH &&
		PRINTABLE.test(holder)
	) {
		return holder;
	}
	throw invalidHolder(holder);
}

/** `invalid_holder`, describing what was sent without echoing it. */
export function invalidHolder(holder: unknown): ServiceError {
	const length = typeof holder === "string" ? [...holder].length : 0;
	const got =
		typeof holder !== "string"
			? `a ${holder === null ? "null" : typeof holder}`
			: length === 0
				? "an empty string"
				: length > MAX_HOLDER_LENGTH
					? `a string of ${length} characters`
					: "a string with control or other unprintable characters";
	return serviceError(
		"invalid_holder",
		`holder must be a label of 1-${MAX_HOLDER_LENGTH} printable characters, such as a pod name (or no holder); got ${got}`,
	);
}

/**
 * A leaseId as sent, checked for its form only (a well-formed one that is not the
 * worker ID's lease is the object's `lease_lost`). Described by its length, never its text.
 */
export function checkLeaseId(leaseId: unknown): string {
	if (typeof leaseId === "string" && LEASE_ID_PATTERN.test(leaseId)) return leaseId;
	throw invalidLeaseId(leaseId);
}

/** `invalid_lease_id`, describing what was sent by its kind and length, never its text. */
export function invalidLeaseId(leaseId: unknown): ServiceError {
	const got =
		leaseId === undefined
			? "no leaseId"
			: typeof leaseId !== "string"
				? `a ${leaseId === null ? "null" : typeof leaseId}`
				: /^[A-Za-z0-9_-]*$/.test(leaseId)
					? `a text of ${leaseId.length} characters`
					: `a text of ${leaseId.length} characters, some outside A-Z a-z 0-9 _ -`;
	return serviceError(
		"invalid_lease_id",
		`leaseId must be the 32 characters (A-Z a-z 0-9 _ -) that acquireLease answered; got ${got}`,
	);
}

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
