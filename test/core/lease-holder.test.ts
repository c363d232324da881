/**
 * The lease holder's rules with exact expectations, on simulated time and a source
 * the test answers call by call: when it renews, what it issues, how it waits at
 * the span's end, and what it does on lease_lost, close and abort.
 */
import { describe, expect, it } from "vitest";
import type { LeaseHolder } from "../../src/ids/leases/holder/lease-holder";
import type { LeaseGrantFields } from "../../src/ids/leases/holder/lease-source";
import { SnowflakeLayout } from "../../src/ids/snowflake/layout";
import { expectSnowflakesIncreasing } from "../shared/order";
import { grant, leaseLayout, leaseLost, refusal, type ScriptedSource } from "./lease-script";
import { type SimTime, settle } from "./lease-sim";
import { SERVER, startHolder } from "./started-holder";

const layout = new SnowflakeLayout(leaseLayout);
const fields = (ids: string[]) => ids.map((id) => layout.decompose(BigInt(id)));
/** A holder whose first lease (worker 7, a 30 s span unless `first`) is granted at t = 0. */
const started = (options: { maxWaitMs?: number; first?: LeaseGrantFields } = {}) =>
	startHolder(options);

/** Answers every open renewal as the service would at true time now: `to` = its clock + 30 s. */
function renewAll(source: ScriptedSource, time: SimTime, workerId = 7) {
	for (const call of source.open("renew")) {
		const now = SERVER + time.now;
		call.answer(grant({ workerId, from: SERVER, to: now + 30_000, serverNowMs: now }));
	}
}

/** Starts a call and records when (true time) and how it settled. */
function pending(holder: LeaseHolder, time: SimTime, count = 1) {
	const outcome: { at?: number; ids?: string[]; error?: unknown } = {};
	holder.next(count).then(
		(ids) => Object.assign(outcome, { at: time.now, ids }),
		(error: unknown) => Object.assign(outcome, { at: time.now, error }),
	);
	return outcome;
}

