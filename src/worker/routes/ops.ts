/**
 * The operations view over HTTP: the fleet's leases and counts from the catalog,
 * per-minute history (a worker ID's from its object, the fleet's from the catalog)
 * and Prometheus metrics. Each is one request to one Durable Object; every one
 * needs the token when API_TOKEN is set, like every route.
 *
 *   GET /leases                       → { leases: [{ workerId, holder, state, … }], serverNowMs }
 *   GET /stats/7/history?minutes=60   → { workerId: 7, minutes: 60, history: [{ minute, issued, … }] }
 */
import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";
import { opsOperations } from "../on-first-use";
import { noteAsked } from "../respond";
import { historyQuery, validate, workerIdParam } from "../validation";

const NO_STORE = { "Cache-Control": "no-store" } as const;

export const opsRoutes = routeGroup<AppEnv>()
	.get("/leases", async (c) => {
		noteAsked(c, { kind: "leases" });
		const { fleetLeases } = await opsOperations();
		return c.json(await fleetLeases(c.env, c.var.config), 200, NO_STORE);
	})
	.get("/stats", async (c) => {
		noteAsked(c, { kind: "fleet-stats" });
		const { fleetStats } = await opsOperations();
		return c.json(await fleetStats(c.env, c.var.config), 200, NO_STORE);
	})
	.get("/stats/history", validate("query", historyQuery), async (c) => {
		noteAsked(c, { kind: "stats-history" });
		const { statsHistory } = await opsOperations();
		return c.json(await statsHistory(c.env, c.var.config, c.req.valid("query")), 200, NO_STORE);
	})
	.get(
		"/stats/:workerId/history",
		validate("param", workerIdParam),
		validate("query", historyQuery),
		async (c) => {
			const { workerId } = c.req.valid("param");
			noteAsked(c, { kind: "stats-history", workerId });
			const { statsHistory } = await opsOperations();
			const input = { ...c.req.valid("query"), workerId };
			return c.json(await statsHistory(c.env, c.var.config, input), 200, NO_STORE);
		},
	)
	.get("/metrics", async (c) => {
		noteAsked(c, { kind: "metrics" });
		const { metricsText, PROMETHEUS_TYPE } = await opsOperations();
		return c.body(await metricsText(c.env, c.var.config), 200, {
			...NO_STORE,
			"Content-Type": PROMETHEUS_TYPE,
		});
	});
