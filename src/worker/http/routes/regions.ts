import type { RegionsInfo } from "../../../wire";
import type { Config } from "../../config/config";
import { autoSetFor, type CallerCf, callerPoint } from "../../config/placement";
import { greatCircleKm, HINT_POINTS } from "../../config/regions";
import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";

/**
 * Which worker IDs this deployment owns, which it lends to lease holders ("" with
 * leases off: the monitor asks no lease route then), where AUTO_REGIONS places them,
 * and which region (and worker IDs) an auto request from this caller would use.
 * Distances are to each hint's fixed point, in whole km (null without a location).
 */
export function regionsInfo(config: Config, cf: CallerCf): RegionsInfo {
	const caller = callerPoint(cf) ?? null;
	const auto = autoSetFor(config, cf);
	return {
		workerIds: config.workerIds.toString(),
		autoWorkerIds: config.autoWorkerIds.toString(),
		leaseWorkerIds: config.leaseWorkerIds?.toString() ?? "",
		regions: config.regions.regions.map(({ hint, workerIds }) => ({
			hint,
			workerIds: workerIds.toString(),
			point: HINT_POINTS[hint],
			distanceKm: caller ? Math.round(greatCircleKm(caller, HINT_POINTS[hint])) : null,
		})),
		request: { location: caller, region: auto.region, workerIds: auto.workerIds.toString() },
	};
}

export type { RegionsInfo };

/** `GET /regions`: the answer depends on the caller, so it is never cached. */
export const regionRoutes = routeGroup<AppEnv>().get("/regions", (c) =>
	c.json(regionsInfo(c.var.config, c.req.raw.cf), 200, { "Cache-Control": "no-store" }),
);
