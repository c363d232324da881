/**
 * Placement and ownership inside workerd: AUTO_REGIONS picks the auto route's
 * worker IDs by the caller's `request.cf` location and creates each object with
 * its region's location hint; WORKER_IDS bounds every route. Requests carry an
 * injected `cf` (`new Request(url, { cf })`), as Cloudflare's edge would add it.
 * The app runs with its own config here (`app.fetch(request, env, ctx)`, as in
 * security.test.ts), and `SNOWFLAKE` is the real namespace behind a recorder of
 * the `get()` options.
 */
import { createExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/wire";
import { IdService } from "../../src/worker/rpc/id-service";
import { type AppRequestInit, envWith, fetchApp, jsonAnswer } from "../shared/fetch-app";

type Location = { latitude: string; longitude: string };

/** Each hint, 4 worker IDs: wnam 200-203, enam 204-207, … me 232-235. */
const REGIONS =
	"wnam:200-203 enam:204-207 sam:208-211 weur:212-215 eeur:216-219 apac:220-223 oc:224-227 afr:228-231 me:232-235";
const SET_OF: Record<string, string> = {
	wnam: "200-203",
	enam: "204-207",
	sam: "208-211",
	weur: "212-215",
	eeur: "216-219",
	apac: "220-223",
	oc: "224-227",
	afr: "228-231",
	me: "232-235",
};

/** Callers on every continent, with `request.cf`'s decimal strings. */
const CALLERS: [string, Location, string][] = [
	["Seattle", { latitude: "47.60620", longitude: "-122.33210" }, "wnam"],
	["New York", { latitude: "40.71280", longitude: "-74.00600" }, "enam"],
	["Buenos Aires", { latitude: "-34.60370", longitude: "-58.38160" }, "sam"],
	["London", { latitude: "51.50740", longitude: "-0.12780" }, "weur"],
	["Moscow", { latitude: "55.75580", longitude: "37.61730" }, "eeur"],
	["Tokyo", { latitude: "35.67620", longitude: "139.65030" }, "apac"],
	["Auckland", { latitude: "-36.84850", longitude: "174.76330" }, "oc"],
	["Nairobi", { latitude: "-1.29210", longitude: "36.82190" }, "afr"],
	["Riyadh", { latitude: "24.71360", longitude: "46.67530" }, "me"],
	["McMurdo Station", { latitude: "-77.84630", longitude: "166.66820" }, "oc"],
];

const inSet = (text: string, id: number) =>
	text.split(",").some((part) => {
		const [from, to = from] = part.split("-").map(Number) as [number, number?];
		return id >= from && id <= (to as number);
	});

/** The app under its own vars, with the `get()` options of every object it touches. */
function appWith(vars: Record<string, string>) {
	const gets: { name: string | undefined; options: unknown }[] = [];
	const real = env.SNOWFLAKE;
	const SNOWFLAKE = {
		idFromName: (name: string) => real.idFromName(name),
		get: (id: DurableObjectId, options?: DurableObjectNamespaceGetDurableObjectOptions) => {
			gets.push({ name: id.name, options });
			return real.get(id, options);
		},
	};
	const ownEnv = envWith({ ...vars, SNOWFLAKE });
	const send = (path: string, init?: AppRequestInit) => fetchApp(path, init, ownEnv);
	const json = async <T>(path: string, init?: AppRequestInit) =>
		jsonAnswer<T>(await send(path, init));
	return { env: ownEnv, send, json, gets };
}

describe("auto requests use the region nearest to the caller", () => {
	const regional = appWith({ AUTO_REGIONS: REGIONS, AUTO_WORKER_IDS: "240-243" });

	it.each(CALLERS)("a caller in %s draws from its region", async (_place, cf, hint) => {
		for (let i = 0; i < 4; i++) {
			const { status, body } = await regional.json<{ workerId: number; ids: string[] }>(
				"/snowflake?count=2",
				{ cf },
			);
			expect(status).toBe(200);
			expect(body.ids).toHaveLength(2);
			expect(inSet(SET_OF[hint] as string, body.workerId)).toBe(true);
		}
		const { body } = await regional.json<{ request: { region: string; workerIds: string } }>(
			"/regions",
			{ cf },
		);
		expect(body.request).toMatchObject({ region: hint, workerIds: SET_OF[hint] });
	});

	it("uses AUTO_WORKER_IDS without a location (local runs) or with an unusable one", async () => {
		for (const init of [{}, { cf: { country: "US" } }, { cf: { latitude: "x", longitude: "1" } }]) {
			const { body } = await regional.json<{ workerId: number }>("/snowflake", init);
			expect(inSet("240-243", body.workerId)).toBe(true);
		}
	});

	it("uses AUTO_WORKER_IDS over RPC, which carries no location", async () => {
		const service = new IdService(createExecutionContext(), regional.env);
		for (let i = 0; i < 4; i++) {
			expect(inSet("240-243", (await service.snowflake({ count: 1 })).workerId)).toBe(true);
		}
	});

	it("reaches the Worker's own fetch with an injected cf (no regions by default)", async () => {
		const london = CALLERS[3]?.[1] as Location;
		const response = await exports.default.fetch(
			new Request("https://ids.test/regions", { cf: london }),
		);
		expect(response.headers.get("Cache-Control")).toBe("no-store");
		expect(await response.json()).toEqual({
			workerIds: "0-1023",
			autoWorkerIds: "0-31",
			leaseWorkerIds: "",
			regions: [],
			request: {
				location: { latitude: 51.5074, longitude: -0.1278 },
				region: null,
				workerIds: "0-31",
			},
		});
	});
});

describe("an overloaded region answers 503; it does not spill into another region", () => {
	/** The app with a stand-in namespace: every object of `overloaded` fails as an overloaded one does. */
	function appWithOverloaded(vars: Record<string, string>, overloaded: (id: number) => boolean) {
		const asked: number[] = [];
		const SNOWFLAKE = {
			idFromName: (name: string) => name,
			get: (name: string) => ({
				issue: async (workerId: number, count: number) => {
					asked.push(Number(name));
					if (overloaded(workerId)) {
						throw Object.assign(new Error("Durable Object is overloaded"), { overloaded: true });
					}
					const tick = Date.now() - 1288834974657;
					return {
						ok: true,
						runs: [{ tick, firstSequence: 0, count }],
						layout: "epoch=1288834974657;bits=41/10/12;unit=1",
					};
				},
			}),
		};
		const ownEnv = envWith({ ...vars, SNOWFLAKE });
		const json = async <T>(path: string, init?: AppRequestInit) =>
			jsonAnswer<T>(await fetchApp(path, init, ownEnv));
		return { json, asked };
	}

	it("a caller whose region is overloaded gets 503 overloaded; no other region's worker ID is asked", async () => {
		const london = CALLERS[3]?.[1] as Location;
		const newYork = CALLERS[1]?.[1] as Location;
		const app = appWithOverloaded(
			{ AUTO_REGIONS: "weur:300-303 enam:304-307", AUTO_WORKER_IDS: "308-311" },
			(workerId) => workerId >= 300 && workerId <= 303,
		);
		for (let i = 0; i < 6; i++) {
			const { status, body, headers } = await app.json<ErrorBody>("/snowflake?count=2", {
				cf: london,
			});
			expect(status).toBe(503);
			expect(body.error.code).toBe("overloaded");
			expect(headers.get("Retry-After")).toBe("1");
		}
		expect(app.asked.length).toBeGreaterThanOrEqual(6);
		expect(app.asked.every((id) => id >= 300 && id <= 303)).toBe(true);
		// The blocks route picks from the same region, and refuses the same way.
		const blocks = await app.json<ErrorBody>("/snowflake/blocks?count=2", { cf: london });
		expect([blocks.status, blocks.body.error.code]).toEqual([503, "overloaded"]);
		expect(app.asked.every((id) => id >= 300 && id <= 303)).toBe(true);
		// Another region is unaffected: its callers get IDs from their own worker IDs.
		const served = await app.json<{ workerId: number }>("/snowflake?count=2", { cf: newYork });
		expect(served.status).toBe(200);
		expect(inSet("304-307", served.body.workerId)).toBe(true);
	});
});

describe("GET /regions", () => {
	it("names the worker IDs lent to lease holders, or none with leases off", async () => {
		const leased = await appWith({ LEASE_WORKER_IDS: "600-699,900" }).json<{
			leaseWorkerIds: string;
		}>("/regions");
		expect([leased.status, leased.body.leaseWorkerIds]).toEqual([200, "600-699,900"]);
		const off = await appWith({}).json<{ leaseWorkerIds: string }>("/regions");
		expect(off.body.leaseWorkerIds).toBe("");
	});

	it("shows the mapping, each region's point and distance, and the region this caller would use", async () => {
		const { status, body } = await appWith({
			AUTO_REGIONS: "weur:16-23 wnam:0-7",
			WORKER_IDS: "0-511",
		}).json<Record<string, unknown>>("/regions", {
			cf: { latitude: "48.85660", longitude: "2.35220" },
		});
		expect(status).toBe(200);
		expect(body).toEqual({
			workerIds: "0-511",
			autoWorkerIds: "0-31",
			leaseWorkerIds: "",
			regions: [
				{
					hint: "weur",
					workerIds: "16-23",
					point: { latitude: 52.37, longitude: 4.9, place: "Amsterdam, NL" },
					distanceKm: 430,
				},
				{
					hint: "wnam",
					workerIds: "0-7",
					point: { latitude: 37.34, longitude: -121.89, place: "San Jose, US" },
					distanceKm: 8968,
				},
			],
			request: {
				location: { latitude: 48.8566, longitude: 2.3522 },
				region: "weur",
				workerIds: "16-23",
			},
		});
	});

	it("has no distances without a location", async () => {
		const { body } = await appWith({ AUTO_REGIONS: "oc:0-3" }).json<{
			regions: { distanceKm: unknown }[];
			request: unknown;
		}>("/regions");
		expect(body.regions[0]?.distanceKm).toBeNull();
		expect(body.request).toEqual({ location: null, region: null, workerIds: "0-31" });
	});

	it("takes GET only", async () => {
		const response = await appWith({}).send("/regions", { method: "POST" });
		expect(response.status).toBe(405);
		expect(response.headers.get("Allow")).toBe("GET");
	});
});

describe("objects are created with their region's location hint", () => {
	it("whichever route touches a worker ID first: explicit, stats or auto", async () => {
		// Auto pools are the isolate's, found by their settings: a POOL_MAX_SIZE no other
		// test uses gives this env a pool of its own, whose first take calls an object.
		const regional = appWith({ AUTO_REGIONS: REGIONS, POOL_MAX_SIZE: "4095" });
		expect((await regional.send("/snowflake/205")).status).toBe(200);
		expect((await regional.send("/snowflake/213/stats")).status).toBe(200);
		const auto = await regional.json<{ workerId: number }>("/snowflake", {
			cf: { latitude: "-33.86880", longitude: "151.20930" }, // Sydney
		});
		expect(inSet("224-227", auto.body.workerId)).toBe(true);
		expect((await regional.send("/snowflake/300")).status).toBe(200); // in no region
		expect(regional.gets).toEqual([
			{ name: "205", options: { locationHint: "enam" } },
			{ name: "213", options: { locationHint: "weur" } },
			{ name: String(auto.body.workerId), options: { locationHint: "oc" } },
			{ name: "300", options: undefined },
		]);
	});

	it("over RPC too", async () => {
		const regional = appWith({ AUTO_REGIONS: REGIONS });
		const service = new IdService(createExecutionContext(), regional.env);
		await service.snowflake({ workerId: 233 });
		expect(regional.gets).toEqual([{ name: "233", options: { locationHint: "me" } }]);
	});

	it("and without AUTO_REGIONS, with no hint at all", async () => {
		const plain = appWith({});
		await plain.send("/snowflake/5");
		await plain.send("/snowflake", { cf: { latitude: "35.6762", longitude: "139.6503" } });
		expect(plain.gets.map((get) => get.options)).toEqual([undefined, undefined]);
	});
});

describe("WORKER_IDS: the worker IDs this deployment owns", () => {
	const staging = appWith({
		WORKER_IDS: "768-1023",
		AUTO_WORKER_IDS: "",
		AUTO_REGIONS: "weur:800-803",
	});

	it.each(["/snowflake/5", "/snowflake/767?count=2", "/snowflake/5/stats"])(
		"%s (not owned) → 400 invalid_worker_id naming the owned set",
		async (path) => {
			const { status, body } = await staging.json<ErrorBody>(path);
			expect(status).toBe(400);
			expect(body.error.code).toBe("invalid_worker_id");
			expect(body.error.message).toBe(
				`workerId must be one of the worker IDs this deployment owns, WORKER_IDS = 768-1023; got ${path.match(/[0-9]+/)?.[0]}`,
			);
		},
	);

	it("refuses an unowned worker ID over RPC with the same code and set", async () => {
		const service = new IdService(createExecutionContext(), staging.env);
		await expect(service.snowflake({ workerId: 5 })).rejects.toThrow(
			/^invalid_worker_id: workerId must be one of the worker IDs this deployment owns, WORKER_IDS = 768-1023; got 5 \(request [0-9a-f-]{36}\)$/,
		);
	});

	it("serves its own worker IDs, and draws auto IDs from the first 32 it owns when AUTO_WORKER_IDS is unset", async () => {
		const explicit = await staging.json<{ workerId: number }>("/snowflake/1000");
		expect(explicit.status).toBe(200);
		for (let i = 0; i < 5; i++) {
			const auto = await staging.json<{ workerId: number }>("/snowflake");
			expect(inSet("768-799", auto.body.workerId)).toBe(true);
		}
		const regions = await staging.json<{ autoWorkerIds: string }>("/regions");
		expect(regions.body.autoWorkerIds).toBe("768-799");
	});

	it("keeps the layout's range in the message when it owns every worker ID", async () => {
		const { body } = await appWith({}).json<ErrorBody>("/snowflake/1024");
		expect(body.error.message).toContain("[0, 1023]");
	});
});

describe("config errors name the variable and never echo its text", () => {
	it.each([
		[{ WORKER_IDS: "0-1024" }, "WORKER_IDS must be worker IDs and ranges in [0, 1023]"],
		[{ WORKER_IDS: "s3cret" }, "WORKER_IDS must be worker IDs and ranges"],
		[
			{ WORKER_IDS: "512-1023", AUTO_WORKER_IDS: "0-31" },
			"AUTO_WORKER_IDS (0-31) must lie within WORKER_IDS (512-1023), the worker IDs this deployment owns",
		],
		[
			{ WORKER_IDS: "0-99", AUTO_REGIONS: "wnam:0-7 apac:96-103" },
			"AUTO_REGIONS region apac (96-103) must lie within WORKER_IDS (0-99)",
		],
		[{ AUTO_REGIONS: "wnam:0-7 enam:4-9" }, "regions wnam and enam share worker IDs 4-7"],
		[{ AUTO_REGIONS: "wnam:0-7 s3cret:8" }, "AUTO_REGIONS: entry 2 names an unknown location hint"],
		[{ AUTO_REGIONS: "wnam 0-7" }, "AUTO_REGIONS must be location hints with worker IDs"],
		[{ AUTO_REGIONS: "wnam:0-7 wnam:8" }, "AUTO_REGIONS names wnam twice"],
		[
			{ AUTO_REGIONS: "apac:0-1024" },
			"AUTO_REGIONS (apac) must be worker IDs and ranges in [0, 1023]",
		],
	])("%j → 500 invalid_config", async (vars, message) => {
		const broken = appWith(vars);
		for (const path of ["/snowflake", "/regions", "/snowflake/7"]) {
			const { status, body } = await broken.json<ErrorBody>(path);
			expect(status).toBe(500);
			expect(body.error.code).toBe("invalid_config");
			expect(body.error.message).toContain(message);
			expect(body.error.message).not.toContain("s3cret");
		}
		expect(broken.gets).toEqual([]);
	});
});
