/**
 * Where worker IDs live and which ones an auto request draws from: AUTO_REGIONS
 * applied to a request's `cf` location. Pure functions of the config, so a
 * per-set pool can key on the set `autoSetFor` returns.
 */

import type { WorkerIdSet } from "../../ids/pools/worker-id-set";
import type { GeoPoint, LocationHint } from "../../wire";
import type { Config } from "./config";
import { geoPointOf } from "./regions";

/**
 * `request.cf` as the runtime gives it (absent over RPC and in some local runs);
 * placement reads its `latitude` and `longitude` (decimal strings in production).
 */
export type CallerCf = object | null | undefined;

export interface AutoSet {
	/** The configured region used, or null when none applies (no regions, or no location). */
	region: LocationHint | null;
	/** The worker IDs an auto request picks from. */
	workerIds: WorkerIdSet;
}

/** The caller's location from `request.cf`, if it carries a usable one. */
export function callerPoint(cf: CallerCf): GeoPoint | undefined {
	if (!cf) return undefined;
	const { latitude, longitude } = cf as { latitude?: unknown; longitude?: unknown };
	return geoPointOf(latitude, longitude);
}

/**
 * The worker IDs an auto request from `cf` draws from: the configured region
 * nearest to the caller, or AUTO_WORKER_IDS without regions or a location.
 */
export function autoSetFor(config: Config, cf: CallerCf): AutoSet {
	const point = config.regions.size > 0 ? callerPoint(cf) : undefined;
	const region = point && config.regions.nearest(point);
	return region
		? { region: region.hint, workerIds: region.workerIds }
		: { region: null, workerIds: config.autoWorkerIds };
}

/**
 * The `get()` options for a worker ID's object: its region's location hint, so
 * the object is created there whichever route touches it first. The hint only
 * acts on creation; an existing object stays where it is.
 */
export function placementFor(
	config: Config,
	workerId: number,
): { locationHint: LocationHint } | undefined {
	const locationHint = config.regions.hintOf(workerId);
	return locationHint ? { locationHint } : undefined;
}
