import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { IdError } from "../../src/ids/errors";
import type { GeoPoint, LocationHint } from "../../src/wire";
import {
	geoPointOf,
	greatCircleKm,
	HINT_POINTS,
	LOCATION_HINTS,
	RegionMap,
	TIE_KM,
} from "../../src/worker/config/regions";

const at = (latitude: number, longitude: number): GeoPoint => ({ latitude, longitude });

/** Every hint, 8 worker IDs each: wnam 0-7, enam 8-15, … me 64-71. */
const EVERY_HINT = RegionMap.parse(
	LOCATION_HINTS.map((hint, i) => `${hint}:${i * 8}-${i * 8 + 7}`).join(" "),
	1023,
);
/** The example from the docs: four regions, the rest of the world goes to the nearest. */
const FOUR = RegionMap.parse("wnam:0-7 enam:8-15 weur:16-23 apac:24-31", 1023);

/** Callers on every continent: [place, point, nearest of every hint, nearest of FOUR]. */
const CALLERS: [string, GeoPoint, LocationHint, LocationHint][] = [
	["Seattle", at(47.61, -122.33), "wnam", "wnam"],
	["Denver", at(39.74, -104.99), "wnam", "wnam"],
	["Austin", at(30.27, -97.74), "enam", "enam"],
	["New York", at(40.71, -74.01), "enam", "enam"],
	["Anchorage", at(61.22, -149.9), "wnam", "wnam"],
	["Bogotá", at(4.71, -74.07), "enam", "enam"],
	["São Paulo", at(-23.55, -46.63), "sam", "enam"],
	["Buenos Aires", at(-34.6, -58.38), "sam", "enam"],
	["London", at(51.51, -0.13), "weur", "weur"],
	["Madrid", at(40.42, -3.7), "weur", "weur"],
	["Berlin", at(52.52, 13.4), "eeur", "weur"],
	["Moscow", at(55.76, 37.62), "eeur", "weur"],
	["Tokyo", at(35.68, 139.69), "apac", "apac"],
	["Jakarta", at(-6.2, 106.85), "apac", "apac"],
	["Mumbai", at(19.08, 72.88), "me", "apac"],
	["Sydney", at(-33.87, 151.21), "oc", "apac"],
	["Auckland", at(-36.85, 174.76), "oc", "apac"],
	["Lagos", at(6.52, 3.38), "afr", "weur"],
	["Nairobi", at(-1.29, 36.82), "afr", "weur"],
	// Great-circle, not cable routes: Johannesburg is nearer Singapore than Amsterdam.
	["Johannesburg", at(-26.2, 28.05), "afr", "apac"],
	["Cairo", at(30.04, 31.24), "me", "weur"],
	["Riyadh", at(24.71, 46.68), "me", "weur"],
	["McMurdo Station", at(-77.85, 166.67), "oc", "apac"],
];

/** The point halfway along the great circle from a to b (equidistant from both). */
function midpoint(a: GeoPoint, b: GeoPoint): GeoPoint {
	const r = Math.PI / 180;
	const [p1, l1, p2, dl] = [
		a.latitude * r,
		a.longitude * r,
		b.latitude * r,
		(b.longitude - a.longitude) * r,
	];
	const bx = Math.cos(p2) * Math.cos(dl);
	const by = Math.cos(p2) * Math.sin(dl);
	const lat = Math.atan2(Math.sin(p1) + Math.sin(p2), Math.hypot(Math.cos(p1) + bx, by));
	const lon = l1 + Math.atan2(by, Math.cos(p1) + bx);
	return at(lat / r, ((lon / r + 540) % 360) - 180);
}

const pointArb = fc
	.record({
		latitude: fc.double({ min: -90, max: 90, noNaN: true }),
		longitude: fc.double({ min: -180, max: 180, noNaN: true }),
	})
	.map(({ latitude, longitude }) => at(latitude, longitude));

