/**
 * The inputs of the worker-ID lease operations: acquire, renew, release and status,
 * read by every transport (./fields.ts) and by the client before it sends a leaseId.
 * Every lease operation is refused `409 leases_disabled` first when LEASE_WORKER_IDS
 * is unset. A refusal never quotes a leaseId (it may be a real one, mistyped), nor a holder label.
 *
 *   readInput(renewContract, limits, { leaseId }, { workerId: 600 }); // { workerId: 600, leaseId }
 */
import { IdError } from "../../ids/errors";
import { contract, field, type IdSet, type Limits, NO_LIMITS, refusal } from "./fields";

/** What a leaseId looks like: 32 characters of the URL-safe base64 alphabet. */
export const LEASE_ID_PATTERN = /^[A-Za-z0-9_-]{32}$/;

/** The longest holder label. */
export const MAX_HOLDER_LENGTH = 128;
/** Printable: no control, format, unassigned or private-use characters, no lone surrogates. */
const PRINTABLE = /^[^\p{C}]+$/u;

/** LEASE_WORKER_IDS, or `409 leases_disabled` naming the setting when it is unset. */
export function leasedIds(limits: Pick<Limits, "leaseWorkerIds">): IdSet {
	if (limits.leaseWorkerIds) return limits.leaseWorkerIds;
	throw new IdError<"leases_disabled">(
		"leases_disabled",
		'worker-ID leases are off in this deployment: set LEASE_WORKER_IDS to worker IDs of WORKER_IDS outside AUTO_WORKER_IDS and AUTO_REGIONS (such as "512-1023") to turn them on',
	);
}

const leasedWorkerId = field.integer(
	"invalid_worker_id",
	"A worker ID of LEASE_WORKER_IDS",
	(limits) => `one of the worker IDs leased to holders, LEASE_WORKER_IDS = ${leasedIds(limits)}`,
	(value, limits) => leasedIds(limits).has(value),
);

/** A leaseId, described by its length, never its text. */
function shownLeaseId(value: unknown): string {
	if (typeof value !== "string") return `a ${value === null ? "null" : typeof value}`;
	return /^[A-Za-z0-9_-]*$/.test(value)
		? `a text of ${value.length} characters`
		: `a text of ${value.length} characters, some outside A-Z a-z 0-9 _ -`;
}

export const leaseIdField = field.text(
	"invalid_lease_id",
	"The leaseId the acquire answered (32 characters of A-Z a-z 0-9 _ -); keep it secret",
	"the 32 characters (A-Z a-z 0-9 _ -) that acquireLease answered",
	{ test: (text) => LEASE_ID_PATTERN.test(text), pattern: LEASE_ID_PATTERN, show: shownLeaseId },
);

/** A holder label, described without echoing it. */
function shownHolder(value: unknown): string {
	if (typeof value !== "string") return `a ${value === null ? "null" : typeof value}`;
	const length = [...value].length;
	if (length === 0) return "an empty string";
	if (length > MAX_HOLDER_LENGTH) return `a string of ${length} characters`;
	return "a string with control or other unprintable characters";
}

const holder = field
	.text(
		"invalid_holder",
		"A label shown by the lease's status, such as a pod name: 1-128 printable characters",
		`a label of 1-${MAX_HOLDER_LENGTH} printable characters, such as a pod name (or no holder)`,
		{
			test: (text) => [...text].length <= MAX_HOLDER_LENGTH && PRINTABLE.test(text),
			show: shownHolder,
		},
	)
	.orAbsent();

/** The leaseId as its contract takes it, or its refusal (the client checks before sending one). */
export function checkLeaseId(leaseId: unknown): string {
	if (leaseIdField.accepts(leaseId, NO_LIMITS)) return leaseId;
	throw refusal("leaseId", leaseIdField, NO_LIMITS, leaseId);
}

const leasesOn = (limits: Limits) => {
	leasedIds(limits);
};

export const acquireContract = contract(
	"acquireLease",
	{
		holder,
		workerId: leasedWorkerId.orAbsent(),
	},
	leasesOn,
);
/** `POST /leases/:workerId/renew` with `{"leaseId": …}`; RPC `renewLease({ workerId, leaseId })`. */
export const renewContract = contract(
	"renewLease",
	{ workerId: leasedWorkerId, leaseId: leaseIdField },
	leasesOn,
);
/** `POST /leases/:workerId/release` with `{"leaseId": …}`; RPC `releaseLease({ workerId, leaseId })`. */
export const releaseContract = contract(
	"releaseLease",
	{ workerId: leasedWorkerId, leaseId: leaseIdField },
	leasesOn,
);
export const leaseStatusContract = contract("leaseStatus", { workerId: leasedWorkerId }, leasesOn);
