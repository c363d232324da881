/**
 * The HTTP client's worker-ID lease calls (`/leases`), the same as the IdService
 * RPC methods of `LeaseRpc`. `createLeasedGenerator` (leased-generator.ts) drives
 * them; a holder in another language calls the same routes (docs/LEASES.md).
 *
 * Retries: all four are retried like every call of the client (429, 502-504,
 * network failures), and each is safe to repeat. A retried acquire whose first
 * attempt reached the service leases a worker ID to nobody: it is wasted until its
 * span and grace pass, and no ID is ever issued twice. A retried renewal extends
 * again; a retried release answers 204 again. The leaseId, a bearer capability,
 * travels in request bodies only, never in a URL (which logs and proxies record).
 */

import { IdError } from "../ids/errors";
import type { AcquireLeaseOptions, LeaseGrant, LeaseRef, LeaseState } from "../wire";
import { checkLeaseId } from "../worker/contracts/leases";
import type { CallOptions, ServiceRequest } from "./call-options";
import { IdsError } from "./errors";
import { workerSegment } from "./path-segments";

/** The lease methods of `idsClient`, over its `request`. */
export function leaseCalls(request: ServiceRequest) {
	return {
		/**
		 * A span of a worker ID of LEASE_WORKER_IDS (`POST /leases`): the one named, or
		 * a free one the service picks. Refused with `leases_disabled`,
		 * `no_free_worker_id` (with `retryAfter`) or `invalid_worker_id`.
		 */
		async acquireLease({ holder, workerId }: AcquireLeaseOptions = {}, call?: CallOptions) {
			const body = {
				...(holder === undefined ? {} : { holder }),
				...(workerId === undefined ? {} : { workerId }),
			};
			return request<LeaseGrant>("POST", "/leases", {}, body, call);
		},
		/** The lease's span moved on (`POST /leases/:workerId/renew`, the leaseId in the body); `lease_lost` once released or replaced. */
		async renewLease(lease: LeaseRef, call?: CallOptions) {
			return request<LeaseGrant>("POST", leasePath(lease, "renew"), {}, leaseBody(lease), call);
		},
		/** Frees the worker ID at once (`POST /leases/:workerId/release`, the leaseId in the body); the span's tail is never reissued. */
		async releaseLease(lease: LeaseRef, call?: CallOptions): Promise<void> {
			await request<undefined>("POST", leasePath(lease, "release"), {}, leaseBody(lease), call);
		},
		/** The worker ID's lease state (`GET /leases/:workerId`): held, grace or free; never the leaseId. */
		async leaseStatus(workerId: number, call?: CallOptions) {
			return request<LeaseState>("GET", `/leases/${workerSegment(workerId)}`, {}, undefined, call);
		},
	};
}

/** `/leases/:workerId/renew` or `/release`: the worker ID is the only part of the lease in the URL. */
function leasePath(lease: LeaseRef, action: "renew" | "release"): string {
	return `/leases/${workerSegment(lease?.workerId)}/${action}`;
}

/**
 * The body that carries the capability, `{"leaseId": …}`, checked first by the
 * service's own contract (src/worker/contracts/leases.ts): a malformed leaseId is
 * `invalid_lease_id` in the service's words, before any request, never quoted.
 */
function leaseBody(lease: LeaseRef): { leaseId: string } {
	try {
		return { leaseId: checkLeaseId(lease?.leaseId) };
	} catch (error) {
		if (error instanceof IdError)
			throw new IdsError("invalid_lease_id", error.detail, 400, undefined);
		throw error;
	}
}