describe("LeaseHolder", () => {
	it("issues in its span on the service's clock, whatever the local clock reads", async () => {
		const { holder, time } = await started();
		expect(holder.workerId).toBe(7);
		expect(fields(await holder.next(2))).toEqual([
			{ tick: SERVER, workerId: 7, sequence: 0 },
			{ tick: SERVER, workerId: 7, sequence: 1 },
		]);
		await time.advance(1_234);
		expect(fields(await holder.next())).toEqual([
			{ tick: SERVER + 1_234, workerId: 7, sequence: 0 },
		]);
	});

	it("renews when a third of the time left has passed: every 10 s under a 30 s span", async () => {
		const { source, time } = await started();
		for (const at of [10_000, 20_000, 30_000, 40_000]) {
			await time.advanceTo(at - 1);
			expect(source.open("renew")).toHaveLength(0);
			await time.advanceTo(at);
			renewAll(source, time);
		}
		expect(source.times("renew")).toEqual([10_000, 20_000, 30_000, 40_000]);
		expect(source.calls[1]?.args).toEqual({ workerId: 7, leaseId: "L7" });
	});

	it("tries again at once when a renewal fails, but a thirtieth of the span (1 s) after the last start at the soonest", async () => {
		const { source, time, holder } = await started();
		await time.advanceTo(10_000);
		source.only("renew").fail(refusal("unavailable")); // at once: the next a gap on, at 11 s
		await time.advanceTo(13_000);
		source.only("renew").fail(refusal("unavailable")); // 2 s after its start: the next at once
		await settle();
		source.only("renew").fail(refusal("unavailable")); // at once again: the next at 14 s
		await time.advanceTo(14_500);
		expect(source.times("renew")).toEqual([10_000, 11_000, 13_000, 14_000]);
		expect(holder.stats()).toMatchObject({ renewals: 4, renewalsGranted: 0, renewalsFailed: 3 });
	});

	it("gives each renewal a deadline of a tenth of the span: a hung one is abandoned, its signal aborted, the next sent", async () => {
		const { source, time, holder } = await started();
		await time.advanceTo(29_000);
		expect(source.times("renew")).toEqual([10_000, 13_000, 16_000, 19_000, 22_000, 25_000, 28_000]);
		const signals = source.calls.filter((c) => c.kind === "renew").map((c) => c.signal?.aborted);
		expect(signals).toEqual([true, true, true, true, true, true, false]);
		expect(holder.stats()).toMatchObject({ renewals: 7, renewalsGranted: 0, renewalsFailed: 6 });
	});

	it("renews from the call path when its timer cannot fire (a loop that never yields)", async () => {
		const { time, source, holder } = await startHolder({ background: () => () => {} });
		await time.advanceTo(9_999);
		await holder.next();
		expect(source.open("renew")).toHaveLength(0);
		await time.advanceTo(10_000);
		await holder.next(); // a new tick: the fast path misses, the renewal is due
		expect(source.times("renew")).toEqual([10_000]);
		await holder.next(); // the same tick: no second renewal
		expect(source.times("renew")).toEqual([10_000]);
	});

	it("at the span's end, waits for a renewal and issues the tick it needed", async () => {
		const { source, time, holder } = await started();
		await time.advanceTo(30_000); // renewals sent at 10 s and 16.7 s: both unanswered
		const call = pending(holder, time);
		await time.advanceTo(30_500);
		expect(call.at).toBeUndefined();
		renewAll(source, time);
		await settle();
		expect(call.at).toBe(30_500);
		expect(fields(call.ids ?? [])).toEqual([{ tick: SERVER + 30_000, workerId: 7, sequence: 0 }]);
		expect(time.pending("holder")).toBe(1); // the renewals' timer: the call's wait left none
	});

	it("rejects lease_expired when no renewal comes within maxWaitMs, and issues once one does", async () => {
		const { source, time, holder } = await started({ maxWaitMs: 2_000 });
		await time.advanceTo(30_000);
		const call = pending(holder, time);
		await time.advanceTo(40_000);
		expect(call.at).toBe(32_000);
		expect(call.error).toMatchObject({ code: "lease_expired", retryAfterSeconds: 1 });
		renewAll(source, time);
		await settle();
		expect(fields(await holder.next())).toEqual([
			{ tick: SERVER + 40_000, workerId: 7, sequence: 0 },
		]);
	});

	it("never issues a tick at or past `to` (a span granted in the past is used up to its end)", async () => {
		const { time, holder } = await started({ maxWaitMs: 0 });
		await time.advanceTo(29_999);
		expect(fields(await holder.next())[0]?.tick).toBe(SERVER + 29_999);
		await time.advanceTo(30_000);
		await expect(holder.next()).rejects.toMatchObject({ code: "lease_expired" });
	});

	it("keeps the largest `to` when renewal answers come out of order", async () => {
		const { source, time, holder } = await started({ maxWaitMs: 0 });
		await time.advanceTo(16_667); // two renewals open
		const [first, second] = source.open("renew");
		second?.answer(grant({ from: SERVER, to: SERVER + 46_667, serverNowMs: SERVER + 16_667 }));
		first?.answer(grant({ from: SERVER, to: SERVER + 40_000, serverNowMs: SERVER + 10_000 }));
		await time.advanceTo(46_000);
		renewAll(source, time); // renewals sent meanwhile: answered, but not yet arrived anyway
		expect(fields(await holder.next())[0]?.tick).toBe(SERVER + 46_000);
	});

	it("on lease_lost acquires again and continues above its last ID, on another worker ID", async () => {
		const { source, time, holder } = await started();
		await time.advanceTo(5_000);
		const before = await holder.next(3);
		await time.advanceTo(10_000);
		source.only("renew").fail(leaseLost());
		await settle();
		expect(holder.stats().leasesLost).toBe(1);
		const call = pending(holder, time, 2);
		await settle();
		// A span whose start lies below the holder's last tick: the holder starts above it.
		source.only("acquire").answer(
			grant({
				workerId: 9,
				from: SERVER + 4_000,
				to: SERVER + 40_000,
				serverNowMs: SERVER + 4_000,
			}),
		);
		await settle();
		expect(fields(call.ids ?? [])).toEqual([
			{ tick: SERVER + 10_000, workerId: 9, sequence: 0 },
			{ tick: SERVER + 10_000, workerId: 9, sequence: 1 },
		]);
		expectSnowflakesIncreasing([...before, ...(call.ids ?? [])]);
		expect(holder.workerId).toBe(9);
		expect(source.open("release")).toHaveLength(0); // a lost lease is not released
	});

	it("keeps call order across a change of lease: a call in flight on the lost lease comes first", async () => {
		const { source, time, holder } = await started();
		await time.advanceTo(10_000);
		const first = pending(holder, time, 4_096 * 8); // 8 ticks: borrows 5 ahead, then waits
		await settle();
		source.only("renew").fail(leaseLost());
		await settle();
		const second = pending(holder, time);
		await settle();
		// However quickly a new lease comes, the second call's IDs come after the first call's.
		const answerAcquire = () => {
			for (const call of source.open("acquire")) {
				const now = SERVER + time.now;
				call.answer(grant({ workerId: 2, from: now, to: now + 30_000, serverNowMs: now }));
			}
		};
		answerAcquire();
		await time.advance(10);
		answerAcquire();
		await settle();
		expect(first.ids).toHaveLength(4_096 * 8);
		expectSnowflakesIncreasing([...(first.ids ?? []), ...(second.ids ?? [])]);
		expect(fields(second.ids ?? [])[0]?.workerId).toBe(2);
	});

	it("ignores a renewal answer for another lease", async () => {
		const { source, time, holder } = await started({ maxWaitMs: 0 });
		await time.advanceTo(10_000);
		source.only("renew").answer(
			grant({
				leaseId: "other",
				from: SERVER,
				to: SERVER + 90_000,
				serverNowMs: SERVER + 10_000,
			}),
		);
		await time.advanceTo(30_000);
		await expect(holder.next()).rejects.toMatchObject({ code: "lease_expired" });
	});

	it("starts above its last ID even when the new lease's span starts below it", async () => {
		const { source, time, holder } = await started();
		await time.advanceTo(10_000);
		const [last] = fields(await holder.next());
		source.only("renew").fail(leaseLost());
		await settle();
		const call = pending(holder, time);
		await settle();
		// The same worker ID again, its span from an earlier tick (a server clock behind).
		source
			.only("acquire")
			.answer(grant({ from: SERVER + 2_000, to: SERVER + 32_000, serverNowMs: SERVER + 2_000 }));
		await settle();
		expect(fields(call.ids ?? [])[0]).toEqual({
			tick: (last?.tick ?? 0) + 1,
			workerId: 7,
			sequence: 0,
		});
	});

	it("waits for a span that starts ahead, then issues at its start", async () => {
		// A worker ID released 1.5 s ago: its new span begins where the last one ended.
		const first = grant({ from: SERVER + 1_500, to: SERVER + 31_500, serverNowMs: SERVER });
		const { holder, time } = await started({ maxWaitMs: 2_000, first });
		const call = pending(holder, time);
		await time.advanceTo(2_000);
		// Borrowing: the first tick may lead the clock by maxBorrowMs (5) and one tick.
		expect(call.at).toBe(1_494);
		expect(fields(call.ids ?? [])).toEqual([{ tick: SERVER + 1_500, workerId: 7, sequence: 0 }]);
	});

	it("refuses (overloaded, with a Retry-After) a span that starts further ahead than maxWaitMs", async () => {
		const first = grant({ from: SERVER + 25_000, to: SERVER + 55_000, serverNowMs: SERVER });
		const { holder } = await started({ maxWaitMs: 2_000, first });
		await expect(holder.next()).rejects.toMatchObject({
			code: "overloaded",
			retryAfterSeconds: 25,
		});
	});

	it("close() stops renewing, lets calls settle, releases; later calls reject aborted", async () => {
		const { source, time, holder } = await started();
		await holder.next();
		const closing = holder.close();
		await settle();
		expect(source.only("release").args).toEqual({ workerId: 7, leaseId: "L7" });
		source.only("release").answer(undefined);
		await closing;
		await expect(holder.next()).rejects.toMatchObject({ code: "aborted" });
		await time.advanceTo(60_000);
		expect(source.times("renew")).toEqual([]);
		expect(time.pending("holder")).toBe(0);
	});

	it("close() wakes a call waiting at the span's end (aborted) and still releases", async () => {
		const { source, time, holder } = await started();
		await time.advanceTo(30_000);
		const call = pending(holder, time);
		await time.advanceTo(30_100);
		const closing = holder.close();
		await settle();
		expect(call.error).toMatchObject({ code: "aborted" });
		source.only("release").answer(undefined);
		await closing;
	});

	it("abort() rejects waiting calls at once and releases in the background", async () => {
		const { source, time, holder } = await started();
		await time.advanceTo(10_000);
		source.only("renew").fail(leaseLost());
		await settle();
		const call = pending(holder, time); // waits for a new lease
		await settle();
		holder.abort();
		await settle();
		expect(call.error).toMatchObject({ code: "aborted" });
		source.only("acquire").answer(
			grant({
				workerId: 8,
				from: SERVER + 10_000,
				to: SERVER + 40_000,
				serverNowMs: SERVER + 10_000,
			}),
		);
		await settle();
		// The lease granted after the abort is released at once.
		expect(source.only("release").args).toEqual({ workerId: 8, leaseId: "L8" });
	});

	it("in another process (a copy), drops the lease without releasing it and acquires its own", async () => {
		const { source, process, holder, time } = await started();
		await time.advanceTo(3_000);
		const [last] = fields(await holder.next());
		process.pid = 101; // a copy of the process
		const call = pending(holder, time);
		await settle();
		expect(call.at).toBeUndefined();
		source.only("acquire").answer(
			grant({
				workerId: 8,
				from: SERVER + 3_000,
				to: SERVER + 33_000,
				serverNowMs: SERVER + 3_000,
			}),
		);
		await settle();
		expect(fields(call.ids ?? [])).toEqual([
			{ tick: (last?.tick ?? 0) + 1, workerId: 8, sequence: 0 },
		]);
		await time.advanceTo(60_000);
		expect(source.open("release")).toHaveLength(0);
		const renewedL7 = source.calls.filter(
			(c) => c.kind === "renew" && (c.args as { leaseId: string }).leaseId === "L7",
		);
		expect(renewedL7).toEqual([]); // the copy never renews the original's lease
	});
});
