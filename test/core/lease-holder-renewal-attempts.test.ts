/**
 * What a lease holder does with each renewal attempt's outcome, with exact
 * expectations on simulated time: a refusal that ends the lease (in time, late, or
 * thrown before any answer), an answer that is not a grant, and an attempt still
 * out when the holder closes. Each attempt's signal aborts only when the holder
 * gives up on it; each outcome is counted once.
 */
import { describe, expect, it } from "vitest";
import type { LeaseGrantFields } from "../../src/ids/leases/holder/lease-source";
import { SnowflakeLayout } from "../../src/ids/snowflake/layout";
import { grant, leaseLayout, leaseLost } from "./lease-script";
import { settle } from "./lease-sim";
import { SERVER, startHolder } from "./started-holder";

const layout = new SnowflakeLayout(leaseLayout);
const workerOf = (ids: string[]) => ids.map((id) => layout.decompose(BigInt(id)).workerId);

/** Worker 8's 30 s span from true time `at`. */
const eight = (at: number): LeaseGrantFields =>
	grant({ workerId: 8, from: SERVER + at, to: SERVER + at + 30_000, serverNowMs: SERVER + at });

describe("LeaseHolder renewal attempts that end the lease", () => {
	it("a lease_lost answered in time ends the lease and aborts no signal; the next call acquires", async () => {
		const { source, time, holder } = await startHolder();
		await time.advanceTo(10_000);
		const renewal = source.only("renew");
		renewal.fail(leaseLost());
		await settle();
		expect(renewal.signal?.aborted).toBe(false);
		expect(holder.stats()).toMatchObject({ renewals: 1, renewalsFailed: 0, leasesLost: 1 });
		const call = holder.next();
		await settle();
		source.only("acquire").answer(eight(10_000));
		expect(workerOf(await call)).toEqual([8]);
	});

	it("a late lease_lost of an abandoned attempt ends the lease and aborts the live one", async () => {
		const { source, time, holder } = await startHolder();
		await time.advanceTo(13_500); // the 10 s attempt abandoned at 13 s, the next live
		const [abandoned, live] = source.open("renew");
		expect([abandoned?.signal?.aborted, live?.signal?.aborted]).toEqual([true, false]);
		abandoned?.fail(leaseLost());
		await settle();
		expect(live?.signal?.aborted).toBe(true);
		expect(holder.stats()).toMatchObject({ renewals: 2, renewalsFailed: 1, leasesLost: 1 });
		await time.advanceTo(30_000);
		expect(source.times("renew")).toEqual([10_000, 13_000]);
	});

	it("a lease_lost thrown by the source before any answer ends the lease as well", async () => {
		const { source, time, holder } = await startHolder();
		source.renewLease = () => {
			throw leaseLost();
		};
		await time.advanceTo(10_000);
		expect(holder.stats()).toMatchObject({ renewals: 1, renewalsFailed: 0, leasesLost: 1 });
		const call = holder.next();
		await settle();
		source.only("acquire").answer(eight(10_000));
		expect(workerOf(await call)).toEqual([8]);
	});
});

describe("LeaseHolder renewal attempts that fail or are dropped", () => {
	it("counts an answer that is not a grant as a failed renewal and tries again a gap (1 s) on", async () => {
		const { source, time, holder } = await startHolder();
		await time.advanceTo(10_000);
		source.only("renew").answer(grant({ from: SERVER, to: SERVER, serverNowMs: SERVER + 10_000 }));
		await time.advanceTo(11_000);
		expect(source.times("renew")).toEqual([10_000, 11_000]);
		expect(holder.stats()).toMatchObject({ renewals: 2, renewalsGranted: 0, renewalsFailed: 1 });
	});

	it("close() aborts the attempt out; its answer, when it comes, counts neither way", async () => {
		const { source, time, holder } = await startHolder();
		await time.advanceTo(10_000);
		const renewal = source.only("renew");
		const closing = holder.close();
		expect(renewal.signal?.aborted).toBe(true);
		renewal.answer(grant({ from: SERVER, to: SERVER + 40_000, serverNowMs: SERVER + 10_000 }));
		await settle();
		source.only("release").answer(undefined);
		await closing;
		expect(holder.stats()).toMatchObject({
			renewals: 1,
			renewalsGranted: 0,
			renewalsFailed: 0,
			releases: 1,
		});
	});
});
