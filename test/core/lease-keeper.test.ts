/**
 * LeaseKeeper: spans granted in the generator's critical section, persisted before
 * the answer, the object's own IDs refused while a span is live, and a restart
 * from what was persisted. Clock readings are ticks (epoch 0, 1 ms).
 */
import { describe, expect, it } from "vitest";
import type { LeaseAnswer } from "../../src/ids/leases/keeper";
import { FrozenClock } from "../shared/fake-clock";
import { bootKeeper, MemoryStore } from "./lease-setup";

function value<T>(answer: LeaseAnswer<T>): T {
	if (!answer.ok) throw new Error(`refused: ${answer.refusal.message}`);
	return answer.value;
}

describe("LeaseKeeper", () => {
	it("grants a span behind an issue waiting for the clock, above every ID it issued", async () => {
		const clock = new FrozenClock(10_000);
		const store = new MemoryStore();
		store.mark = 11_500; // a restart on a host whose clock is 1.5 s behind: the issue waits
		const keeper = bootKeeper(clock, store);
		const order: string[] = [];
		const issuing = keeper.generator.nextRuns(2).then((runs) => {
			order.push("issued");
			return runs;
		});
		const acquiring = keeper.acquire({ leaseHash: "a", holder: null }).then((answer) => {
			order.push("granted");
			return value(answer);
		});
		const [runs, span] = await Promise.all([issuing, acquiring]);
		expect(order).toEqual(["issued", "granted"]);
		expect(clock.sleeps).toEqual([495]); // 1,500 ms behind, 1,005 of them borrowed
		expect(runs.map((run) => run.tick)).toEqual([11_501]);
		// Just above the mark the issue stored before issuing.
		expect(store.mark).toBe(span.to - 1);
		expect(span).toEqual({ from: 11_502, to: 40_495, serverNowMs: 10_495 });
	});

	it("persists the lease and the mark before answering", async () => {
		const clock = new FrozenClock(1_000);
		const store = new MemoryStore();
		const keeper = bootKeeper(clock, store);
		const span = value(await keeper.acquire({ leaseHash: "a", holder: "pod-a" }));
		expect(span).toEqual({ from: 1_000, to: 31_000, serverNowMs: 1_000 });
		expect(store.mark).toBe(30_999);
		expect(store.lease).toEqual({
			leaseHash: "a",
			holder: "pod-a",
			from: 1_000,
			to: 31_000,
			released: false,
		});
	});

	it("refuses the object's own IDs while a span is live, then issues above the span", async () => {
		const clock = new FrozenClock(1_000);
		const store = new MemoryStore();
		const keeper = bootKeeper(clock, store);
		value(await keeper.acquire({ leaseHash: "a", holder: null }));
		value(await keeper.release("a"));
		clock.time = 32_999; // released, but the span's tail and the grace are not over
		await expect(keeper.generator.nextRuns(1)).rejects.toMatchObject({
			code: "worker_id_leased",
			retryAfterSeconds: 1,
		});
		await expect(keeper.generator.next(1)).rejects.toMatchObject({ code: "worker_id_leased" });
		clock.time = 33_000;
		const [run] = await keeper.generator.nextRuns(1);
		expect(run?.tick).toBe(33_000);
	});

	it("refuses an issue queued behind a grant, in the critical section", async () => {
		const clock = new FrozenClock(1_000);
		const keeper = bootKeeper(clock, new MemoryStore());
		const granting = keeper.acquire({ leaseHash: "a", holder: null });
		const issuing = keeper.generator.nextRuns(1);
		await expect(issuing).rejects.toMatchObject({ code: "worker_id_leased" });
		expect(value(await granting)).toMatchObject({ from: 1_000 });
	});

	it("after a release, grants the next span above the released one's tail", async () => {
		const clock = new FrozenClock(1_000);
		const keeper = bootKeeper(clock, new MemoryStore());
		value(await keeper.acquire({ leaseHash: "a", holder: null }));
		clock.time = 1_200;
		value(await keeper.release("a"));
		const next = value(await keeper.acquire({ leaseHash: "b", holder: null }));
		expect(next).toEqual({ from: 31_000, to: 31_200, serverNowMs: 1_200 });
		expect((await keeper.renew("a")).ok).toBe(false);
	});

	it("restarted from what was persisted, renews the same lease and still refuses its own IDs", async () => {
		const clock = new FrozenClock(1_000);
		const store = new MemoryStore();
		value(await bootKeeper(clock, store).acquire({ leaseHash: "a", holder: "pod-a" }));
		clock.time = 11_000;
		const restarted = bootKeeper(clock, store);
		expect(value(await restarted.renew("a"))).toEqual({
			from: 1_000,
			to: 41_000,
			serverNowMs: 11_000,
		});
		await expect(restarted.generator.nextRuns(5)).rejects.toMatchObject({
			code: "worker_id_leased",
		});
		expect(restarted.status()).toEqual({
			state: "held",
			holder: "pod-a",
			from: 1_000,
			to: 41_000,
			fromMs: 1_000,
			toMs: 41_000,
			serverNowMs: 11_000,
		});
	});

	it("answers refusals as values and writes nothing for them", async () => {
		const clock = new FrozenClock(1_000);
		const store = new MemoryStore();
		const keeper = bootKeeper(clock, store);
		value(await keeper.acquire({ leaseHash: "a", holder: null }));
		const refused = await keeper.acquire({ leaseHash: "b", holder: null });
		expect(refused).toMatchObject({ ok: false, refusal: { code: "no_free_worker_id" } });
		expect(await keeper.renew("b")).toMatchObject({ ok: false, refusal: { code: "lease_lost" } });
		expect(store.writes).toHaveLength(1);
		// Releasing twice is one write; the second answers the same.
		expect(await keeper.release("a")).toEqual({ ok: true, value: undefined });
		expect(await keeper.release("a")).toEqual({ ok: true, value: undefined });
		expect(store.writes).toHaveLength(2);
	});

	it("refuses a clock reading that is not a number, granting and storing nothing", async () => {
		const clock = new FrozenClock(Number.NaN);
		const store = new MemoryStore();
		const keeper = bootKeeper(clock, store);
		const refused = await keeper.acquire({ leaseHash: "a", holder: null });
		expect(refused).toMatchObject({ ok: false, refusal: { code: "clock_regression" } });
		expect(() => keeper.status()).toThrow(/clock_regression/);
		expect(store.writes).toEqual([]);
	});

	it("compares lease hashes with the comparison it is given", async () => {
		const clock = new FrozenClock(1_000);
		const compared: [string, string][] = [];
		const keeper = bootKeeper(clock, new MemoryStore(), (a, b) => {
			compared.push([a, b]);
			return a === b;
		});
		value(await keeper.acquire({ leaseHash: "a", holder: null }));
		expect((await keeper.renew("x")).ok).toBe(false);
		expect(compared).toEqual([["a", "x"]]);
	});
});
