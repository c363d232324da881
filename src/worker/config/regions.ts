/**
 * Regions: Cloudflare Durable Object location hints, each with the worker IDs
 * placed there, and the choice of the region nearest to a caller. No I/O and no
 * Workers APIs: the Worker passes in `request.cf`'s latitude and longitude.
 *
 *   const regions = RegionMap.parse("wnam:0-7 enam:8-15 weur:16-23 apac:24-31", 1023);
 *   regions.nearest({ latitude: 48.86, longitude: 2.35 })?.hint;   // "weur" (a caller in Paris)
 *   regions.hintOf(9);                                              // "enam"
 */

import { IdError } from "../../ids/errors";
import { WorkerIdSet } from "../../ids/pools/worker-id-set";
import type { GeoPoint, LocationHint } from "../../wire";

/** Cloudflare's location hints, in the order its documentation lists them. */
export const LOCATION_HINTS = [
	"wnam",
	"enam",
	"sam",
	"weur",
	"eeur",
	"apac",
	"oc",
	"afr",
	"me",
] as const satisfies readonly LocationHint[];

/**
 * The fixed point distances to a hint are measured from: a large Cloudflare
 * data-center city inside the hint's area, where objects with that hint are
 * expected to run. Cloudflare publishes the areas, not points; the choice only
 * matters for callers roughly equidistant from two configured regions.
 */
export const HINT_POINTS: Readonly<Record<LocationHint, GeoPoint & { place: string }>> = {
	wnam: { latitude: 37.34, longitude: -121.89, place: "San Jose, US" },
	enam: { latitude: 39.04, longitude: -77.49, place: "Ashburn, US" },
	sam: { latitude: -23.55, longitude: -46.63, place: "São Paulo, BR" },
	weur: { latitude: 52.37, longitude: 4.9, place: "Amsterdam, NL" },
	eeur: { latitude: 52.23, longitude: 21.01, place: "Warsaw, PL" },
	apac: { latitude: 1.35, longitude: 103.82, place: "Singapore, SG" },
	oc: { latitude: -33.87, longitude: 151.21, place: "Sydney, AU" },
	afr: { latitude: -26.2, longitude: 28.05, place: "Johannesburg, ZA" },
	me: { latitude: 25.2, longitude: 55.27, place: "Dubai, AE" },
};

export function isLocationHint(text: string): text is LocationHint {
	return (LOCATION_HINTS as readonly string[]).includes(text);
}

/** The Earth's mean radius (IUGG), in km. */
const EARTH_RADIUS_KM = 6371.0088;
const RADIANS = Math.PI / 180;

/**
 * Great-circle distance in km (haversine formula, spherical Earth: within 0.5%
 * of the ellipsoid, far below what separates two regions). Longitudes wrap, so
 * 179.9° and -179.9° are 22 km apart, not a world apart.
 */
