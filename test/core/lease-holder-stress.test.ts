/**
 * The lease holder under stress, with exact expectations on simulated time: an
 * object clock that steps ahead and back, a network outage that swallows every
 * renewal for two thirds of a span, renewal answers that come after their deadline,
 * and calls queued behind one that waits at the span's end on a busy event loop.
 */
import { describe, expect, it } from "vitest";
import type { LeaseHolder } from "../../src/ids/leases/holder/lease-holder";
import { SnowflakeLayout } from "../../src/ids/snowflake/layout";
import { expectSnowflakesIncreasing } from "../shared/order";
import { grant, leaseLayout } from "./lease-script";
import { type SimTime, settle } from "./lease-sim";
import { SERVER, startHolder } from "./started-holder";

const layout = new SnowflakeLayout(leaseLayout);
const tickOf = (id: string) => layout.decompose(BigInt(id)).tick;
/** A holder whose first lease (worker 7, [SERVER, SERVER + 30 s)) is granted at t = 0. */
const started = (sleepLateMs = 0) => startHolder({ sleepLateMs, maxWaitMs: 2_000 });

/** Starts a call and records when (true time) and how it settled. */
function pending(holder: LeaseHolder, time: SimTime) {
	const outcome: { at?: number; ids?: string[]; error?: unknown } = {};
	holder.next().then(
		(ids) => Object.assign(outcome, { at: time.now, ids }),
		(error: unknown) => Object.assign(outcome, { at: time.now, error }),
	);
	return outcome;
}

describe("LeaseHolder and an object clock that stepped ahead, then back", () => {
	it("steps its clock back at the first renewal answered a span behind it, waits above its last ID, then issues again; renewals keep their pace", async () => {
		const { source, time, holder } = await started();
		// At 10 s the object's clock reads 60 s ahead: its grant reaches 90 s past the true time.
		await time.advanceTo(10_000);
		source
			.only("renew")
			.answer(grant({ from: SERVER, to: SERVER + 100_000, serverNowMs: SERVER + 70_000 }));
		await settle();
		const [ahead] = await holder.next();
		expect(tickOf(ahead ?? "")).toBe(SERVER + 70_000);
		// Its clock is right again from then on: the service answers `to` = max(to, now + 30 s).
		const answerSanely = () => {
			for (const call of source.open("renew")) {
				const now = SERVER + time.now;
				call.answer(
					grant({ from: SERVER, to: Math.max(SERVER + 100_000, now + 30_000), serverNowMs: now }),
				);
			}
		};
		await time.advanceTo(20_000);
		expect(holder.now()).toBe(SERVER + 80_000);
		answerSanely(); // 60 s behind the holder's reading: more than a span
		await settle();
		expect(holder.now()).toBe(SERVER + 20_000);
		// Its last ID lies 50 s ahead: calls refuse with when to retry, never go below it.
		await expect(holder.next()).rejects.toMatchObject({
			code: "overloaded",
			retryAfterSeconds: 50,
		});
		const calls: ReturnType<typeof pending>[] = [];
		for (let at = 21_000; at <= 90_000; at += 1_000) {
			await time.advanceTo(at);
			answerSanely();
			calls.push(pending(holder, time));
		}
		await time.advanceTo(91_000);
		// Up to 67 s the last ID is more than maxWaitMs ahead; from 68 s calls wait for it.
		const refused = calls.slice(0, 47).map((call) => (call.error as { code?: string }).code);
		expect(refused).toEqual(Array(47).fill("overloaded"));
		const ids = calls.slice(47).flatMap((call) => call.ids ?? []);
		expect(ids).toHaveLength(23);
		expect(tickOf(ids[0] ?? "")).toBe(SERVER + 70_000); // the next sequence of its last tick
		expectSnowflakesIncreasing([ahead ?? "", ...ids]);
		// Every 10 s throughout: not the thirtieth-of-a-span pace of a wedged holder.
		expect(source.times("renew")).toEqual([
			10_000, 20_000, 30_000, 40_000, 50_000, 60_000, 70_000, 80_000, 90_000,
		]);
	});

	it("keeps its clock for an answer behind it by less than a span, and for a late one", async () => {
		const { source, time, holder } = await started();
		await time.advanceTo(10_000);
		// An object 19 s behind: its renewal leaves `to` where it was.
		source
			.only("renew")
			.answer(grant({ from: SERVER, to: SERVER + 30_000, serverNowMs: SERVER - 9_000 }));
		await settle();
		expect(holder.now()).toBe(SERVER + 10_000);
		await time.advanceTo(20_000); // due 10 s after the grant; left hanging past its deadline (23 s)
		const late = source.only("renew");
		await time.advanceTo(24_000);
		late.answer(grant({ from: SERVER, to: SERVER + 30_000, serverNowMs: SERVER - 40_000 }));
		await settle();
		expect(holder.now()).toBe(SERVER + 24_000);
	});
});

