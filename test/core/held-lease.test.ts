/**
 * One lease as its holder keeps it (HeldLease), on its own: which grants move its
 * `to` (only this lease's, only forward), what it reports as its last tick, and when
 * the holder's wait for its calls in flight ends.
 */
import { describe, expect, it } from "vitest";
import { IdError } from "../../src/ids/errors";
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

	describe("explains its generator's refusals in the holder's terms", () => {
		const overloaded = new IdError("overloaded", "queued too long", 1);
		const regression = new IdError("clock_regression", "the clock is behind the mark", 1);
		/** Worker 7's lease on a clock the test sets, having issued its first ID at `issuedAt` (or none). */
		async function leaseAt(issuedAt?: number) {
			const time = { now: issuedAt ?? 0 };
			const span = grant({ from: 1_000, to: 31_000, serverNowMs: 1_000 });
			const lease = new HeldLease(
				span,
				layout,
				1_000,
				100,
				settings(() => time.now),
			);
			if (issuedAt !== undefined) await lease.generator.next();
			return lease;
		}

		it("out of wait budget at or past its to is lease_expired; before it, the refusal as it was", async () => {
			const lease = await leaseAt();
			// Only the core's refusals are explained: another error is returned as it is, even
			// one whose own `code` reads like theirs.
			for (const code of ["overloaded", "clock_regression"]) {
				const other = Object.assign(new Error("not an IdError"), { code });
				expect(lease.explained(other, 40_000, 2_000)).toBe(other);
			}
			expect(lease.explained(overloaded, 30_999, 2_000)).toBe(overloaded);
			expect(lease.explained(overloaded, 31_000, 2_000)).toMatchObject({
				code: "lease_expired",
				detail:
					"worker ID 7's leased span ended at 1970-01-01T00:00:31.000Z (the service's clock) and no renewal extended it within 2000 ms; the service is unreachable or slow: retry shortly",
			});
			const unrelated = new IdError("invalid_count", "count must be positive");
			expect(lease.explained(unrelated, 0, 2_000)).toBe(unrelated);
		});

		it("a regression before any ID: the span starts ahead, by its floor less the clock", async () => {
			const lease = await leaseAt();
			expect(lease.explained(regression, 0, 500)).toMatchObject({
				code: "overloaded",
				retryAfterSeconds: 1,
				detail:
					"worker ID 7's leased span starts 1000 ms ahead of the service's clock (its last holder released it moments ago, so the span begins after the last one ended), more than the 500 ms one call waits; retry then",
			});
		});

		it("a regression after IDs (the first at the floor, or above): the last ID lies ahead, by the tick after it", async () => {
			const lastId = (ms: number) =>
				`worker ID 7's last ID lies ${ms} ms ahead of the service's clock (this holder had followed a service clock that stepped ahead, then back; IDs only go up), more than the 500 ms one call waits; retry then`;
			// [first ID's tick, clock now, ms ahead, Retry-After]: at the floor, and above it.
			const cases = [
				[1_000, 0, 1_001, 2],
				[5_000, 2_000, 3_001, 4],
			] as const;
			for (const [issuedAt, now, aheadMs, retryAfterSeconds] of cases) {
				const lease = await leaseAt(issuedAt);
				expect(lease.lastTick()).toBe(issuedAt);
				expect(lease.explained(regression, now, 500)).toMatchObject({
					code: "overloaded",
					retryAfterSeconds,
					detail: lastId(aheadMs),
				});
			}
		});
	});
});
