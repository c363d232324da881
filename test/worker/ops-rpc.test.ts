/**
 * The operations view over RPC (`IdService`): `leases`, `fleetStats` and
 * `statsHistory` answer what the HTTP routes answer, and refuse as they do.
 */
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { IdService } from "../../src/worker/rpc/id-service";
import { envWith, fetchApp } from "../shared/fetch-app";

const service = (vars: Record<string, string> = {}) =>
	new IdService(createExecutionContext(), envWith(vars));

describe("operations over RPC", () => {
	it("answers the fleet's stats and history as the routes do", async () => {
		const stats = await service().fleetStats();
		const http = (await (await fetchApp("/stats")).json()) as typeof stats;
		expect({ ...stats, serverNowMs: 0 }).toEqual({ ...http, serverNowMs: 0 });
		const history = await service().statsHistory({ workerId: 40, minutes: 5 });
		expect(history).toMatchObject({ workerId: 40, minutes: 5, history: [] });
		expect((await service().statsHistory()).workerId).toBeNull();
	});

	it("refuses as the routes do: leases off, a window out of range", async () => {
		await expect(service().leases()).rejects.toThrow(/^leases_disabled: /);
		expect((await service({ LEASE_WORKER_IDS: "600-699" }).leases()).leases).toEqual([]);
		await expect(service().statsHistory({ minutes: 1441 })).rejects.toThrow(
			/^invalid_request: minutes must be an integer in \[1, 1440\]/,
		);
		const settled = await service().settle("statsHistory", { workerId: 5000 });
		expect(settled.error).toMatch(/^invalid_worker_id: /);
	});
});
