/**
 * A lease holder's calls with exact expectations: single IDs on the generator's fast
 * path, what a closed or aborted holder answers, a span at the epoch, the acquire it
 * sends, and a holder on a host without process IDs.
 */
import { describe, expect, it } from "vitest";
import type { LeaseGrantFields } from "../../src/ids/leases/holder/lease-source";
import { SnowflakeLayout } from "../../src/ids/snowflake/layout";
import { grant, leaseLayout, leaseLost, ScriptedSource } from "./lease-script";
import { SimProcess, SimTime, settle } from "./lease-sim";
import { firstSpan, SERVER, startHolder } from "./started-holder";

const layout = new SnowflakeLayout(leaseLayout);
const fields = (ids: string[]) => ids.map((id) => layout.decompose(BigInt(id)));
/** A holder on simulated time holding `first` (worker 7's 30 s span unless given). */
const holding = (first: LeaseGrantFields = firstSpan, processId?: "none") =>
	startHolder({ first, ...(processId === "none" ? { processId: undefined } : {}) });

describe("LeaseHolder calls", () => {
	it("issues single IDs of one tick as consecutive sequences, a batch between them taking the next", async () => {
		const { holder } = await holding();
		const ids = [
			...(await holder.next()),
			...(await holder.next()),
			...(await holder.next(3)),
			...(await holder.next()),
		];
		expect(fields(ids)).toEqual(
			[0, 1, 2, 3, 4, 5].map((sequence) => ({ tick: SERVER, workerId: 7, sequence })),
		);
	});

	it("issues from tick 0 when its first span starts at the epoch", async () => {
		const { holder } = await holding(grant({ from: 0, to: 30_000, serverNowMs: 0 }));
		expect(fields(await holder.next(2))).toEqual([
			{ tick: 0, workerId: 7, sequence: 0 },
			{ tick: 0, workerId: 7, sequence: 1 },
		]);
	});

	it("asks for any worker ID with no keys it was not given, else for its holder label and worker ID", async () => {
		const { source } = await holding();
		expect(source.calls[0]?.args).toStrictEqual({});
		const time = new SimTime();
		const named = new ScriptedSource(time);
		const holder = new SimProcess(time, "named").holder({
			source: named,
			holder: "pod-7",
			workerId: 9,
		});
		void holder.start().catch(() => undefined);
		expect(named.only("acquire").args).toStrictEqual({ holder: "pod-7", workerId: 9 });
	});

	it("works on a host without process IDs (no fork check)", async () => {
		const { holder, time, source } = await holding(firstSpan, "none");
		expect(fields(await holder.next())).toEqual([{ tick: SERVER, workerId: 7, sequence: 0 }]);
		await time.advanceTo(10_000);
		source.only("renew").fail(leaseLost());
		await settle();
		const call = holder.next();
		await settle();
		const now = SERVER + 10_000;
		source
			.only("acquire")
			.answer(grant({ workerId: 8, from: now, to: now + 30_000, serverNowMs: now }));
		expect(fields(await call)).toEqual([{ tick: now, workerId: 8, sequence: 0 }]);
		// The new lease is used as is: no acquire per call.
		await holder.next(2);
		expect(source.open("acquire")).toEqual([]);
		expect(holder.stats().acquires).toBe(2);
	});

	it("works on a monotonic clock that reads below zero", async () => {
		const time = new SimTime();
		const source = new ScriptedSource(time);
		const holder = new SimProcess(time, "holder", -5_000).holder({ source });
		const starting = holder.start();
		source.only("acquire").answer(firstSpan);
		await starting;
		expect(fields(await holder.next())).toEqual([{ tick: SERVER, workerId: 7, sequence: 0 }]);
	});

	it("after close(), refuses calls as closed; after abort(), as aborted; close() then abort() stays closed", async () => {
		const closed = await holding();
		const closing = closed.holder.close();
		closed.holder.abort();
		await settle();
		closed.source.only("release").answer(undefined);
		await closing;
		await expect(closed.holder.next()).rejects.toMatchObject({
			code: "aborted",
			detail: "the leased generator was closed; it issues no more IDs",
		});

		const aborted = await holding();
		aborted.holder.abort();
		await expect(aborted.holder.next()).rejects.toMatchObject({
			code: "aborted",
			detail: "the leased generator was aborted (its signal); it issues no more IDs",
		});
	});

	it("closed while a call waits for a new lease: the call and every later one are refused", async () => {
		const { holder, time, source } = await holding();
		await time.advanceTo(10_000);
		source.only("renew").fail(leaseLost());
		await settle();
		const waiting = holder.next().catch((error: unknown) => error);
		await settle();
		const closing = holder.close();
		const now = SERVER + 10_000;
		source
			.only("acquire")
			.answer(grant({ workerId: 8, from: now, to: now + 30_000, serverNowMs: now }));
		await settle();
		source.only("release").answer(undefined);
		await closing;
		expect(await waiting).toMatchObject({ code: "aborted" });
		await expect(holder.next()).rejects.toMatchObject({ code: "aborted" });
		await expect(holder.next(3)).rejects.toMatchObject({ code: "aborted" });
		// The lease granted during the close is released, never renewed.
		await time.advanceTo(120_000);
		expect(source.calls.filter((c) => c.kind === "renew").map((c) => c.args)).toEqual([
			{ workerId: 7, leaseId: "L7" },
		]);
	});
});