describe("LeaseHolder renewals with deadlines of their own", () => {
	it("rides out an outage that swallows every renewal for two thirds of a span: no call fails", async () => {
		const { source, time, holder } = await started();
		await time.advanceTo(10_000);
		source
			.only("renew")
			.answer(grant({ from: SERVER, to: SERVER + 40_000, serverNowMs: SERVER + 10_000 }));
		const calls: ReturnType<typeof pending>[] = [];
		// From just after that renewal to 30 s every call hangs; after, the service answers at once.
		for (let at = 10_100; at <= 45_000; at += 100) {
			await time.advanceTo(at);
			for (const call of source.open("renew").filter((c) => c.at >= 30_000)) {
				const now = SERVER + time.now;
				call.answer(grant({ from: SERVER, to: now + 30_000, serverNowMs: now }));
			}
			calls.push(pending(holder, time));
		}
		await time.advanceTo(46_000);
		expect(calls.filter((call) => call.error !== undefined)).toEqual([]);
		expect(calls.every((call) => call.ids?.length === 1)).toBe(true);
		expect(source.times("renew")).toEqual([10_000, 20_000, 23_000, 26_000, 29_000, 32_000, 42_000]);
		const aborted = source.calls.filter((c) => c.kind === "renew").map((c) => c.signal?.aborted);
		expect(aborted).toEqual([false, true, true, true, true, false, false]);
		expect(holder.stats()).toMatchObject({ renewals: 7, renewalsGranted: 3, renewalsFailed: 4 });
	});

	it("applies the answer of a renewal abandoned at its deadline when it comes: calls waiting at `to` go on", async () => {
		const { source, time, holder } = await started();
		await time.advanceTo(30_000); // every renewal since 10 s hangs
		const call = pending(holder, time);
		await time.advanceTo(31_000);
		const [first] = source.open("renew");
		expect(first?.signal?.aborted).toBe(true);
		first?.answer(grant({ from: SERVER, to: SERVER + 40_000, serverNowMs: SERVER + 10_000 }));
		await settle();
		expect(call.at).toBe(31_000);
		expect(tickOf(call.ids?.[0] ?? "")).toBe(SERVER + 30_000);
	});
});

describe("LeaseHolder calls waiting at `to`", () => {
	it("each settles lease_expired within maxWaitMs of its own start, calls queued behind the first too (timers 50 ms late)", async () => {
		const { time, holder } = await started(50);
		await time.advanceTo(30_000); // renewals hang: none will come
		const first = pending(holder, time);
		const second = pending(holder, time);
		await time.advanceTo(31_000);
		const third = pending(holder, time);
		await time.advanceTo(40_000);
		for (const call of [first, second, third]) {
			expect(call.error).toMatchObject({ code: "lease_expired", retryAfterSeconds: 1 });
		}
		expect([first.at, second.at, third.at]).toEqual([32_050, 32_050, 33_050]);
	});
});
