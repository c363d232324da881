/**
 * Worker-ID leases over HTTP: acquire (201), renew (200), release (204) and status
 * (200), each one request to the worker ID's object (an acquire without a worker ID
 * probes a few). The leaseId travels in the path of renew and release; the request
 * log writes the route pattern (`/leases/:workerId/:leaseId/renew`), never the path,
 * and no error message quotes it.
 */
import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";
import { acquireLeaseBody, noFieldsBody, validateBody } from "../json-body";
import { leaseWorkerIdsOf } from "../lease-input";
import { noteRequest } from "../middleware/request-log";
import { leaseOperations } from "../on-first-use";
import { noteAsked } from "../respond";
import { leaseParams, leaseWorkerIdParam, validate } from "../validation";

const NO_STORE = { "Cache-Control": "no-store" } as const;

/** `409 leases_disabled` before anything else is read, when LEASE_WORKER_IDS is unset. */
const leasesOn = async (c: Context<AppEnv>, next: () => Promise<void>) => {
	leaseWorkerIdsOf(c.var.config);
	await next();
};

export const leaseRoutes = routeGroup<AppEnv>()
	.post("/leases", leasesOn, validateBody(acquireLeaseBody), async (c) => {
		const body = c.req.valid("json");
		noteAsked(c, { kind: "lease", workerId: body.workerId });
		const { grant, probes } = await (await leaseOperations()).acquireLease(c.env, c.var.config, {
			...body,
			via: "rpc",
		});
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
			return c.json(
				await (await leaseOperations()).renewLease(c.env, c.var.config, params),
				200,
				NO_STORE,
			);
		},
	)
	.delete("/leases/:workerId/:leaseId", leasesOn, validate("param", leaseParams), async (c) => {
		const params = c.req.valid("param");
		noteAsked(c, { kind: "lease", workerId: params.workerId });
		await (await leaseOperations()).releaseLease(c.env, c.var.config, params);
		return c.body(null, 204, NO_STORE);
	})
	.get("/leases/:workerId", leasesOn, validate("param", leaseWorkerIdParam), async (c) => {
		const { workerId } = c.req.valid("param");
		noteAsked(c, { kind: "lease-status", workerId });
		return c.json(
			await (await leaseOperations()).leaseStatus(c.env, c.var.config, { workerId }),
			200,
			NO_STORE,
		);
	});
