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
			"Grants a span `[from, to)` of ticks of a worker ID of LEASE_WORKER_IDS (the one named, or a free one the service picks): only its holder may issue IDs of that worker ID with those ticks. Renew it every third of a span; keep the leaseId secret. 409 `no_free_worker_id` (with Retry-After) when none is free, `leases_disabled` when LEASE_WORKER_IDS is unset.",
		input: http.acquire,
		ok: "leaseGrantSchema",
		created: true,
	}),
	operation({
		...leaseOf,
		method: "post",
		path: "/leases/{workerId}/{leaseId}/renew",
		summary: "Renew a lease: its span's end moves to at least a span past the object's clock",
		description:
			"Granted even after `to`, as long as nobody took the worker ID since. 409 `lease_lost` when the lease was released or taken over: acquire a new one.",
		input: http.renewInPath,
		ok: "leaseGrantSchema",
	}),
	operation({
		...leaseOf,
		method: "delete",
		path: "/leases/{workerId}/{leaseId}",
		summary: "Release a lease: the worker ID is free at once",
		description:
			"The span's unused ticks are never issued again. Releasing a released lease again answers 204 too; another lease's leaseId is 409 `lease_lost`.",
		input: http.releaseInPath,
		noContent: true,
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
