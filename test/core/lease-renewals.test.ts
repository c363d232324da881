/**
 * A lease holder's background renewals (LeaseRenewals) on their own, with a host
 * that only records what they tell it: which lease they renew and when, the one
 * timer they keep set, when a renewal is overdue, and what they do with answers of
 * attempts they gave up on. Simulated time; the source is answered call by call.
 *
 *   const { renewals, lease, source, time } = renewing();
 *   renewals.follow(lease(7));   // renewed at 10 s, 20 s, … (a 30 s span)
 */
import { describe, expect, it } from "vitest";
import { HeldLease } from "../../src/ids/leases/holder/held-lease";
import { LeaseRenewals } from "../../src/ids/leases/holder/renewals";
import { ServerClock } from "../../src/ids/leases/holder/server-clock";
import { SnowflakeLayout } from "../../src/ids/snowflake/layout";
import { grant, leaseLayout, leaseLost, refusal, ScriptedSource } from "./lease-script";
import { SimTime, settle } from "./lease-sim";

const SERVER = 1_000_000;
const layout = new SnowflakeLayout(leaseLayout);

/** LeaseRenewals on simulated time; the service's clock reads SERVER + true time. */
function renewing() {
	const time = new SimTime();
	const source = new ScriptedSource(time);
	const monotonic = () => time.now;
	const clock = new ServerClock(monotonic, async () => {});
	clock.anchor(SERVER);
	/** The delay of every timer the renewals set, in order. */
	const timers: number[] = [];
	/** What the renewals told the host, in order. */
	const told: string[] = [];
	const host = { owns: true };
	const renewals = new LeaseRenewals({
		source,
		clock,
		monotonic,
		background: (callback, ms) => {
			timers.push(ms);
			return time.after("renewals", ms, callback);
		},
		ownsHere: () => host.owns,
		extended: (lease) => told.push(`extended ${lease.leaseId}`),
		ended: (lease) => told.push(`ended ${lease.leaseId}`),
	});
	/** Worker `workerId`'s lease "L<workerId>": a 30 s span granted now. */
	const lease = (workerId: number) => {
		const now = SERVER + time.now;
		return new HeldLease(
			grant({ workerId, from: now, to: now + 30_000, serverNowMs: now }),
			layout,
			now,
			100,
			{
				clock,
				maxWaitMs: 0,
				maxBorrowMs: 0,
				random: () => 0,
				beyondSpan: () => Promise.reject(new Error("past the span")),
			},
		);
	};
	/** The leases renewed, with when: "L7@10000". */
	const renewed = () =>
		source.calls
			.filter((c) => c.kind === "renew")
			.map((c) => `${(c.args as { leaseId: string }).leaseId}@${c.at}`);
	return { time, source, renewals, lease, timers, told, host, renewed };
}

describe("LeaseRenewals of one lease at a time", () => {
	it("follow() of another lease drops the live attempt (aborted, no failure) and ignores its late grant", async () => {
		const { time, source, renewals, lease, told, renewed } = renewing();
		const a = lease(7);
		renewals.follow(a);
		await time.advanceTo(10_000);
		const first = source.only("renew");
		await time.advanceTo(11_000);
		renewals.follow(lease(8)); // due a third of its span on: 21 s
		expect(first.signal?.aborted).toBe(true);
		await time.advanceTo(15_000);
		first.answer(grant({ from: SERVER, to: SERVER + 45_000, serverNowMs: SERVER + 15_000 }));
		await settle();
		expect(a.to).toBe(SERVER + 45_000); // a grant only ever moves `to` on
		expect(told).toEqual(["extended L7"]);
		await time.advanceTo(21_000);
		expect(renewed()).toEqual(["L7@10000", "L8@21000"]);
		expect(renewals.counts).toEqual({ renewals: 2, renewalsGranted: 0, renewalsFailed: 0 });
	});

	it("sends nothing for a lease it no longer follows: soon() and now() on it change nothing", async () => {
		const { time, renewals, lease, renewed } = renewing();
		const a = lease(7);
		renewals.follow(a);
		await time.advanceTo(1_000);
		renewals.follow(lease(8));
		await time.advanceTo(5_000);
		renewals.soon(a);
		renewals.now(a);
		expect(renewals.overdue()).toBe(false);
		await time.advanceTo(10_999);
		expect(renewed()).toEqual([]);
		await time.advanceTo(11_000); // B's, due a third of its span after it was followed
		expect(renewed()).toEqual(["L8@11000"]);
	});

	it("renews no lease marked lost, and none is due after its live attempt fails", async () => {
		const { time, source, renewals, lease, renewed } = renewing();
		const a = lease(7);
		renewals.follow(a);
		await time.advanceTo(10_000);
		a.lost = true;
		source.only("renew").fail(refusal("unavailable"));
		await settle();
		expect(renewals.overdue()).toBe(false);
		renewals.now(a);
		renewals.soon(a);
		await time.advanceTo(60_000);
		expect(renewed()).toEqual(["L7@10000"]);
	});

	it("stops for good in a copy of the process (the host no longer owns the lease)", async () => {
		const { time, renewals, lease, host, renewed } = renewing();
		const a = lease(7);
		renewals.follow(a);
		await time.advanceTo(5_000);
		host.owns = false;
		await time.advanceTo(10_000); // its timer: found a copy, it stops
		expect(renewals.overdue()).toBe(false);
		host.owns = true;
		renewals.now(a);
		renewals.soon(a);
		await time.advanceTo(60_000);
		expect(renewed()).toEqual([]);
	});
});

