/**
 * One lease as its holder keeps it (HeldLease), on its own: which grants move its
 * `to` (only this lease's, only forward), what it reports as its last tick, and when
 * the holder's wait for its calls in flight ends.
 */
import { describe, expect, it } from "vitest";
import { HeldLease, type SpanGeneratorSettings } from "../../src/ids/leases/holder/held-lease";
import { ServerClock } from "../../src/ids/leases/holder/server-clock";
import { SnowflakeLayout } from "../../src/ids/snowflake/layout";
import { grant, leaseLayout } from "./lease-script";

const layout = new SnowflakeLayout(leaseLayout);

/** A generator's settings on a clock reading `time()` (the service's ms, anchored at 0). */
function settings(time: () => number = () => 0): SpanGeneratorSettings {
	const clock = new ServerClock(time, async () => {});
	clock.anchor(time());
	return {
		clock,
		maxWaitMs: 0,
		maxBorrowMs: 0,
		random: () => 0,
		beyondSpan: () => Promise.reject(new Error("past the span")),
	};
}

/** Worker 7's lease "L7" for ticks [1,000, 31,000), granted at 1,000. */
function held(): HeldLease {
	const span = grant({ from: 1_000, to: 31_000, serverNowMs: 1_000 });
	return new HeldLease(span, layout, 1_000, 100, settings());
}

describe("HeldLease", () => {
	it("moves to on for a grant of this lease that reaches further, and says so", () => {
		const lease = held();
		expect(lease.extend(grant({ from: 1_000, to: 41_000, serverNowMs: 10_000 }))).toBe(true);
		expect(lease.to).toBe(41_000);
		expect(lease.endMs()).toBe(41_000);
		expect(lease.spanMs).toBe(31_000);
	});

	it("keeps to for a grant that reaches no further (equal or less), and says it did not move", () => {
		const lease = held();
		expect(lease.extend(grant({ from: 1_000, to: 31_000, serverNowMs: 2_000 }))).toBe(false);
		expect(lease.to).toBe(31_000);
		expect(lease.extend(grant({ from: 1_000, to: 20_000, serverNowMs: 5_000 }))).toBe(false);
		expect(lease.to).toBe(31_000);
		// The span length is learned from grants that moved `to` only: one that did not
		// (the object's clock behind an earlier `to`) shows more than the span, or less.
		expect(lease.spanMs).toBe(30_000);
	});

	it("keeps its span length for a grant whose clock reads at or past its to (an object clock read ahead)", () => {
		const lease = held();
		// to moves on, but the clock reading is past it: that grant tells no span.
		expect(lease.extend(grant({ from: 1_000, to: 41_000, serverNowMs: 41_000 }))).toBe(true);
		expect(lease.to).toBe(41_000);
		expect(lease.spanMs).toBe(30_000);
		expect(lease.extend(grant({ from: 1_000, to: 42_000, serverNowMs: 60_000 }))).toBe(true);
		expect(lease.spanMs).toBe(30_000);
		// A grant consistent again tells the span again.
		expect(lease.extend(grant({ from: 1_000, to: 50_000, serverNowMs: 48_000 }))).toBe(true);
		expect(lease.spanMs).toBe(2_000);
	});

	it("ignores a grant of another lease: another leaseId, or the same leaseId of another worker ID", () => {
		const lease = held();
		const further = { from: 1_000, to: 90_000, serverNowMs: 10_000 };
		expect(lease.extend(grant({ ...further, leaseId: "other" }))).toBe(false);
		expect(lease.extend(grant({ ...further, workerId: 8, leaseId: "L7" }))).toBe(false);
		expect(lease.to).toBe(31_000);
		expect(lease.spanMs).toBe(30_000);
	});

	it("reports -1 as its last tick before its generator issued, then the tick of the last ID", async () => {
		// A span at the epoch: tick 0 is a tick like any other, not "nothing issued".
		let now = 0;
		const span = grant({ from: 0, to: 30_000, serverNowMs: 0 });
		const lease = new HeldLease(
			span,
			layout,
			0,
			100,
			settings(() => now),
		);
		expect(lease.lastTick()).toBe(-1);
		await lease.generator.next();
		expect(lease.lastTick()).toBe(0);
		now = 12;
		await lease.generator.next();
		expect(lease.lastTick()).toBe(12);
	});

	it("drained() resolves at once with no call in flight, else when the last one settles", async () => {
		const lease = held();
		let order: string[] = [];
		await lease.drained().then(() => order.push("idle"));
		expect(order).toEqual(["idle"]);

		order = [];
		lease.calls = 2;
		const first = lease.drained().then(() => order.push("first"));
		const second = lease.drained().then(() => order.push("second"));
		lease.settled();
		await Promise.resolve();
		await Promise.resolve();
		expect(order).toEqual([]); // one call still in flight
		lease.settled();
		await Promise.all([first, second]);
		expect(order).toEqual(["first", "second"]);
		expect(lease.calls).toBe(0);
	});
});