export function greatCircleKm(a: GeoPoint, b: GeoPoint): number {
	const dLat = (b.latitude - a.latitude) * RADIANS;
	const dLon = (b.longitude - a.longitude) * RADIANS;
	const h =
		Math.sin(dLat / 2) ** 2 +
		Math.cos(a.latitude * RADIANS) * Math.cos(b.latitude * RADIANS) * Math.sin(dLon / 2) ** 2;
	return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * A point from untrusted input (`request.cf` gives decimal strings such as
 * "30.27130"); undefined unless both coordinates are finite numbers in range.
 */
export function geoPointOf(latitude: unknown, longitude: unknown): GeoPoint | undefined {
	const lat = coordinate(latitude);
	const lon = coordinate(longitude);
	if (lat === undefined || lon === undefined) return undefined;
	if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return undefined;
	return { latitude: lat, longitude: lon };
}

function coordinate(value: unknown): number | undefined {
	if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
	if (typeof value !== "string" || !/^\s*[-+]?[0-9]+(\.[0-9]+)?\s*$/.test(value)) return undefined;
	return Number(value);
}

export interface Region {
	readonly hint: LocationHint;
	readonly workerIds: WorkerIdSet;
}

/**
 * Distances this close count as equal, and the region listed first wins: the
 * choice never flips on floating-point noise, and a tie is decided by the config.
 */
export const TIE_KM = 1;

/** One entry: a hint, a colon, a worker-ID set; entries are separated by spaces. */
const ENTRY_START = /\s*([A-Za-z0-9_]+)\s*:\s*/;

export class RegionMap {
	/** In the order the config lists them (which decides ties). */
	readonly regions: readonly Region[];

	/**
	 * Throws `invalid_config` naming `name` when a hint appears twice, a set is
	 * empty or two sets share a worker ID.
	 */
	constructor(regions: readonly Region[], name = "AUTO_REGIONS") {
		regions.forEach((region, index) => {
			if (region.workerIds.size === 0) {
				throw new IdError("invalid_config", `${name}: region ${region.hint} has no worker IDs`);
			}
			for (const earlier of regions.slice(0, index)) {
				if (earlier.hint === region.hint) {
					throw new IdError(
						"invalid_config",
						`${name} names ${region.hint} twice; give one hint all its ranges, such as "${region.hint}:0-7,32-39"`,
					);
				}
				const shared = earlier.workerIds.intersect(region.workerIds);
				if (shared.size > 0) {
					throw new IdError(
						"invalid_config",
						`${name}: regions ${earlier.hint} and ${region.hint} share worker IDs ${shared}; a worker ID belongs to one region`,
					);
				}
			}
		});
		this.regions = regions;
	}

	/** No regions: every auto request uses AUTO_WORKER_IDS. */
	static readonly NONE = new RegionMap([]);

	/**
	 * Reads `"wnam:0-7 enam:8-15,40-47 weur:16-23"`: a location hint, a colon and
	 * worker IDs (as `WorkerIdSet.parse` reads them), entries separated by spaces.
	 * Empty text is no regions. Throws `invalid_config` naming `name` (and never
	 * echoing the text) when the text is malformed, names an unknown hint, or a
	 * set holds a worker ID above `maxWorkerId`.
	 */
	static parse(text: string, maxWorkerId: number, name = "AUTO_REGIONS"): RegionMap {
		if (text.trim() === "") return RegionMap.NONE;
		const malformed = () =>
			new IdError(
				"invalid_config",
				`${name} must be location hints with worker IDs, such as "wnam:0-7 enam:8-15 weur:16-23"; hints are ${LOCATION_HINTS.join(", ")}`,
			);
		// ["", hint, set, hint, set, …]: the captured hints split the text.
		const parts = text.trim().split(ENTRY_START);
		if (parts.length < 3 || parts[0] !== "") throw malformed();
		const regions: Region[] = [];
		for (let i = 1; i < parts.length; i += 2) {
			const hint = parts[i] as string;
			const ids = (parts[i + 1] as string).trim();
			if (!isLocationHint(hint)) {
				throw new IdError(
					"invalid_config",
					`${name}: entry ${(i + 1) / 2} names an unknown location hint; use one of ${LOCATION_HINTS.join(", ")} (lowercase)`,
				);
			}
			if (ids === "") throw malformed();
			regions.push({ hint, workerIds: WorkerIdSet.parse(ids, maxWorkerId, `${name} (${hint})`) });
		}
		return new RegionMap(regions, name);
	}

	get size(): number {
		return this.regions.length;
	}

	/** The region whose worker IDs include `workerId`, if any. */
	regionOf(workerId: number): Region | undefined {
		return this.regions.find((region) => region.workerIds.has(workerId));
	}

	/** The hint an object for `workerId` is created with, if its worker ID is in a region. */
	hintOf(workerId: number): LocationHint | undefined {
		return this.regionOf(workerId)?.hint;
	}

	/**
	 * The configured region whose hint's point is nearest to `point` by great-circle
	 * distance (ties within TIE_KM go to the region listed first); undefined when
	 * no region is configured.
	 */
	nearest(point: GeoPoint): Region | undefined {
		let best: Region | undefined;
		let bestKm = Number.POSITIVE_INFINITY;
		for (const region of this.regions) {
			const km = greatCircleKm(point, HINT_POINTS[region.hint]);
			if (km < bestKm - TIE_KM) {
				best = region;
				bestKm = km;
			}
		}
		return best;
	}

	/** The canonical text, `"wnam:0-7 enam:8-15"`; `parse` reads it back. */
	toString(): string {
		return this.regions.map(({ hint, workerIds }) => `${hint}:${workerIds}`).join(" ");
	}
}
