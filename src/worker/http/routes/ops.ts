/**
 * The operations view over HTTP: the fleet's leases and counts from the catalog,
 * per-minute history (a worker ID's from its object, the fleet's from the catalog)
 * and Prometheus metrics. Each is one request to one Durable Object; every one
 * needs the token when API_TOKEN is set, like every route.
 *
 *   GET /leases                       → { leases: [{ workerId, holder, state, … }], serverNowMs }
 *   GET /stats?limit=100&cursor=…     → { workerIds, sequences, totals, cursor, layout, serverNowMs }
 *   GET /stats/7/history?minutes=60   → { workerId: 7, minutes: 60, history: [{ minute, issued, … }] }
 */

import { opsOperations } from "../../on-first-use";
import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";
import { http } from "../http-inputs";
import { readRequest } from "../read-request";
import { noteAsked } from "../respond";

const NO_STORE = { "Cache-Control": "no-store" } as const;

export const opsRoutes = routeGroup<AppEnv>()
	.get("/leases", readRequest(http.fleetLeases), async (c) => {
		noteAsked(c, { kind: "leases" });
		const { fleetLeases } = await opsOperations();
		return c.json(await fleetLeases(c.env, c.var.config), 200, NO_STORE);
	})
	.get("/stats", readRequest(http.fleetStats), async (c) => {
		noteAsked(c, { kind: "fleet-stats" });
		const { fleetStats } = await opsOperations();
		return c.json(await fleetStats(c.env, c.var.config, c.req.valid("json")), 200, NO_STORE);
	})
	.get("/stats/history", readRequest(http.fleetHistory), async (c) => {
		noteAsked(c, { kind: "stats-history" });
		const { statsHistory } = await opsOperations();
		return c.json(await statsHistory(c.env, c.var.config, c.req.valid("json")), 200, NO_STORE);
	})
	.get("/stats/:workerId/history", readRequest(http.workerIdHistory), async (c) => {
		const input = c.req.valid("json");
		noteAsked(c, { kind: "stats-history", workerId: input.workerId });
		const { statsHistory } = await opsOperations();
		return c.json(await statsHistory(c.env, c.var.config, input), 200, NO_STORE);
	})
	.get("/metrics", readRequest(http.metrics), async (c) => {
		noteAsked(c, { kind: "metrics" });
		const { metricsText, PROMETHEUS_TYPE } = await opsOperations();
		return c.body(await metricsText(c.env, c.var.config), 200, {
			...NO_STORE,
			"Content-Type": PROMETHEUS_TYPE,
		});
	});
