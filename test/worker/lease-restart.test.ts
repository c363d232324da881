/**
 * A leasing object across restarts: a span stored but never answered (the instance
 * ended between storing it and answering) stays reserved; a restarted object renews
 * the same lease from storage; the mark keeps every later span and ID above. Worker
 * IDs 630-639 are this file's.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ErrorBody, LeaseGrant, LeaseState } from "../../src/wire";
import { leaseHashOf, newLeaseId } from "../../src/worker/object/lease-secret";
import type { SpanResult } from "../../src/worker/object/object-protocol";
import type { SnowflakeWorker } from "../../src/worker/object/snowflake-worker";
import { tickOf } from "../shared/ticks";
import { appWith, restart, snowflakeStub, useTestClock, YieldingClock } from "./helpers";
import { leaseBody, leasesApp, renewPath } from "./lease-helpers";

const T = 1_800_000_000_000;
const EPOCH = 1_288_834_974_657;
const tick = (ms: number) => ms - EPOCH;
const leases = leasesApp();
/** A Worker with no lease settings at all, as one of an earlier config would be. */
const withoutLeases = appWith({});

describe("a leasing object restarted", () => {
	it("between storing a span and answering: the span stays reserved, nothing goes into it", async () => {
		const leaseHash = await leaseHashOf(newLeaseId());
		let stored: SpanResult | undefined;
		const reset = await runInDurableObject(
			snowflakeStub(630),
			async (instance: SnowflakeWorker, state) => {
				instance.clock = new YieldingClock(T);
				stored = await instance.acquireLease(630, { leaseHash, holder: "unanswered" });
				await state.storage.sync(); // stored, durable...
				state.abort("deliberate test reset (expected)"); // ...and the answer never leaves
			},
		).catch((error: unknown) => error);
		expect(reset).toBeInstanceOf(Error);
		expect(stored).toMatchObject({ ok: true, span: { from: tick(T), to: tick(T + 30_000) } });

		await useTestClock(630, T + 1_000);
		const state = await leases<LeaseState>("GET", "/leases/630");
		expect(state.body).toMatchObject({
			state: "held",
			holder: "unanswered",
			from: tick(T),
			to: tick(T + 30_000),
		});
		expect((await leases<ErrorBody>("POST", "/leases", { workerId: 630 })).status).toBe(409);
		// Whatever the calling Worker's config, the object issues nothing of its own.
		const issued = await withoutLeases("/snowflake/630?count=5");
		expect(issued.status).toBe(409);
		expect(issued.body).toMatchObject({ error: { code: "worker_id_leased" } });

		await useTestClock(630, T + 32_000);
		const { body: next } = await leases<LeaseGrant>("POST", "/leases", { workerId: 630 });
		expect(next.from).toBeGreaterThanOrEqual(tick(T + 30_000));
	});

	it("renews the same lease from storage, and spans never move back", async () => {
		await useTestClock(631, T);
		const { body: grant } = await leases<LeaseGrant>("POST", "/leases", { workerId: 631 });
		await restart(631);
		await useTestClock(631, T + 10_000);
		const renewed = await leases<LeaseGrant>("POST", renewPath(grant), leaseBody(grant));
		expect(renewed.status).toBe(200);
		expect(renewed.body).toMatchObject({ from: grant.from, to: tick(T + 40_000) });
		await restart(631);
		await useTestClock(631, T - 60_000); // a new host whose clock is a minute behind
		const again = await leases<LeaseGrant>("POST", renewPath(grant), leaseBody(grant));
		expect(again.body).toMatchObject({ from: grant.from, to: tick(T + 40_000) });
	});

	it("writes the record and the mark per renewal, and the object's stats survive", async () => {
		const clock = await useTestClock(633, T);
		const issued = await withoutLeases("/snowflake/633?count=7"); // before the worker ID was leased
		expect(issued.status).toBe(200);
		const before = await withoutLeases("/snowflake/633/stats");
		const { body: grant } = await leases<LeaseGrant>("POST", "/leases", { workerId: 633 });
		expect(grant.from).toBeGreaterThan(tickOf((issued.body.ids as string[])[6]));
		clock.time = T + 10_000;
		const { body: renewed } = await leases<LeaseGrant>("POST", renewPath(grant), leaseBody(grant));
		const stored = await runInDurableObject(snowflakeStub(633), (_: SnowflakeWorker, state) => ({
			mark: state.storage.kv.get("mark"),
			lease: state.storage.kv.get("lease"),
			stats: state.storage.kv.get<{ mark: number }>("stats"),
		}));
		expect(stored.mark).toBe(renewed.to - 1);
		expect(stored.lease).toMatchObject({ from: grant.from, to: renewed.to, released: false });
		expect(stored.stats?.mark).toBeLessThan(grant.from); // untouched by lease writes
		await restart(633);
		await useTestClock(633, T + 20_000);
		const after = await withoutLeases("/snowflake/633/stats");
		expect(after.body).toMatchObject({ issued: 7, since: before.body.since });
	});

	it("issues its own IDs only above every span once the last one and its grace ended", async () => {
		await useTestClock(632, T);
		const { body: grant } = await leases<LeaseGrant>("POST", "/leases", { workerId: 632 });
		await restart(632);
		await useTestClock(632, T + 30_000 + 1_999);
		expect((await withoutLeases("/snowflake/632")).status).toBe(409);
		await restart(632);
		await useTestClock(632, T + 32_000);
		const issued = await withoutLeases("/snowflake/632?count=3");
		expect(issued.status).toBe(200);
		for (const id of issued.body.ids as string[])
			expect(tickOf(id)).toBeGreaterThanOrEqual(grant.to);
		// Now that it issued above the span, the old lease cannot be stretched over those IDs.
		const lost = await leases<ErrorBody>("POST", renewPath(grant), leaseBody(grant));
		expect(lost.body.error?.code).toBe("lease_lost");
	});
});
