/**
 * The operations routes' inputs and guards: the history window's `minutes` (1-1440,
 * digits, once), the worker ID, the token. Their answers are the other ops files'.
 */
import { describe, expect, it } from "vitest";
import { envWith, fetchApp } from "../shared/fetch-app";

async function errorOf(path: string, appEnv?: Env) {
	const response = await fetchApp(path, {}, appEnv);
	const body = (await response.json()) as { error: { code: string; message: string } };
	return { status: response.status, ...body.error };
}

describe("operations routes", () => {
	it.each(["0", "1441", "abc", "1.5", ""])(
		"refuses minutes=%s with 400 invalid_request",
		async (minutes) => {
			for (const path of [
				`/stats/history?minutes=${minutes}`,
				`/stats/4/history?minutes=${minutes}`,
			]) {
				const error = await errorOf(path);
				expect(error.status).toBe(400);
				expect(error.code).toBe("invalid_request");
				expect(error.message).toMatch(/^minutes must be an integer in \[1, 1440\]/);
			}
		},
	);

	it("refuses a worker ID the deployment does not own, and unknown query parameters", async () => {
		const error = await errorOf("/stats/5000/history");
		expect(error).toMatchObject({ status: 400, code: "invalid_worker_id" });
		const unknown = await errorOf("/stats?minutes=5");
		expect(unknown).toMatchObject({ status: 400, code: "invalid_request" });
		expect(unknown.message).toContain("it takes limit, cursor");
	});

	it("asks for the token when API_TOKEN is set", async () => {
		const locked = envWith({ API_TOKEN: "ops-secret" });
		for (const path of ["/leases", "/stats", "/stats/history", "/stats/1/history", "/metrics"]) {
			expect((await fetchApp(path, {}, locked)).status, path).toBe(401);
		}
		const allowed = await fetchApp(
			"/metrics",
			{ headers: { Authorization: "Bearer ops-secret" } },
			locked,
		);
		expect(allowed.status).toBe(200);
	});
});
