/**
 * Bad lease requests: each a 4xx naming what was wrong and what is allowed, none
 * quoting a leaseId. Worker IDs 650-659 are this file's.
 */
import { describe, expect, it } from "vitest";
import type { ErrorBody, LeaseGrant } from "../../src/wire";
import { useTestClock } from "./helpers";
import { LEASED, leaseBody, leasesApp, releasePath, renewPath } from "./lease-helpers";

const T = 1_800_000_000_000;
const leases = leasesApp();
const WELL_FORMED = "A".repeat(32);

/** Asks `method path` (with `body`) and expects the status and code, returning the message. */
async function refused(
	method: "GET" | "POST" | "DELETE",
	path: string,
	body: unknown,
	status: number,
	code: string,
): Promise<string> {
	const answer = await leases<ErrorBody>(method, path, body);
	expect(answer.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
	expect(answer.body.error.code).toBe(code);
	return answer.body.error.message;
}

describe("bad lease requests", () => {
	it("refuses a worker ID outside LEASE_WORKER_IDS or the layout, naming the set", async () => {
		for (const [method, path, body] of [
			["POST", "/leases", { workerId: 5 }],
			["POST", "/leases", { workerId: 5000 }],
			["POST", "/leases", { workerId: 600.5 }],
			["GET", "/leases/5", undefined],
			["GET", "/leases/99999999999999999999", undefined],
			["GET", "/leases/-1", undefined],
			["GET", "/leases/abc", undefined],
			["POST", "/leases/7/renew", { leaseId: WELL_FORMED }],
			["POST", "/leases/x/release", { leaseId: WELL_FORMED }],
		] as const) {
			const message = await refused(method, path, body, 400, "invalid_worker_id");
			expect(message).toContain(`LEASE_WORKER_IDS = ${LEASED}`);
		}
	});

	it("refuses JSON of the wrong types, unknown fields and non-objects", async () => {
		expect(
			await refused("POST", "/leases", { workerId: "650" }, 400, "invalid_worker_id"),
		).toContain('LEASE_WORKER_IDS = 600-699; got "650"');
		for (const holder of [5, null, true, ["pod"], { name: "pod" }]) {
			expect(await refused("POST", "/leases", { holder }, 400, "invalid_holder")).toContain(
				"1-128 printable characters",
			);
		}
		expect(await refused("POST", "/leases", { worker: 650 }, 400, "invalid_request")).toBe(
			'unknown parameter "worker"; it takes holder, workerId',
		);
		await refused("POST", "/leases", [650], 400, "invalid_body");
		await refused("POST", "/leases", "{", 400, "invalid_body");
		await refused(
			"POST",
			renewPath({ workerId: 650, leaseId: WELL_FORMED } as LeaseGrant),
			{ leaseId: WELL_FORMED, to: 5 },
			400,
			"invalid_request",
		);
	});

	it("refuses a holder label that is empty, too long or unprintable, without echoing it", async () => {
		for (const [holder, got] of [
			["", "an empty string"],
			["p".repeat(129), "a string of 129 characters"],
			["pod\nname", "unprintable"],
			["pod\u200bname", "unprintable"], // a zero-width space (a format character)
		]) {
			const message = await refused("POST", "/leases", { holder }, 400, "invalid_holder");
			expect(message).toContain(got);
			if (holder) expect(message).not.toContain(holder);
		}
		await useTestClock(650, T);
		const wide = await leases<LeaseGrant>("POST", "/leases", {
			workerId: 650,
			holder: "ü".repeat(128),
		});
		expect(wide.status).toBe(201);
		const emoji = "🦀".repeat(128); // 128 characters, 256 UTF-16 units
		const crab = await leases("POST", "/leases", { workerId: 651, holder: emoji });
		expect(crab.status).toBe(201);
	});

	it("refuses a malformed leaseId as 400 without quoting it", async () => {
		for (const leaseId of [
			"short",
			`${WELL_FORMED}B`,
			`${"A".repeat(31)}!`,
			`${"A".repeat(31)}%2F`,
		]) {
			for (const path of ["/leases/652/renew", "/leases/652/release"]) {
				const message = await refused("POST", path, { leaseId }, 400, "invalid_lease_id");
				expect(message).toContain("32 characters");
				expect(message).not.toContain(leaseId);
			}
		}
		// No leaseId, or one of another type: the same refusal, saying what came.
		for (const [body, got] of [
			[undefined, "it is missing"],
			[{}, "it is missing"],
			[{ leaseId: 5 }, "got a number"],
			[{ leaseId: null }, "got a null"],
		] as const) {
			const message = await refused("POST", "/leases/652/renew", body, 400, "invalid_lease_id");
			expect(message).toContain(got);
		}
	});

	it("refuses the 0.2.0 forms (the leaseId in the URL) with 410, naming the new routes, never the leaseId", async () => {
		await useTestClock(657, T);
		const { body: grant } = await leases<LeaseGrant>("POST", "/leases", { workerId: 657 });
		for (const [method, path] of [
			["POST", `/leases/657/${grant.leaseId}/renew`],
			["DELETE", `/leases/657/${grant.leaseId}`],
		] as const) {
			const answer = await leases<ErrorBody>(method, path);
			expect(answer.status, `${method} ${path}`).toBe(410);
			expect(answer.body.error.code).toBe("lease_route_moved");
			expect(answer.body.error.message).toContain("POST /leases/:workerId/renew");
			expect(answer.body.error.message).toContain("POST /leases/:workerId/release");
			expect(answer.body.error.message).toContain('{"leaseId": "…"}');
			expect(answer.text).not.toContain(grant.leaseId);
		}
		// Refused before anything was read: the lease is still held, and renews.
		expect((await leases("POST", renewPath(grant), leaseBody(grant))).status).toBe(200);
	});

	it("answers 409 lease_lost for a foreign or released leaseId", async () => {
		await useTestClock(653, T);
		const { body: grant } = await leases<LeaseGrant>("POST", "/leases", { workerId: 653 });
		const foreign = { ...grant, leaseId: WELL_FORMED };
		expect(
			await refused("POST", renewPath(foreign), leaseBody(foreign), 409, "lease_lost"),
		).not.toContain(WELL_FORMED);
		await refused("POST", releasePath(foreign), leaseBody(foreign), 409, "lease_lost");
		const elsewhere = { ...grant, workerId: 654 };
		await refused("POST", renewPath(elsewhere), leaseBody(elsewhere), 409, "lease_lost");
		expect((await leases("POST", releasePath(grant), leaseBody(grant))).status).toBe(204);
		expect(await refused("POST", renewPath(grant), leaseBody(grant), 409, "lease_lost")).toContain(
			"released",
		);
	});

	it("answers 404 and 405 on lease paths without quoting the leaseId", async () => {
		const leaseId = "S3cr3t".padEnd(32, "x");
		const notFound = await refused(
			"POST",
			`/leases/655/${leaseId}/renw`,
			undefined,
			404,
			"not_found",
		);
		expect(notFound).toContain("/leases/655/:leaseId/renw");
		expect(notFound).not.toContain(leaseId);
		const wrongMethod = await refused(
			"GET",
			`/leases/655/${leaseId}`,
			undefined,
			405,
			"method_not_allowed",
		);
		expect(wrongMethod).not.toContain(leaseId);
		const head = await leases("POST", "/leases/655");
		expect(head.status).toBe(405);
		expect(head.headers.get("Allow")).toBe("GET");
	});

	it("refuses query parameters (the lease routes take none) without quoting the leaseId", async () => {
		const leaseId = "S3cr3t".padEnd(32, "y");
		for (const [method, path] of [
			["POST", "/leases?workerId=656", "/leases"],
			["POST", "/leases/656/renew?to=1", "/leases/:workerId/renew"],
			["POST", "/leases/656/release?force=1", "/leases/:workerId/release"],
			["GET", "/leases/656?verbose", "/leases/:workerId"],
		] as const) {
			const message = await refused(method, path, undefined, 400, "invalid_request");
			expect(message).toMatch(/^unknown parameters? "\w+"; it takes none$/);
			expect(message).not.toContain(leaseId);
		}
	});
});