describe("LeaseRenewals' pace", () => {
	it("is overdue from the renewal's due time, and while one is live, from its deadline", async () => {
		const { time, renewals, lease } = renewing();
		renewals.follow(lease(7));
		await time.advanceTo(9_999);
		expect(renewals.overdue()).toBe(false);
		time.now = 10_000; // the timer does not fire: a starved event loop
		expect(renewals.overdue()).toBe(true);
		await time.advanceTo(10_000); // now it does: a renewal goes out, its deadline 13 s
		expect(renewals.overdue()).toBe(false);
		time.now = 12_999;
		expect(renewals.overdue()).toBe(false);
		time.now = 13_000;
		expect(renewals.overdue()).toBe(true);
	});

	it("keeps one timer, for what comes next in whole ms: the renewal, a live one's deadline, the gap's end", async () => {
		const { time, source, renewals, lease, timers, renewed } = renewing();
		renewals.follow(lease(7));
		await time.advanceTo(10_000);
		await time.advanceTo(10_200);
		source.only("renew").fail(refusal("unavailable")); // the next a gap (1 s) after 10 s
		await time.advanceTo(11_500);
		source
			.only("renew")
			.answer(grant({ from: SERVER, to: SERVER + 41_500, serverNowMs: SERVER + 11_500 }));
		await time.advanceTo(21_500);
		expect(renewed()).toEqual(["L7@10000", "L7@11000", "L7@21500"]);
		expect(timers).toEqual([10_000, 3_000, 800, 3_000, 10_000, 3_000]);
	});

	it("soon(): a call waiting at the span's end brings the next renewal forward to now", async () => {
		const { time, renewals, lease, renewed } = renewing();
		const a = lease(7);
		renewals.follow(a);
		await time.advanceTo(4_000);
		renewals.soon(a);
		await settle();
		expect(renewed()).toEqual(["L7@4000"]);
	});

	it("soon() leaves a live renewal to its deadline: no second one meanwhile", async () => {
		const { time, source, renewals, lease, renewed } = renewing();
		const a = lease(7);
		renewals.follow(a);
		await time.advanceTo(11_000);
		renewals.soon(a);
		await time.advanceTo(12_999);
		expect(source.only("renew").signal?.aborted).toBe(false);
		await time.advanceTo(13_000);
		expect(renewed()).toEqual(["L7@10000", "L7@13000"]);
	});
});

describe("LeaseRenewals' abandoned attempts", () => {
	it("count an abandoned attempt's failure once, at its deadline, and start nothing when it comes", async () => {
		const { time, source, renewals, lease, renewed } = renewing();
		renewals.follow(lease(7));
		await time.advanceTo(13_500); // the first abandoned at 13 s, the second live
		source.open("renew")[0]?.fail(refusal("unavailable"));
		await time.advanceTo(15_999);
		expect(renewed()).toEqual(["L7@10000", "L7@13000"]);
		expect(renewals.counts).toEqual({ renewals: 2, renewalsGranted: 0, renewalsFailed: 1 });
	});

	it("end the lease on a refusal that ends it, whatever came before; no timer renews it after", async () => {
		const { time, source, renewals, lease, told, renewed } = renewing();
		const a = lease(7);
		renewals.follow(a);
		await time.advanceTo(14_000); // the first abandoned at 13 s, the second live
		const [first, second] = source.open("renew");
		// The abandoned one's late grant: applied, but the live one still runs to its deadline.
		first?.answer(grant({ from: SERVER, to: SERVER + 44_000, serverNowMs: SERVER + 14_000 }));
		await time.advanceTo(14_500);
		renewals.soon(a); // a call waits meanwhile: the live one stays
		await time.advanceTo(15_000);
		second?.fail(leaseLost());
		await time.advanceTo(60_000);
		expect(told).toEqual(["extended L7", "ended L7"]);
		expect(renewed()).toEqual(["L7@10000", "L7@13000"]);
		expect(renewals.counts).toEqual({ renewals: 2, renewalsGranted: 0, renewalsFailed: 1 });
	});
});
