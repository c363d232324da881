/**
 * A leaseId is a bearer capability: no log line shows it, whichever route, answer
 * or refusal; lines name the route pattern, the worker ID and, for an acquire, the
 * objects probed. Worker IDs 660-669 are this file's.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LeaseGrant } from "../../src/wire";
import type { RequestLogLine } from "../../src/worker/http/middleware/request-log";
import { useTestClock } from "./helpers";
import { leaseBody, leasesApp, releasePath, renewPath } from "./lease-helpers";

const T = 1_800_000_000_000;
const leases = leasesApp({ LEASE_WORKER_IDS: "660-669" });

afterEach(() => vi.restoreAllMocks());

/** Runs `work` with every console line (log and error) captured. */
async function capture<T>(work: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
	const lines: string[] = [];
	const keep = (...args: unknown[]) => {
		lines.push(args.map(String).join(" "));
	};
	vi.spyOn(console, "log").mockImplementation(keep);
	vi.spyOn(console, "error").mockImplementation(keep);
	const result = await work();
	vi.restoreAllMocks();
	return { result, lines };
}

describe("lease log lines", () => {
	it("never show the leaseId: acquire, renew, status, release, and refusals", async () => {
		for (let id = 660; id < 670; id++) await useTestClock(id, T);
		const { result: grant, lines } = await capture(async () => {
			const { body } = await leases<LeaseGrant>("POST", "/leases", { holder: "pod-log" });
			await leases("POST", renewPath(body), leaseBody(body));
			await leases("GET", `/leases/${body.workerId}`);
			await leases("POST", `${renewPath(body)}?x=1`, { extra: true }); // refused: a body field
			await leases("GET", renewPath(body)); // 405
			await leases("POST", `${releasePath(body)}/renew/more`); // 404
			await leases("POST", renewPath(body), { leaseId: body.leaseId.slice(1) }); // 400
			await leases("POST", `/leases/${body.workerId}/${body.leaseId}/renew`); // 410: 0.2.0's form
			await leases("DELETE", `/leases/${body.workerId}/${body.leaseId}`); // 410
			await leases("POST", releasePath(body), leaseBody(body));
			await leases("POST", renewPath(body), leaseBody(body)); // 409 lease_lost
			return body;
		});
		expect(lines).toHaveLength(11);
		for (const line of lines) {
			expect(line).not.toContain(grant.leaseId);
			expect(line).not.toContain(grant.leaseId.slice(1));
		}
		const parsed = lines.map((line) => JSON.parse(line) as RequestLogLine);
		expect(parsed.map((line) => [line.route, line.status])).toEqual([
			["/leases", 201],
			["/leases/:workerId/renew", 200],
			["/leases/:workerId", 200],
			["/leases/:workerId/renew", 400],
			["/leases/:workerId/renew", 405],
			[null, 404],
			["/leases/:workerId/renew", 400],
			["/leases/:workerId/:leaseId/renew", 410],
			["/leases/:workerId/:leaseId", 410],
			["/leases/:workerId/release", 204],
			["/leases/:workerId/renew", 409],
		]);
		expect(parsed[0]).toMatchObject({ kind: "lease", workerId: grant.workerId, probes: 1 });
		expect(parsed[10]).toMatchObject({
			kind: "lease",
			workerId: grant.workerId,
			error: "lease_lost",
		});
	});
});
