/**
 * Worker-ID leases over HTTP: acquire (201), renew (200), release (204) and status
 * (200), each one request to the worker ID's object (an acquire without a worker ID
 * probes a few). Each reads its contract (../../contracts/leases.ts). The leaseId, a
 * bearer capability, travels in JSON bodies only: `POST /leases/600/renew` with
 * `{"leaseId": "…"}`. URLs land in request logs, Workers Logs and proxies; bodies do
 * not. The 0.2.0 forms, which put it in the path, answer `410 lease_route_moved`
 * naming these routes, and the request log writes their route pattern, never the path.
 */

import { leaseRouteMoved } from "../../contracts/lease-refusals";
import { leaseOperations } from "../../on-first-use";
import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";
import { http } from "../http-inputs";
import { rateLimitKey } from "../middleware/rate-limit";
import { noteRequest } from "../middleware/request-log";
import { readRequest } from "../read-request";
import { noteAsked } from "../respond";

const NO_STORE = { "Cache-Control": "no-store" } as const;

/** A 0.2.0 route that took the leaseId in its path: refused before anything is read. */
const moved = () => {
	throw leaseRouteMoved();
};

export const leaseRoutes = routeGroup<AppEnv>()
	.post("/leases", readRequest(http.acquire), async (c) => {
		const body = c.req.valid("json");
		noteAsked(c, { kind: "lease", workerId: body.workerId });
		const operations = await leaseOperations();
		const { grant, probes } = await operations.acquireLease(
			c.env,
			c.var.config,
			body,
			await rateLimitKey(c),
		);
		noteRequest(c, { workerId: grant.workerId, probes });
		return c.json(grant, 201, NO_STORE);
	})
	.post("/leases/:workerId/renew", readRequest(http.renew), async (c) => {
		const lease = c.req.valid("json");
		noteAsked(c, { kind: "lease", workerId: lease.workerId });
		const renewed = await (await leaseOperations()).renewLease(c.env, c.var.config, lease);
		return c.json(renewed, 200, NO_STORE);
	})
	.post("/leases/:workerId/release", readRequest(http.release), async (c) => {
		const lease = c.req.valid("json");
		noteAsked(c, { kind: "lease", workerId: lease.workerId });
		await (await leaseOperations()).releaseLease(c.env, c.var.config, lease);
		return c.body(null, 204, NO_STORE);
	})
	.post("/leases/:workerId/:leaseId/renew", moved)
	.delete("/leases/:workerId/:leaseId", moved)
	.get("/leases/:workerId", readRequest(http.leaseStatus), async (c) => {
		const { workerId } = c.req.valid("json");
		noteAsked(c, { kind: "lease-status", workerId });
		return c.json(
			await (await leaseOperations()).leaseStatus(c.env, c.var.config, { workerId }),
			200,
			NO_STORE,
		);
	});
