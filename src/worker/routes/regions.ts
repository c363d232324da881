import { Hono } from "hono";
import { greatCircleKm, HINT_POINTS } from "../../ids/regions";
import type { AppEnv } from "../app-env";
import { configFrom } from "../config";
import { autoSetFor, callerPoint } from "../placement";

/**
 * `GET /regions`: which worker IDs this deployment owns, where AUTO_REGIONS
 * places them, and which region (and worker IDs) an auto request from this
 * caller would use. Distances are to each hint's fixed point, in whole km.
 */
export const regionRoutes = new Hono<AppEnv>().get("/regions", (c) => {
	const config = configFrom(c.env);
	const cf = c.req.raw.cf;
	const caller = callerPoint(cf) ?? null;
	const auto = autoSetFor(config, cf);
	return c.json(
		{
			workerIds: config.workerIds.toString(),
			autoWorkerIds: config.autoWorkerIds.toString(),
			regions: config.regions.regions.map(({ hint, workerIds }) => ({
				hint,
				workerIds: workerIds.toString(),
				point: HINT_POINTS[hint],
				distanceKm: caller ? Math.round(greatCircleKm(caller, HINT_POINTS[hint])) : null,
			})),
			request: { location: caller, region: auto.region, workerIds: auto.workerIds.toString() },
		},
		200,
		{ "Cache-Control": "no-store" },
	);
});