describe("greatCircleKm", () => {
	it("measures known distances (within 0.5% of published great-circle figures)", () => {
		// London–New York 5,570 km; Sydney–Singapore 6,300 km; the quarter meridian 10,008 km.
		expect(greatCircleKm(at(51.51, -0.13), at(40.71, -74.01))).toBeCloseTo(5570, -2);
		expect(greatCircleKm(HINT_POINTS.oc, HINT_POINTS.apac)).toBeCloseTo(6306, -1);
		expect(greatCircleKm(at(0, 0), at(90, 0))).toBeCloseTo(10_007.6, 0);
	});

	it("wraps across the antimeridian", () => {
		expect(greatCircleKm(at(0, 179.9), at(0, -179.9))).toBeCloseTo(22.2, 1);
		expect(greatCircleKm(at(-17.7, 180), at(-17.7, -180))).toBeCloseTo(0, 6);
	});

	it("is a metric on the sphere: zero to itself, symmetric, triangle inequality, at most half the circumference", () => {
		fc.assert(
			fc.property(pointArb, pointArb, pointArb, (a, b, c) => {
				expect(greatCircleKm(a, a)).toBeCloseTo(0, 6);
				expect(greatCircleKm(a, b)).toBeCloseTo(greatCircleKm(b, a), 6);
				// Haversine loses precision near antipodes: allow a metre, not a micrometre.
				expect(greatCircleKm(a, c)).toBeLessThanOrEqual(
					greatCircleKm(a, b) + greatCircleKm(b, c) + 1e-3,
				);
				expect(greatCircleKm(a, b)).toBeLessThanOrEqual(Math.PI * 6371.0088 + 1e-6);
			}),
		);
	});
});

describe("RegionMap.nearest", () => {
	it.each(CALLERS)(
		"a caller in %s uses the nearest configured region",
		(_place, point, nearestOfAll, nearestOfFour) => {
			expect(EVERY_HINT.nearest(point)?.hint).toBe(nearestOfAll);
			expect(FOUR.nearest(point)?.hint).toBe(nearestOfFour);
		},
	);

	it("answers the region's worker IDs", () => {
		expect(FOUR.nearest(at(48.86, 2.35))?.workerIds.toString()).toBe("16-23");
	});

	it("crosses the antimeridian: Samoa (west of it) and Fiji (east of it) are nearest Sydney", () => {
		// A planar comparison of longitudes would send Samoa (-171.8°) to San Jose (-121.9°).
		const pacific = RegionMap.parse("wnam:0-7 oc:8-15", 1023);
		expect(pacific.nearest(at(-13.83, -171.76))?.hint).toBe("oc");
		expect(pacific.nearest(at(-18.14, 178.44))?.hint).toBe("oc");
		expect(pacific.nearest(at(21.31, -157.86))?.hint).toBe("wnam"); // Honolulu
	});

	it("breaks a tie in favour of the region listed first", () => {
		const middle = midpoint(HINT_POINTS.weur, HINT_POINTS.eeur);
		const toWeur = greatCircleKm(middle, HINT_POINTS.weur);
		expect(Math.abs(toWeur - greatCircleKm(middle, HINT_POINTS.eeur))).toBeLessThan(TIE_KM);
		expect(RegionMap.parse("weur:0 eeur:1", 31).nearest(middle)?.hint).toBe("weur");
		expect(RegionMap.parse("eeur:1 weur:0", 31).nearest(middle)?.hint).toBe("eeur");
		// 10 km off the middle, towards Warsaw: no longer a tie, whatever the order.
		const nearerWarsaw = at(middle.latitude, middle.longitude + 0.3);
		expect(RegionMap.parse("weur:0 eeur:1", 31).nearest(nearerWarsaw)?.hint).toBe("eeur");
	});

	it("never picks a region more than TIE_KM farther than another configured one", () => {
		const subsetArb = fc.subarray([...LOCATION_HINTS], { minLength: 1 });
		fc.assert(
			fc.property(pointArb, subsetArb, (point, hints) => {
				const map = RegionMap.parse(hints.map((hint, i) => `${hint}:${i}`).join(" "), 31);
				const chosen = map.nearest(point);
				expect(chosen).toBeDefined();
				const chosenKm = greatCircleKm(point, HINT_POINTS[chosen?.hint as LocationHint]);
				for (const hint of hints) {
					expect(chosenKm).toBeLessThanOrEqual(greatCircleKm(point, HINT_POINTS[hint]) + TIE_KM);
				}
			}),
		);
	});

	it("has no answer without regions", () => {
		expect(RegionMap.parse("", 1023).nearest(at(0, 0))).toBeUndefined();
		expect(RegionMap.parse("  ", 1023).size).toBe(0);
	});
});

