/**
 * The HTTP client's operations calls (`leases`, `fleetStats`, `statsHistory`) GET
 * exactly the routes and query the service reads, `limit`/`cursor`/`minutes` only
 * when given, and return the answer as parsed.
 */
import { describe, expect, it } from "vitest";
import { recordingClient } from "./recording-fetch";

const GET = { Accept: "application/json" };

describe("operations calls", () => {
	it("leases GETs /leases with no query and no body", async () => {
		const { client, sent } = recordingClient({ leases: [{ workerId: 3 }] });
		expect(await client.leases()).toEqual({ leases: [{ workerId: 3 }] });
		expect(sent).toEqual([
			{ method: "GET", url: "https://ids.test/v1/leases", headers: GET, body: undefined },
		]);
	});

	it("fleetStats puts limit and cursor in the query only when given", async () => {
		const page = { workerIds: [], sequences: [], totals: { issued: 0 }, cursor: "w:9" };
		const { client, sent } = recordingClient(page);
		expect(await client.fleetStats({ limit: 100, cursor: "w:8/x" })).toEqual(page);
		await client.fleetStats({ cursor: "s:orders" });
		await client.fleetStats({ limit: 5 });
		await client.fleetStats();
		expect(sent.map(({ method, url, body }) => [method, url, body])).toEqual([
			["GET", "https://ids.test/v1/stats?limit=100&cursor=w%3A8%2Fx", undefined],
			["GET", "https://ids.test/v1/stats?cursor=s%3Aorders", undefined],
			["GET", "https://ids.test/v1/stats?limit=5", undefined],
			["GET", "https://ids.test/v1/stats", undefined],
		]);
		expect(sent.every(({ headers }) => JSON.stringify(headers) === JSON.stringify(GET))).toBe(true);
	});

	it("statsHistory GETs the fleet's history without a workerId, the worker ID's with one", async () => {
		const history = { workerId: 7, history: [{ minute: "2026-11-29T07:00Z", issued: 2 }] };
		const { client, sent } = recordingClient(history);
		expect(await client.statsHistory({ workerId: 7, minutes: 60 })).toEqual(history);
		await client.statsHistory({ workerId: 0 });
		await client.statsHistory({ minutes: 1440 });
		await client.statsHistory();
		expect(sent.map(({ method, url }) => [method, url])).toEqual([
			["GET", "https://ids.test/v1/stats/7/history?minutes=60"],
			["GET", "https://ids.test/v1/stats/0/history"],
			["GET", "https://ids.test/v1/stats/history?minutes=1440"],
			["GET", "https://ids.test/v1/stats/history"],
		]);
	});

	it("statsHistory refuses a workerId that is not a non-negative integer before any request", async () => {
		const { client, sent } = recordingClient({});
		await expect(client.statsHistory({ workerId: -1 })).rejects.toMatchObject({
			code: "invalid_worker_id",
			status: 400,
		});
		expect(sent).toEqual([]);
	});
});
