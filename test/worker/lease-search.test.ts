/** The acquire's search over candidate worker IDs, on stand-in probes (no objects). */
import { describe, expect, it } from "vitest";
import { WorkerIdSet } from "../../src/ids/pools/worker-id-set";
import {
	MAX_AHEAD_PROBES,
	PREFERRED_LEAD_MS,
	type ProbeAnswer,
	probeOrder,
	searchFreeWorkerId,
} from "../../src/worker/operations/lease-search";

/** Probes answering from a table: "free", "held:<s>", "ahead:<ms>", "down", or another code. */
function table(answers: Record<number, string>) {
	const asked: [number, number | undefined][] = [];
	const probe = async (
		workerId: number,
		maxLeadMs: number | undefined,
	): Promise<ProbeAnswer<string>> => {
		asked.push([workerId, maxLeadMs]);
		const [kind, value] = (answers[workerId] ?? "free").split(":");
		if (kind === "down") throw new Error(`object ${workerId} unreachable`);
		if (kind === "free") return { ok: true, value: `granted ${workerId}` };
		if (kind === "held")
			return { ok: false, code: "no_free_worker_id", retryAfterSeconds: Number(value) };
		if (kind === "ahead" && maxLeadMs === undefined)
			return { ok: true, value: `granted ${workerId} ahead` };
		if (kind === "ahead") {
			return {
				ok: false,
				code: "no_free_worker_id",
				retryAfterSeconds: 30,
				startsInMs: Number(value),
			};
		}
		return { ok: false, code: kind as string };
	};
	const refused = (answer: { code: string }): never => {
		throw new Error(`refused ${answer.code}`);
	};
	return { asked, probe, refused };
}

describe("searchFreeWorkerId", () => {
	it("takes the first candidate whose span starts now", async () => {
		const { asked, probe, refused } = table({ 1: "held:20", 2: "ahead:9000", 3: "free" });
		const outcome = await searchFreeWorkerId([1, 2, 3, 4], probe, refused);
		expect(outcome).toEqual({ probes: 3, found: true, workerId: 3, value: "granted 3" });
		expect(asked).toEqual([
			[1, PREFERRED_LEAD_MS],
			[2, PREFERRED_LEAD_MS],
			[3, PREFERRED_LEAD_MS],
		]);
	});

	it("then the free ones starting ahead, nearest first", async () => {
		const { asked, probe, refused } = table({ 1: "ahead:20000", 2: "held:5", 3: "ahead:3000" });
		const outcome = await searchFreeWorkerId([1, 2, 3], probe, refused);
		expect(outcome).toMatchObject({
			found: true,
			workerId: 3,
			value: "granted 3 ahead",
			probes: 4,
		});
		expect(asked.at(-1)).toEqual([3, undefined]);
	});

	it("tries at most MAX_AHEAD_PROBES of those", async () => {
		const answers: Record<number, string> = {};
		for (let id = 0; id < 10; id++) answers[id] = `ahead:${5_000 + id}`;
		const { asked, refused } = table(answers);
		// Taken by someone else between the passes: every second-pass probe finds it held.
		const probe = async (id: number, lead: number | undefined): Promise<ProbeAnswer<string>> => {
			asked.push([id, lead]);
			return lead === undefined
				? { ok: false, code: "no_free_worker_id", retryAfterSeconds: 7 }
				: { ok: false, code: "no_free_worker_id", retryAfterSeconds: 30, startsInMs: 5_000 + id };
		};
		const outcome = await searchFreeWorkerId([...Array(10).keys()], probe, refused);
		expect(outcome).toEqual({ probes: 10 + MAX_AHEAD_PROBES, found: false, retryAfterSeconds: 7 });
		expect(asked.slice(10).map(([id]) => id)).toEqual([0, 1, 2, 3]);
	});

	it("answers the least wait when all are held", async () => {
		const { probe, refused } = table({ 1: "held:20", 2: "held:3", 3: "held:31" });
		expect(await searchFreeWorkerId([1, 2, 3], probe, refused)).toEqual({
			probes: 3,
			found: false,
			retryAfterSeconds: 3,
		});
	});

	it("skips objects it cannot reach, and fails as they did when it reached none", async () => {
		const { probe, refused } = table({ 1: "down", 2: "free" });
		expect(await searchFreeWorkerId([1, 2], probe, refused)).toMatchObject({ workerId: 2 });
		const allDown = table({ 1: "down", 2: "down" });
		await expect(searchFreeWorkerId([1, 2], allDown.probe, allDown.refused)).rejects.toThrow(
			"object 2 unreachable",
		);
	});

	it("stops at a refusal every object would give alike (a misconfiguration)", async () => {
		const { asked, probe, refused } = table({ 1: "layout_mismatch" });
		await expect(searchFreeWorkerId([1, 2], probe, refused)).rejects.toThrow(
			"refused layout_mismatch",
		);
		expect(asked).toHaveLength(1);
	});
});

describe("probeOrder", () => {
	it("picks distinct members, all of a small set, in an order that varies", () => {
		const set = WorkerIdSet.parse("600-609", 1023);
		const orders = new Set<string>();
		for (let i = 0; i < 50; i++) {
			const order = probeOrder(set, 32, Math.random);
			expect([...order].sort()).toEqual([...Array(10).keys()].map((n) => 600 + n));
			orders.add(order.join());
		}
		expect(orders.size).toBeGreaterThan(40);
	});

	it("picks `count` distinct members of a huge set without listing it", () => {
		const huge = WorkerIdSet.parse("0-4194303", 4194303);
		const order = probeOrder(huge, 32, Math.random);
		expect(new Set(order).size).toBe(32);
		for (const id of order) expect(huge.has(id)).toBe(true);
	});

	it("gives every member the same chance to be tried first", () => {
		const set = WorkerIdSet.parse("0-3", 1023);
		const first = [0, 0, 0, 0];
		for (let i = 0; i < 4_000; i++) {
			const at = probeOrder(set, 2, Math.random)[0] as number;
			first[at] = (first[at] ?? 0) + 1;
		}
		for (const count of first) expect(count).toBeGreaterThan(850); // 1,000 expected
	});
});