describe("LeaseHolder bounds", () => {
	it("refuses a wait or borrowing bound that is not a finite number of ms, at least 0", () => {
		const time = new SimTime();
		const process = new SimProcess(time, "holder");
		const source = new ScriptedSource(time);
		for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, "5" as unknown as number]) {
			expect(() => process.holder({ source, maxWaitMs: bad })).toThrow(
				expect.objectContaining({
					code: "invalid_config",
					detail: `maxWaitMs must be a finite number of ms, at least 0; got ${String(bad)}`,
				}),
			);
			expect(() => process.holder({ source, maxBorrowMs: bad })).toThrow(
				expect.objectContaining({ detail: expect.stringMatching(/^maxBorrowMs must be/) }),
			);
		}
		expect(() => process.holder({ source, maxWaitMs: 0, maxBorrowMs: 0 })).not.toThrow();
	});

	it("after a renewal at the span's end, issues up to the new to and then waits again", async () => {
		const { holder, time, source } = await holding();
		// Every renewal fails until the span ends (one a second, at the gap's pace).
		for (let at = 10_000; at < 30_000; at += 1_000) {
			await time.advanceTo(at);
			source.only("renew").fail(new Error("network"));
		}
		await time.advanceTo(30_000);
		const atEnd = holder.next();
		await settle();
		// The service renews by one tick only: to = SERVER + 30,001.
		for (const call of source.open("renew")) {
			call.answer(grant({ from: SERVER, to: SERVER + 30_001, serverNowMs: SERVER + 30_000 }));
		}
		expect(fields(await atEnd)).toEqual([{ tick: SERVER + 30_000, workerId: 7, sequence: 0 }]);
		// Tick SERVER + 30,001 is `to`: not this holder's until another renewal, which goes
		// out a gap after the last (the span it learned is 1 ms: the 10 ms floor).
		await time.advanceTo(30_001);
		let settled = false;
		const past = holder.next().finally(() => {
			settled = true;
		});
		await time.advanceTo(30_009);
		expect(settled).toBe(false);
		expect(source.open("renew")).toEqual([]);
		await time.advanceTo(30_010);
		for (const call of source.open("renew")) {
			call.answer(grant({ from: SERVER, to: SERVER + 60_001, serverNowMs: SERVER + 30_001 }));
		}
		expect(fields(await past)).toEqual([{ tick: SERVER + 30_001, workerId: 7, sequence: 0 }]);
	});

	it("close() releases a held lease once, and never a lost one", async () => {
		const held = await holding();
		const closing = held.holder.close();
		await settle();
		held.source.only("release").answer(undefined);
		await closing;
		expect(held.holder.stats().releases).toBe(1);

		const lost = await holding();
		await lost.time.advanceTo(10_000);
		lost.source.only("renew").fail(leaseLost());
		await settle();
		await lost.holder.close();
		expect(lost.source.times("release")).toEqual([]);
		expect(lost.holder.stats().releases).toBe(0);
	});
});

