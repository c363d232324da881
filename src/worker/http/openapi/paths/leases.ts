/** The OpenAPI operations of ../../routes/leases.ts (read by ../document.ts only, never by the Worker). */
import { http } from "../../http-inputs";
import { operation } from "../operation";

const tag = "Leases";
const leaseOf = { tag, objects: true, conflicts: true } as const;

export const leaseOperations = [
	operation({
		...leaseOf,
		method: "post",
		path: "/leases",
		summary: "Acquire a worker ID for a Snowflake generator of your own: a span of ticks",
		description:
			"Grants a span `[from, to)` of ticks of a worker ID of LEASE_WORKER_IDS (the one named, or a free one the service picks): only its holder may issue IDs of that worker ID with those ticks. Renew it every third of a span; keep the leaseId secret. 409 `no_free_worker_id` (with Retry-After) when none is free, `leases_disabled` when LEASE_WORKER_IDS is unset; 429 `rate_limited` (with Retry-After) past the caller's LEASE_ACQUIRE_LIMIT acquires a minute.",
		input: http.acquire,
		ok: "leaseGrantSchema",
		created: true,
	}),
	operation({
		...leaseOf,
		method: "post",
		path: "/leases/{workerId}/renew",
		summary: "Renew a lease: its span's end moves to at least a span past the object's clock",
		description:
			"The leaseId travels in the JSON body, never in the URL. Granted even after `to`, as long as nobody took the worker ID since. 409 `lease_lost` when the lease was released or taken over: acquire a new one.",
		input: http.renew,
		ok: "leaseGrantSchema",
	}),
	operation({
		...leaseOf,
		method: "post",
		path: "/leases/{workerId}/release",
		summary: "Release a lease: the worker ID is free at once",
		description:
			"The leaseId travels in the JSON body, never in the URL. The span's unused ticks are never issued again. Releasing a released lease again answers 204 too; another lease's leaseId is 409 `lease_lost`.",
		input: http.release,
		noContent: true,
	}),
	operation({
		tag,
		method: "post",
		path: "/leases/{workerId}/{leaseId}/renew",
		summary: "Removed (0.2.0's renew, the leaseId in the URL): use POST /leases/{workerId}/renew",
		gone: "lease_route_moved",
	}),
	operation({
		tag,
		method: "delete",
		path: "/leases/{workerId}/{leaseId}",
		summary:
			"Removed (0.2.0's release, the leaseId in the URL): use POST /leases/{workerId}/release",
		gone: "lease_route_moved",
	}),
	operation({
		...leaseOf,
		method: "get",
		path: "/leases/{workerId}",
		summary: "A worker ID's lease state: held, grace or free, its holder label and span",
		description: "Never shows the leaseId.",
		input: http.leaseStatus,
		ok: "leaseStateSchema",
	}),
];
