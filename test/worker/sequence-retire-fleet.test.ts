/**
 * A retired sequence across the service: it leaves the list of names, `/stats` and
 * `/metrics`, and a report or create that reaches the catalog late lists it nowhere;
 * a retire whose catalog write fails answers 503 and its retry drops the name. Pooled
 * mode: the retiring isolate's buffer is dropped at once; another isolate hands out
 * only numbers of a segment it took before the retire, until its next segment fetch
 * (refused), at most POOL_MAX_AGE_MS on.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { FleetStats, SequenceList, SequenceStatus } from "../../src/wire";
import { directoryStub, shardStub } from "../../src/worker/object/catalog-calls";
import { call, callJson } from "./helpers";
import {
	atMinuteStart,
	createdSequence,
	type Isolate,
	isolate,
	operations,
	refusal,
	sequenceName,
	sequenceStub,
	unreachableCatalogEnv,
} from "./sequence-helpers";

const json = (method: string, body: unknown): RequestInit => ({
	method,
	headers: { "Content-Type": "application/json" },
	body: JSON.stringify(body),
});

/** Where the fleet view shows `name`: the list of names, `/stats`, `/metrics`. */
async function shownIn(name: string): Promise<string[]> {
	const places: string[] = [];
	const list = await callJson<SequenceList>(`/sequences?limit=1&cursor=${name.slice(0, -1)}`);
	if (list.body.names[0] === name) places.push("list");
	const stats = await callJson<FleetStats>("/stats");
	if (stats.body.sequences.some((s) => s.name === name)) places.push("stats");
	if ((await (await call("/metrics")).text()).includes(`{sequence="${name}"}`)) {
		places.push("metrics");
	}
	return places;
}

describe("a retired sequence in the fleet view", () => {
	it("leaves the list, /stats and /metrics; a late report or create lists it nowhere", async () => {
		const name = sequenceName("retire-fleet");
		const clock = await atMinuteStart(name);
		expect((await call(`/sequences/${name}`, { method: "PUT" })).status).toBe(201);
		expect((await call(`/sequences/${name}/next?count=4`)).status).toBe(200);
		clock.time += 60_000;
		expect(await runDurableObjectAlarm(sequenceStub(name))).toBe(true); // its report
		// Its shard's summary to the root, which /metrics reads.
		expect(await runDurableObjectAlarm(shardStub(env, name))).toBe(true);
		expect(await shownIn(name)).toEqual(["list", "stats", "metrics"]);

		const retired = await callJson<SequenceStatus>(
			`/sequences/${name}`,
			json("DELETE", { confirm: name }),
		);
		expect(retired.status).toBe(200);
		// The shard sends the root its summary without it within the minute.
		expect(await runDurableObjectAlarm(shardStub(env, name))).toBe(true);
		expect(await shownIn(name)).toEqual([]);

		// A report sent before the retire, arriving after it, and a create's write likewise.
		const settings = { start: "1", mode: "ordered", reset: "never", timeZone: "UTC" };
		await shardStub(env, name).reportSequence({
			name,
			settings,
			createdAtMs: clock.time,
			next: "5",
			issued: "4",
			requests: 1,
			lastIssuedAtMs: clock.time,
			period: null,
		});
		await directoryStub(env).registerSequence(name, settings, clock.time);
		await shardStub(env, name).addSequence(name, settings, clock.time);
		expect(await shownIn(name)).toEqual([]);
	});

	it("a retire whose catalog write fails answers 503; its retry drops the name", async () => {
		const { ops } = await operations();
		const name = await createdSequence("retire-catalog-fail");
		const failed = await refusal(
			ops.retireSequence(unreachableCatalogEnv(), { name, confirm: name }),
		);
		expect(failed.code).toBe("unavailable");
		expect(failed.message).toContain("the fleet catalog");
		// The object is retired already; the catalog still lists it until the retry.
		expect((await call(`/sequences/${name}/next`)).status).toBe(410);
		expect(await shownIn(name)).toContain("list");
		const retry = await callJson<SequenceStatus>(
			`/sequences/${name}`,
			json("DELETE", { confirm: name }),
		);
		expect(retry.status).toBe(200);
		expect(await shownIn(name)).toEqual([]);
	});
});

describe("a retired pooled sequence", () => {
	it("stops the retiring isolate at once, another at its next segment fetch, with numbers from before the retire", async () => {
		const { ops } = await operations();
		const name = await createdSequence("retire-pooled", { mode: "pooled" });
		// Long enough that a loaded machine's calls between the fetch and the take stay within it.
		const maxAgeMs = 1_500;
		const vars = { POOL_MAX_AGE_MS: String(maxAgeMs) };
		const [a, b] = [isolate(vars), isolate(vars)];
		const take = async ({ config, pools }: Isolate) =>
			BigInt((await ops.nextInSequence(env, config, { name, count: 1 }, undefined, pools)).first);
		for (const one of [a, b, a, b]) await take(one); // each learns the mode, takes a segment
		const fetched = Date.now(); // b's segment was fetched before this

		const status = await ops.retireSequence(env, { name, confirm: name }, a.pools);
		const next = BigInt(status.next as string);
		// The retiring isolate's buffer is gone: its next call reaches the object.
		expect((await refusal(take(a))).code).toBe("sequence_retired");
		// Another's segment was issued before the retire: its numbers lie below `next`.
		expect(await take(b)).toBeLessThan(next);
		while (Date.now() - fetched <= maxAgeMs) await scheduler.wait(maxAgeMs / 10);
		// POOL_MAX_AGE_MS on, its segment is too old; the fetch is refused, and so is every call after.
		expect((await refusal(take(b))).code).toBe("sequence_retired");
		expect((await refusal(take(b))).code).toBe("sequence_retired");
		expect((await refusal(ops.reserveInSequence(env, { name, count: 5 }))).code).toBe(
			"sequence_retired",
		);
	});

	it("drops the rest of another isolate's segment once its refill is refused", async () => {
		const { ops } = await operations();
		const name = await createdSequence("retire-pooled-refill", { mode: "pooled" });
		const [a, b] = [isolate(), isolate()];
		const refills: Promise<unknown>[] = [];
		const take = async ({ config, pools }: Isolate, count: number) =>
			(await ops.nextInSequence(env, config, { name, count }, (work) => refills.push(work), pools))
				.numbers;
		await take(b, 1); // learns the mode
		expect(await take(b, 1)).toEqual(["2"]); // its first segment: 2-11
		await ops.retireSequence(env, { name, confirm: name }, a.pools);
		// Below half a segment left: this take starts the refill, which the retired object refuses.
		expect(await take(b, 5)).toEqual(["3", "4", "5", "6", "7"]);
		await Promise.all(refills);
		// 8-11 are still in the segment, young: dropped all the same.
		expect((await refusal(take(b, 1))).code).toBe("sequence_retired");
	});
});
