/**
 * Worker-ID leases over HTTP: acquire (201), renew (200), release (204) and status
 * (200), each one request to the worker ID's object (an acquire without a worker ID
 * probes a few). Each reads its contract (../contracts/leases.ts). The leaseId travels
 * in the path of these renew and release routes; the request log writes the route
 * pattern (`/leases/:workerId/:leaseId/renew`), never the path, and no error message
 * quotes it.
 */
import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";
import { http } from "../http-inputs";
import { noteRequest } from "../middleware/request-log";
import { leaseOperations } from "../on-first-use";
import { readRequest } from "../read-request";
import { noteAsked } from "../respond";

const NO_STORE = { "Cache-Control": "no-store" } as const;

export const leaseRoutes = routeGroup<AppEnv>()
	.post("/leases", readRequest(http.acquire), async (c) => {
		const body = c.req.valid("json");
		noteAsked(c, { kind: "lease", workerId: body.workerId });
		const { grant, probes } = await (await leaseOperations()).acquireLease(
			c.env,
			c.var.config,
			body,
		);
		noteRequest(c, { workerId: grant.workerId, probes });
		return c.json(grant, 201, NO_STORE);
	})
	.post("/leases/:workerId/:leaseId/renew", readRequest(http.renewInPath), async (c) => {
		const params = c.req.valid("json");
		noteAsked(c, { kind: "lease", workerId: params.workerId });
		return c.json(
			await (await leaseOperations()).renewLease(c.env, c.var.config, params),
			200,
			NO_STORE,
		);
	})
	.delete("/leases/:workerId/:leaseId", readRequest(http.releaseInPath), async (c) => {
		const params = c.req.valid("json");
		noteAsked(c, { kind: "lease", workerId: params.workerId });
		await (await leaseOperations()).releaseLease(c.env, c.var.config, params);
		return c.body(null, 204, NO_STORE);
	})
	.get("/leases/:workerId", readRequest(http.leaseStatus), async (c) => {
		const { workerId } = c.req.valid("json");
		noteAsked(c, { kind: "lease-status", workerId });
		return c.json(
			await (await leaseOperations()).leaseStatus(c.env, c.var.config, { workerId }),
			200,
			NO_STORE,
		);
	});
