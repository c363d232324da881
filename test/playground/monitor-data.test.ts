/** The monitor page's numbers: chart columns over every minute of the window, a lease's time left, the busiest worker ID. */
import { describe, expect, it } from "vitest";
import { busiest, chartColumns, timeLeft } from "../../src/playground/monitor-data";

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
