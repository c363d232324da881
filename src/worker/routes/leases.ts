/**
 * Worker-ID leases over HTTP: acquire (201), renew (200), release (204) and status
 * (200), each one request to the worker ID's object (an acquire without a worker ID
 * probes a few). The leaseId, a bearer capability, travels in JSON bodies only:
 * `POST /leases/600/renew` with `{"leaseId": "…"}`. URLs land in request logs,
 * Workers Logs and proxies; bodies do not. The 0.2.0 forms, which put it in the
 * path, answer `410 lease_route_moved` naming these routes, and the request log
 * writes their route pattern, never the path.
 */
import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";
import { acquireLeaseBody, leaseIdBody, validateBody } from "../json-body";
import { leaseRouteMoved, leaseWorkerIdsOf } from "../lease-input";
import { rateLimitKey } from "../middleware/rate-limit";
import { noteRequest } from "../middleware/request-log";
import { leaseOperations } from "../on-first-use";
import { noteAsked } from "../respond";
import { leaseWorkerIdParam, validate } from "../validation";

const NO_STORE = { "Cache-Control": "no-store" } as const;

/** `409 leases_disabled` before anything else is read, when LEASE_WORKER_IDS is unset. */
const leasesOn = async (c: Context<AppEnv>, next: () => Promise<void>) => {
	leaseWorkerIdsOf(c.var.config);
	await next();
};

/** What renew and release read once validated: the worker ID from the path, the leaseId from the body. */
type LeaseAskContext = Context<
	AppEnv,
	string,
	{ out: { param: { workerId: number }; json: { leaseId: string } } }
>;

/** The lease a renew or release names (its worker ID noted for the log line, never its leaseId). */
function askOf(c: LeaseAskContext): { workerId: number; leaseId: string } {
	const { workerId } = c.req.valid("param");
	noteAsked(c, { kind: "lease", workerId });
	return { workerId, leaseId: c.req.valid("json").leaseId };
}

/** A 0.2.0 route that took the leaseId in its path: refused before anything is read. */
const moved = () => {
	throw leaseRouteMoved();
};

export const leaseRoutes = routeGroup<AppEnv>()
	.post("/leases", leasesOn, validateBody(acquireLeaseBody), async (c) => {
		const body = c.req.valid("json");
		noteAsked(c, { kind: "lease", workerId: body.workerId });
		const { grant, probes } = await (await leaseOperations()).acquireLease(c.env, c.var.config, {
			...body,
			via: "rpc",
			caller: await rateLimitKey(c),
		});
		noteRequest(c, { workerId: grant.workerId, probes });
		return c.json(grant, 201, NO_STORE);
	})
	.post(
		"/leases/:workerId/renew",
		leasesOn,
		validate("param", leaseWorkerIdParam),
		validateBody(leaseIdBody),
		async (c) => {
			const renewed = await (await leaseOperations()).renewLease(c.env, c.var.config, askOf(c));
			return c.json(renewed, 200, NO_STORE);
		},
	)
	.post(
		"/leases/:workerId/release",
		leasesOn,
		validate("param", leaseWorkerIdParam),
		validateBody(leaseIdBody),
		async (c) => {
			await (await leaseOperations()).releaseLease(c.env, c.var.config, askOf(c));
			return c.body(null, 204, NO_STORE);
		},
	)
	.post("/leases/:workerId/:leaseId/renew", moved)
	.delete("/leases/:workerId/:leaseId", moved)
	.get("/leases/:workerId", leasesOn, validate("param", leaseWorkerIdParam), async (c) => {
		const { workerId } = c.req.valid("param");
		noteAsked(c, { kind: "lease-status", workerId });
		return c.json(
			await (await leaseOperations()).leaseStatus(c.env, c.var.config, { workerId }),
			200,
			NO_STORE,
		);
	});
