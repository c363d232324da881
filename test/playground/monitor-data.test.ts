/**
 * The monitor page's numbers: chart columns over every minute of the window (calls
 * on the right axis: requests, waits, refusals), a lease's time left, the busiest
 * worker ID, digits grouped, and the worker IDs of the auto route.
 */
import { describe, expect, it } from "vitest";
import {
	autoRoute,
	busiest,
	chartColumns,
	groupDigits,
	timeLeft,
} from "../../src/playground/monitor-data";

const M = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);

describe("monitor data", () => {
	it("fills the window's idle minutes with zeros, oldest first, times in seconds", () => {
		const history = [
			{
				minute: M - 60_000,
				issued: 5,
				requests: 2,
				waits: 1,
				clockRegressions: 1,
				refusals: { overloaded: 2, unavailable: 1 },
			},
		];
		expect(chartColumns(history, 3, M + 30_000)).toEqual([
			[(M - 120_000) / 1000, (M - 60_000) / 1000, M / 1000],
			[0, 5, 0],
			[0, 2, 0], // requests: what the right axis ("calls / min") draws besides waits and refusals
			[0, 2, 0],
			[0, 3, 0],
		]);
	});

	it("says how long a lease has left, and picks the worker ID that issued most", () => {
		expect(timeLeft(M + 12_500, M)).toBe("12 s");
		expect(timeLeft(M + 185_000, M)).toBe("3 min 5 s");
		expect(timeLeft(M, M)).toBe("ended");
		const row = (workerId: number, issued: number) => ({
			workerId,
			issued,
			requests: 0,
			waits: 0,
			clockRegressions: 0,
			refusals: 0,
			lastTimestamp: null,
			since: "",
			reportedAtMs: 0,
		});
		expect(busiest([row(1, 10), row(2, 30), row(3, 20)])?.workerId).toBe(2);
		expect(busiest([])).toBeUndefined();
	});
});

describe("monitor text", () => {
	it("groups digits by thousands, past 2^53 too", () => {
		expect(groupDigits("1006")).toBe("1,006");
		expect(groupDigits("999")).toBe("999");
		expect(groupDigits("1000000")).toBe("1,000,000");
		expect(groupDigits("9223372036854775807")).toBe("9,223,372,036,854,775,807");
		expect(groupDigits("—")).toBe("—");
	});

	it("knows the auto route's worker IDs: AUTO_WORKER_IDS and every region's", () => {
		const auto = autoRoute({
			autoWorkerIds: "0-31",
			regions: [
				{
					hint: "weur",
					workerIds: "64-71,80",
					point: { latitude: 0, longitude: 0, place: "" },
					distanceKm: null,
				},
			],
		});
		expect([0, 31, 64, 71, 80].map(auto)).toEqual([true, true, true, true, true]);
		expect([32, 63, 72, 79, 900].map(auto)).toEqual([false, false, false, false, false]);
	});
});
