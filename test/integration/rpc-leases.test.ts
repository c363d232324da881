/**
 * Worker-ID leases over the IdService binding: the same values and error codes as
 * the /leases routes, the leaseId never in a status, a refusal's code (and wait)
 * read back from the message, directly and through `idService` (settle, which
 * answers a refusal as a value). Worker IDs 900-931 are leased (`LEASES_ON`).
 */
import type { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	type IdServiceRpc,
	idErrorCode,
	idRequestId,
	idRetryAfter,
	idService,
} from "../../src/client";
import type { IdService } from "../../src/index";
import { LEASES_ON, startServiceAndConsumer } from "./setup";

let mf: Miniflare;
let IDS: Service<IdService>;

beforeAll(async () => {
	const started = await startServiceAndConsumer({
		apiToken: "integration-secret",
		vars: LEASES_ON,
	});
	mf = started.mf;
	IDS = (await mf.getBindings<{ IDS: Service<IdService> }>(started.consumerName)).IDS;
}, 120_000);

afterAll(() => mf?.dispose());

/** What a call rejects with (Miniflare's Node proxy may throw synchronously). */
function rejection(attempt: () => Promise<unknown>): Promise<unknown> {
	return Promise.resolve()
		.then(attempt)
		.then(
			() => undefined,
			(error: unknown) => error,
		);
}

/**
 * The code a rejected call carries, the same directly and through `idService`
 * (settle): the message and its request ID checked alike.
 */
async function codeOf(
	attempt: (ids: IdServiceRpc) => Promise<unknown>,
): Promise<string | undefined> {
	const direct = await rejection(() => attempt(IDS));
	const settled = await rejection(() => attempt(idService(IDS)));
	const withoutRequest = (error: unknown) =>
		(error as Error).message.replace(/ \(request [0-9a-f-]{36}\)/, "");
	expect(settled).toBeInstanceOf(Error);
	expect(withoutRequest(settled)).toBe(withoutRequest(direct));
	expect(idRequestId(settled)).toMatch(/^[0-9a-f-]{36}$/);
	return idErrorCode(direct);
}

describe("leases over a service binding", () => {
	it("acquires, renews, shows and releases a lease", async () => {
		const grant = await IDS.acquireLease({ holder: "rpc-pod" });
		expect(grant.workerId).toBeGreaterThanOrEqual(900);
		expect(grant.workerId).toBeLessThanOrEqual(931);
		expect(grant.leaseId).toMatch(/^[A-Za-z0-9_-]{32}$/);
		expect(grant.to - grant.from).toBeGreaterThanOrEqual(29_000);
		expect(grant.layout).toMatchObject({ workerBits: 10 });
		const renewed = await IDS.renewLease({ workerId: grant.workerId, leaseId: grant.leaseId });
		expect(renewed).toMatchObject({
			workerId: grant.workerId,
			leaseId: grant.leaseId,
			from: grant.from,
		});
		expect(renewed.to).toBeGreaterThanOrEqual(grant.to);
		const status = await IDS.leaseStatus(grant.workerId);
		expect(status).toMatchObject({ workerId: grant.workerId, state: "held", holder: "rpc-pod" });
		expect(JSON.stringify(status)).not.toContain(grant.leaseId);
		expect(
			await IDS.releaseLease({ workerId: grant.workerId, leaseId: grant.leaseId }),
		).toBeUndefined();
		expect(await codeOf((ids) => ids.renewLease(grant))).toBe("lease_lost");
	});

	it("refuses bad input with the codes of the HTTP routes", async () => {
		expect(await codeOf((ids) => ids.acquireLease({ workerId: 5 }))).toBe("invalid_worker_id");
		expect(await codeOf((ids) => ids.acquireLease({ workerId: "900" as unknown as number }))).toBe(
			"invalid_worker_id",
		);
		expect(await codeOf((ids) => ids.acquireLease({ holder: "x".repeat(129) }))).toBe(
			"invalid_holder",
		);
		expect(await codeOf((ids) => ids.renewLease({ workerId: 900, leaseId: "nope" }))).toBe(
			"invalid_lease_id",
		);
		expect(
			await codeOf((ids) => ids.releaseLease({ workerId: 900, leaseId: "N".repeat(32) })),
		).toBe("lease_lost");
		expect(await codeOf((ids) => ids.leaseStatus(12))).toBe("invalid_worker_id");
		expect(await codeOf((ids) => ids.acquireLease(null as never))).toBe("invalid_request");
		expect(await codeOf((ids) => ids.snowflake({ workerId: 905 }))).toBe("worker_id_leased");
	});

	it("answers no_free_worker_id with the wait when the worker ID named is held", async () => {
		await IDS.acquireLease({ workerId: 930 });
		const refused = await rejection(() => IDS.acquireLease({ workerId: 930 }));
		expect(idErrorCode(refused)).toBe("no_free_worker_id");
		expect(idRetryAfter(refused)).toBeGreaterThanOrEqual(30);
		const settled = await rejection(() => idService(IDS).acquireLease({ workerId: 930 }));
		expect(idErrorCode(settled)).toBe("no_free_worker_id");
		expect(idRetryAfter(settled)).toBe(idRetryAfter(refused));
	});

	it("acquires, renews and releases through idService (settle) alike", async () => {
		const ids = idService(IDS);
		const grant = await ids.acquireLease({ workerId: 931, holder: "settled" });
		expect(grant).toMatchObject({ workerId: 931, leaseId: expect.stringMatching(/^[\w-]{32}$/) });
		expect(await ids.renewLease(grant)).toMatchObject({ workerId: 931, from: grant.from });
		expect(await ids.leaseStatus(931)).toMatchObject({ state: "held", holder: "settled" });
		expect(await ids.releaseLease(grant)).toBeUndefined();
		expect(await ids.leaseStatus(931)).toMatchObject({ state: "free" });
	});
});