describe("RegionMap.parse", () => {
	it("reads hints with worker-ID sets, spaces around the parts allowed, and writes them back canonically", () => {
		const map = RegionMap.parse(" wnam:0-3, 8  enam : 9-10,4 apac:40-47 ", 1023);
		expect(map.regions.map(({ hint, workerIds }) => [hint, workerIds.toString()])).toEqual([
			["wnam", "0-3,8"],
			["enam", "4,9-10"],
			["apac", "40-47"],
		]);
		expect(map.toString()).toBe("wnam:0-3,8 enam:4,9-10 apac:40-47");
		expect(RegionMap.parse(map.toString(), 1023).toString()).toBe(map.toString());
	});

	it("knows each worker ID's hint", () => {
		expect(FOUR.hintOf(0)).toBe("wnam");
		expect(FOUR.hintOf(15)).toBe("enam");
		expect(FOUR.hintOf(31)).toBe("apac");
		expect(FOUR.hintOf(32)).toBeUndefined();
	});

	it("has a fixed point for every Cloudflare hint", () => {
		expect(Object.keys(HINT_POINTS).sort()).toEqual([...LOCATION_HINTS].sort());
		for (const hint of LOCATION_HINTS)
			expect(geoPointOf(HINT_POINTS[hint].latitude, HINT_POINTS[hint].longitude)).toBeDefined();
	});

	const refuses = (text: string, detail: string) =>
		expect(() => RegionMap.parse(text, 1023, "AUTO_REGIONS")).toThrowError(
			expect.objectContaining({
				code: "invalid_config",
				detail: expect.stringContaining(detail),
			}) as IdError,
		);

	it.each(["wnam", "wnam:", "0-7", "0-7 wnam:8", ":0-7", "wnam:0-7 enam:"])(
		"refuses malformed %j, naming the variable and the form",
		(text) =>
			refuses(text, 'AUTO_REGIONS must be location hints with worker IDs, such as "wnam:0-7'),
	);

	it.each(["wnam:0-7 xyz:8", "WNAM:0-7", "eu:0-7", "wnam:0-7 asia:8-15"])(
		"refuses an unknown hint in %j, listing the hints",
		(text) =>
			refuses(
				text,
				"names an unknown location hint; use one of wnam, enam, sam, weur, eeur, apac, oc, afr, me",
			),
	);

	it.each(["wnam:0-1024", "wnam:0-7;", "wnam:0-7 8", "wnam:7-0", "wnam:-1"])(
		"refuses a bad worker-ID set in %j, naming the region",
		(text) => refuses(text, "AUTO_REGIONS (wnam) must be worker IDs and ranges in [0, 1023]"),
	);

	it("refuses regions that share worker IDs, naming them", () => {
		refuses("wnam:0-7 enam:5-9", "regions wnam and enam share worker IDs 5-7");
		refuses("wnam:0-7 enam:20 weur:1,30", "regions wnam and weur share worker IDs 1");
	});

	it("refuses a hint named twice", () => {
		refuses(
			"wnam:0-7 enam:8 wnam:9",
			'AUTO_REGIONS names wnam twice; give one hint all its ranges, such as "wnam:0-7,32-39"',
		);
	});

	it("never echoes the text it refuses", () => {
		for (const text of ["s3cretToken:1", "wnam:s3cretToken", "wnam:1 s3cretToken"]) {
			expect(() => RegionMap.parse(text, 1023)).toThrowError(
				expect.objectContaining({ detail: expect.not.stringContaining("s3cret") }) as IdError,
			);
		}
	});
});

describe("geoPointOf", () => {
	it("reads request.cf's decimal strings and plain numbers", () => {
		expect(geoPointOf("30.27130", "-97.74260")).toEqual(at(30.2713, -97.7426));
		expect(geoPointOf(-33.87, 151.21)).toEqual(at(-33.87, 151.21));
	});

	it.each([
		[undefined, "1"],
		["", "1"],
		["1", null],
		["abc", "1"],
		["1e2", "1"],
		["91", "0"],
		["0", "-180.5"],
		[Number.NaN, 0],
		[0, Number.POSITIVE_INFINITY],
	])("has no point for (%j, %j)", (latitude, longitude) => {
		expect(geoPointOf(latitude, longitude)).toBeUndefined();
	});
});
