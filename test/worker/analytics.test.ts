/**
 * Workers Analytics Engine: with an `ANALYTICS` dataset bound, one data point per
 * request (route, status, worker ID, count, wait, colo), written without awaiting;
 * a dataset that throws costs the point, never the answer. The binding is a
 * recording stand-in (locally, writeDataPoint is a no-op).
 */
import { describe, expect, it } from "vitest";
import { envWith, fetchApp } from "../shared/fetch-app";

function recordingDataset() {
	const points: AnalyticsEngineDataPoint[] = [];
	const dataset: AnalyticsEngineDataset = {
		writeDataPoint: (point) => {
			points.push(point ?? {});
		},
	};
	return { points, dataset };
}

describe("Analytics Engine data points", () => {
	it("writes one point per request: route, error code, colo, kind, method; status, worker ID, count, wait", async () => {
		const { points, dataset } = recordingDataset();
		const appEnv = envWith({ ANALYTICS: dataset });
		const ok = await fetchApp("/snowflake/3?count=4", { cf: { colo: "AMS" } }, appEnv);
		expect(ok.status).toBe(200);
		const refused = await fetchApp("/snowflake/99999", {}, appEnv);
		expect(refused.status).toBe(400);
		expect(points).toHaveLength(2);
		expect(points[0]).toEqual({
			indexes: ["/snowflake/:workerId"],
			blobs: ["/snowflake/:workerId", "", "AMS", "snowflake", "GET"],
			doubles: [200, 3, 4, expect.any(Number)],
		});
		expect(points[0]?.doubles?.[3]).toBeGreaterThanOrEqual(0);
		expect(points[1]).toMatchObject({
			blobs: ["/snowflake/:workerId", "invalid_worker_id", "", "", "GET"],
			doubles: [400, -1, 0, expect.any(Number)],
		});
	});

	it("answers as usual when the dataset throws, and writes nothing without one", async () => {
		const throwing: AnalyticsEngineDataset = {
			writeDataPoint: () => {
				throw new Error("dataset refused the point (test)");
			},
		};
		const answer = await fetchApp("/ulid", {}, envWith({ ANALYTICS: throwing }));
		expect(answer.status).toBe(200);
		const { points } = recordingDataset();
		expect((await fetchApp("/ulid", {}, envWith({ ANALYTICS: undefined }))).status).toBe(200);
		expect(points).toEqual([]);
	});
});