describe("LeaseHolder renewals from a waiting call", () => {
	it("a call that reaches the span's end renews at once when the last renewal went out a gap ago", async () => {
		// Timers that never fire (a starved event loop): renewals go out from calls only.
		const { time, source, holder } = await startHolder({
			background: () => () => {},
			maxBorrowMs: 0,
		});
		await time.advanceTo(29_000);
		await holder.next(); // overdue since 10 s: a renewal goes out now, the next due at 30 s
		source.only("renew").fail(new Error("network"));
		await time.advanceTo(29_999);
		// Two ticks' worth: the second is `to`, reached at 30 s, a gap (1 s) after the last renewal.
		const call = holder.next(4_096 + 1);
		await time.advanceTo(30_000);
		expect(source.times("renew")).toEqual([29_000, 30_000]);
		source
			.only("renew")
			.answer(grant({ from: SERVER, to: SERVER + 60_000, serverNowMs: SERVER + 30_000 }));
		const ids = fields(await call);
		expect(ids.at(-1)).toEqual({ tick: SERVER + 30_000, workerId: 7, sequence: 0 });
		expect(holder.stats()).toMatchObject({ renewals: 2, renewalsGranted: 1, renewalsFailed: 1 });
	});

	it("a call that reaches the span's end renews at once when the next renewal is due after it", async () => {
		const { time, source, holder } = await startHolder({ maxWaitMs: 2_000 });
		// An object whose clock runs 20 s behind grants no further `to`: each renewal
		// is due 10 s after its answer, the one answered at 22.5 s only at 32.5 s.
		const behind = () =>
			source
				.only("renew")
				.answer(
					grant({ from: SERVER, to: SERVER + 30_000, serverNowMs: SERVER + time.now - 20_000 }),
				);
		await time.advanceTo(10_000);
		behind();
		await time.advanceTo(22_500);
		behind();
		await time.advanceTo(30_000);
		const call = holder.next();
		await settle();
		expect(source.times("renew")).toEqual([10_000, 20_000, 30_000]);
		source
			.only("renew")
			.answer(grant({ from: SERVER, to: SERVER + 60_000, serverNowMs: SERVER + 30_000 }));
		expect(fields(await call)).toEqual([{ tick: SERVER + 30_000, workerId: 7, sequence: 0 }]);
	});
});

describe("LeaseHolder renewal answers", () => {
	it("re-anchor its clock on the service's: an answer showing the service 500 ms further on moves it", async () => {
		const { holder, time, source } = await holding();
		await time.advanceTo(10_000);
		expect(holder.now()).toBe(SERVER + 10_000);
		source
			.only("renew")
			.answer(grant({ from: SERVER, to: SERVER + 40_500, serverNowMs: SERVER + 10_500 }));
		await settle();
		expect(holder.now()).toBe(SERVER + 10_500);
	});

	it("a late answer for a lease already replaced leaves the new lease's renewals on schedule", async () => {
		const { holder, time, source } = await holding();
		await time.advanceTo(10_000);
		const late = source.only("renew"); // left unanswered: abandoned at its deadline (13 s)
		await time.advanceTo(13_000);
		source.open("renew")[1]?.fail(leaseLost());
		await settle();
		const call = holder.next();
		await settle();
		const now = SERVER + 13_000;
		source
			.only("acquire")
			.answer(grant({ workerId: 8, from: now, to: now + 30_000, serverNowMs: now }));
		await call;
		// Worker 7's renewal answers now, granted: it is not the lease followed any more.
		late.answer(grant({ from: SERVER, to: SERVER + 40_000, serverNowMs: SERVER + 13_000 }));
		await settle();
		await time.advanceTo(25_000);
		const renewed = source.calls
			.filter((c) => c.kind === "renew")
			.map((c) => [Math.round(c.at), c.args]);
		expect(renewed).toEqual([
			[10_000, { workerId: 7, leaseId: "L7" }],
			[13_000, { workerId: 7, leaseId: "L7" }],
			[23_000, { workerId: 8, leaseId: "L8" }],
		]);
	});
});

describe("LeaseHolder in a copy of its process", () => {
	it("never renews nor releases the original's lease, even before a call notices the copy", async () => {
		const { holder, time, source, process: host } = await holding();
		await time.advanceTo(5_000);
		host.pid = 101; // a copy (another pid): no call made in it yet
		await time.advanceTo(60_000);
		expect(source.times("renew")).toEqual([]);
		await holder.close();
		expect(source.times("release")).toEqual([]);
		expect(holder.stats()).toMatchObject({ renewals: 0, releases: 0 });
	});

	it("drops the original's renewal out at once when a call finds the copy, and renews its own lease", async () => {
		const { holder, time, source, process: host } = await holding();
		await time.advanceTo(10_000);
		const original = source.only("renew");
		host.pid = 101;
		const call = holder.next();
		await settle();
		expect(original.signal?.aborted).toBe(true);
		const now = SERVER + 10_000;
		source
			.only("acquire")
			.answer(grant({ workerId: 8, from: now, to: now + 30_000, serverNowMs: now }));
		await call;
		// The original's renewal fails late, the lease lost: the copy's own renewals go on.
		original.fail(leaseLost());
		await time.advanceTo(20_000);
		expect(source.calls.filter((c) => c.kind === "renew").map((c) => c.args)).toEqual([
			{ workerId: 7, leaseId: "L7" },
			{ workerId: 8, leaseId: "L8" },
		]);
		expect(source.times("renew")).toEqual([10_000, 20_000]);
	});
});
