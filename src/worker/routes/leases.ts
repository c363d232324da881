/**
 * Worker-ID leases over HTTP: acquire (201), renew (200), release (204) and status
 * (200), each one request to the worker ID's object (an acquire without a worker ID
 * probes a few). The leaseId travels in the path of renew and release; the request
 * log writes the route pattern (`/leases/:workerId/:leaseId/renew`), never the path,
 * and no error message quotes it.
 */
import { type Context, Hono } from "hono";
import type { AppEnv } from "../app-env";
import { acquireLeaseBody, noFieldsBody, validateBody } from "../json-body";
import { leaseWorkerIdsOf } from "../lease-input";
import { acquireLease, leaseStatus, releaseLease, renewLease } from "../lease-operations";
import { noteRequest } from "../middleware/request-log";
import { operation } from "../openapi/operation";
import { noteAsked } from "../respond";
import { leaseParams, leaseWorkerIdParam, validate } from "../validation";

const NO_STORE = { "Cache-Control": "no-store" } as const;

/** `409 leases_disabled` before anything else is read, when LEASE_WORKER_IDS is unset. */
const leasesOn = async (c: Context<AppEnv>, next: () => Promise<void>) => {
	leaseWorkerIdsOf(c.var.config);
	await next();
};

export const leaseRoutes = new Hono<AppEnv>()
	.post("/leases", leasesOn, validateBody(acquireLeaseBody), async (c) => {
		const body = c.req.valid("json");
		noteAsked(c, { kind: "lease", workerId: body.workerId });
		const { grant, probes } = await acquireLease(c.env, c.var.config, { ...body, via: "rpc" });
		noteRequest(c, { workerId: grant.workerId, probes });
		return c.json(grant, 201, NO_STORE);
	})
	.post(
		"/leases/:workerId/:leaseId/renew",
		leasesOn,
		validate("param", leaseParams),
		validateBody(noFieldsBody),
		async (c) => {
			const params = c.req.valid("param");
			noteAsked(c, { kind: "lease", workerId: params.workerId });
			return c.json(await renewLease(c.env, c.var.config, params), 200, NO_STORE);
		},
	)
	.delete("/leases/:workerId/:leaseId", leasesOn, validate("param", leaseParams), async (c) => {
		const params = c.req.valid("param");
		noteAsked(c, { kind: "lease", workerId: params.workerId });
		await releaseLease(c.env, c.var.config, params);
		return c.body(null, 204, NO_STORE);
	})
	.get("/leases/:workerId", leasesOn, validate("param", leaseWorkerIdParam), async (c) => {
		const { workerId } = c.req.valid("param");
		noteAsked(c, { kind: "lease-status", workerId });
		return c.json(await leaseStatus(c.env, c.var.config, { workerId }), 200, NO_STORE);
	});

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
		body: acquireLeaseBody,
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
		params: leaseParams,
		body: noFieldsBody,
		ok: "leaseGrantSchema",
	}),
	operation({
		...leaseOf,
		method: "delete",
		path: "/leases/{workerId}/{leaseId}",
		summary: "Release a lease: the worker ID is free at once",
		description:
			"The span's unused ticks are never issued again. Releasing a released lease again answers 204 too; another lease's leaseId is 409 `lease_lost`.",
		params: leaseParams,
		noContent: true,
	}),
	operation({
		...leaseOf,
		method: "get",
		path: "/leases/{workerId}",
		summary: "A worker ID's lease state: held, grace or free, its holder label and span",
		description: "Never shows the leaseId.",
		params: leaseWorkerIdParam,
		ok: "leaseStateSchema",
	}),
];
