/**
 * createLeasedGenerator over each source it takes, against the real bundle in
 * Miniflare: `idsClient` (HTTP), the raw `IdService` binding and `idService(binding)`
 * (refusals crossing as values). Each issues IDs of a worker ID of LEASE_WORKER_IDS
 * in order, renews (spans of 1.5 s), moves to a new lease when its lease is
 * released behind its back (the renewal's `lease_lost` read from that source's
 * error), and releases on close.
 */
import type { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	createLeasedGenerator,
	type IdServiceRpc,
	idService,
	idsClient,
	type LeaseSourceRpc,
} from "../../src/client";
import type { IdService } from "../../src/index";
import type { LeaseGrant } from "../../src/wire";
import { twitterLayout } from "../shared/lease-grants";
import { expectSnowflakesIncreasing } from "../shared/order";
import { SHORT_LEASES, SHORT_SPAN_MS, startServiceAndConsumer } from "./setup";

const TOKEN = "leased-secret";
let mf: Miniflare;
let url: string;
let IDS: Service<IdService>;

beforeAll(async () => {
	const started = await startServiceAndConsumer({ apiToken: TOKEN, vars: SHORT_LEASES });
	mf = started.mf;
	url = started.url.origin;
	IDS = (await mf.getBindings<{ IDS: Service<IdService> }>(started.consumerName)).IDS;
}, 120_000);

afterAll(() => mf?.dispose());

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The source with its grants recorded (so the test can release the lease behind the generator's back). */
function recorded(source: LeaseSourceRpc) {
	const grants: LeaseGrant[] = [];
	const keep = (grant: LeaseGrant) => {
		grants.push(grant);
		return grant;
	};
	return {
		grants,
		// Awaited, not `.then`: Miniflare's proxy of a binding may answer without a promise.
		source: {
			acquireLease: async (options?: Parameters<LeaseSourceRpc["acquireLease"]>[0]) =>
				keep(await source.acquireLease(options)),
			renewLease: async (lease: Parameters<LeaseSourceRpc["renewLease"]>[0]) =>
				keep(await source.renewLease(lease)),
			releaseLease: async (lease: Parameters<LeaseSourceRpc["releaseLease"]>[0]) =>
				source.releaseLease(lease),
		} satisfies LeaseSourceRpc,
	};
}

const sources: [string, () => LeaseSourceRpc][] = [
	["idsClient", () => idsClient({ baseUrl: url, token: TOKEN })],
	["idService(env.IDS)", () => idService<IdServiceRpc>(IDS)],
	["the raw binding", () => IDS as unknown as LeaseSourceRpc],
];

describe("createLeasedGenerator against the service", () => {
	it.each(sources)(
		"over %s: issues in order, renews, re-acquires after lease_lost, releases",
		async (_, make) => {
			const { source, grants } = recorded(make());
			const ids = await createLeasedGenerator({ source, holder: "leased-test" });
			const first = grants[0] as LeaseGrant;
			expect(ids.workerId).toBe(first.workerId);
			const issued = [...(await ids.next(5_000)), ...(await ids.next())];
			const fields = issued.map((id) => twitterLayout.decompose(BigInt(id)));
			expect(new Set(fields.map((f) => f.workerId))).toEqual(new Set([first.workerId]));
			expect(Math.min(...fields.map((f) => f.tick))).toBeGreaterThanOrEqual(first.from);
			// Past the first span: renewals carried it on.
			await sleep(SHORT_SPAN_MS + 300);
			issued.push(...(await ids.next(100)));
			expect(ids.stats().renewalsGranted).toBeGreaterThan(0);

			// Released behind its back: the next renewal is lease_lost, the next call a new lease.
			await idService<IdServiceRpc>(IDS).releaseLease(first);
			await sleep(SHORT_SPAN_MS / 2);
			issued.push(...(await ids.next(100)));
			expect(ids.stats()).toMatchObject({ leasesLost: 1, acquires: 2 });
			const second = grants.at(-1) as LeaseGrant;
			expect(second.leaseId).not.toBe(first.leaseId);
			expectSnowflakesIncreasing(issued);

			await ids.close();
			expect(await idService<IdServiceRpc>(IDS).leaseStatus(second.workerId)).toMatchObject({
				state: "free",
			});
		},
	);
});
