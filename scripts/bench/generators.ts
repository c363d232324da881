/**
 * In-process benchmark: our ID generators against the npm peers, in one process,
 * one harness (tinybench), every generator producing STRING IDs.
 *
 *   npm run bench             full run (under a minute)
 *   npm run bench -- --quick  a smoke run (about 10 s); rough figures
 *
 * Every task function makes many IDs per call (an inner loop, or one batch), so the
 * timer's own cost (tens of ns per read) is amortised; the tables show IDs/s. A
 * full run measures each group in several rounds and keeps each task's best round,
 * so a burst of load from another process hurts one round rather than the figure;
 * "spread" is how far the worst round was below the best.
 * Peers are devDependencies used only here.
 */
import { createRequire } from "node:module";
import { availableParallelism, loadavg } from "node:os";
import { Snowflake as SapphireSnowflake } from "@sapphire/snowflake";
import { Snowflake as WasmSnowflake } from "nodejs-snowflake";
import { Bench } from "tinybench";
import { monotonicFactory as ulidMonotonic } from "ulid";
import { monotonicFactory as ulidxMonotonic } from "ulidx";
import { v7 as uuidV7 } from "uuid";
import { type Clock, systemClock } from "../../src/ids/clock";
import { UlidFactory } from "../../src/ids/forms/ulid";
import { UuidV7Factory } from "../../src/ids/forms/uuidv7";
import { SnowflakeGenerator } from "../../src/ids/snowflake/generator";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";

// snowflake-id ships no types; its CommonJS module exports the class as `default`.
const require = createRequire(import.meta.url);
type SnowflakeIdClass = new (options: { mid: number; offset: number }) => { generate(): string };
const SnowflakeId = (require("snowflake-id") as { default: SnowflakeIdClass }).default;

const quick = process.argv.includes("--quick");
const rounds = quick ? 1 : 3;
const timeMs = quick ? 250 : 450;
const warmupMs = 100;

/** Written by every task so no generator call can be optimised away; checked at the end. */
let sink = "";
let produced = 0;

/**
 * Date.now() plus everything the generator has slept: waiting for the next tick
 * costs no real time, so the figure is the generator's CPU cost (the layout's
 * 4,096 IDs per ms per worker ID does not cap it). The system-clock rows show the cap.
 */
class VirtualClock implements Clock {
	private ahead = 0;
	now(): number {
		return Date.now() + this.ahead;
	}
	sleep(ms: number): Promise<void> {
		this.ahead += ms;
		return Promise.resolve();
	}
}

const layout = new SnowflakeLayout(TWITTER_LAYOUT);
function ourSnowflake(clock: Clock, maxBorrowMs = 0): SnowflakeGenerator {
	return new SnowflakeGenerator({
		layout,
		workerId: 7,
		clock,
		maxBackwardMs: 1_000,
		leaseMs: 1_000,
		maxBorrowMs,
		persistMark: () => {}, // in-process: no storage (the DO writes SQLite here, once per lease)
	});
}

interface Row {
	name: string;
	ours: boolean;
	/** IDs made per call of the task function. */
	ids: number;
	fn: () => unknown;
}

interface Measured {
	name: string;
	ours: boolean;
	/** The best round's IDs per second. */
	idsPerSecond: number;
	/** How far the worst round was below the best, in percent. */
	spread: number;
}

/** Peers make a batch the way their users would: one call per ID. */
function loop(n: number, make: () => string): () => void {
	return () => {
		let last = "";
		for (let i = 0; i < n; i++) last = make();
		sink = last;
		produced += n;
	};
}

/** Our Snowflake API is async (calls are serialized through a queue): await each call. */
function ourLoop(n: number, gen: SnowflakeGenerator, count: number): () => Promise<void> {
	return async () => {
		let last: string[] = [];
		for (let i = 0; i < n; i++) last = await gen.next(count);
		sink = last[last.length - 1] ?? "";
		produced += n * last.length;
	};
}

async function measure(group: string, rows: Row[]): Promise<Measured[]> {
	const rates: number[][] = rows.map(() => []);
	for (let round = 0; round < rounds; round++) {
		const bench = new Bench({ name: group, time: timeMs, warmupTime: warmupMs, iterations: 16 });
		for (const row of rows) bench.add(row.name, row.fn);
		await bench.run();
		rows.forEach((row, i) => {
			const result = bench.tasks[i]?.result;
			if (!result || !("period" in result)) {
				const error = result && "error" in result ? result.error : result?.state;
				throw new Error(`${group} / ${row.name}: ${String(error)}`);
			}
			// period: mean ms per task call, garbage collection included.
			rates[i]?.push((row.ids * 1000) / result.period);
		});
	}
	return rows.map((row, i) => {
		const all = rates[i] ?? [];
		const best = Math.max(...all);
		return {
			name: row.name,
			ours: row.ours,
			idsPerSecond: best,
			spread: (100 * (best - Math.min(...all))) / best,
		};
	});
}

function snowflakeRows(batch: number): Row[] {
	// Single IDs: 1,000 calls per task call. Batches: one call of `batch` IDs.
	const calls = batch === 1 ? 1_000 : 1;
	const perPeer = batch === 1 ? 1_000 : batch;
	const sapphire = new SapphireSnowflake(BigInt(TWITTER_LAYOUT.epoch));
	const wasm = new WasmSnowflake({ custom_epoch: TWITTER_LAYOUT.epoch, instance_id: 7 });
	const snowflakeId = new SnowflakeId({ mid: 7, offset: TWITTER_LAYOUT.epoch });
	const label = `await next(${batch.toLocaleString("en")})`;
	return [
		{
			name: `edge-ids ${label}, virtual clock`,
			ours: true,
			ids: calls * batch,
			fn: ourLoop(calls, ourSnowflake(new VirtualClock()), batch),
		},
		{
			name: `edge-ids ${label}, system clock`,
			ours: true,
			ids: calls * batch,
			fn: ourLoop(calls, ourSnowflake(systemClock), batch),
		},
		{
			name: "@sapphire/snowflake generate().toString()",
			ours: false,
			ids: perPeer,
			fn: loop(perPeer, () => sapphire.generate().toString()),
		},
		{
			name: "nodejs-snowflake getUniqueID().toString()",
			ours: false,
			ids: perPeer,
			fn: loop(perPeer, () => wasm.getUniqueID().toString()),
		},
		{
			name: "snowflake-id generate()",
			ours: false,
			// About 30 k IDs/s: a shorter loop keeps its task inside the time budget.
			ids: Math.min(perPeer, 100),
			fn: loop(Math.min(perPeer, 100), () => snowflakeId.generate()),
		},
	];
}

/**
 * What the service does with a batch: a JSON array body. Our IDs are concatenated
 * strings (V8 ropes), which JSON.stringify has to flatten, so this shows whether
 * part of the cost has merely moved to the consumer. The peer is the fastest above.
 */
function jsonRows(): Row[] {
	const batch = 10_000;
	const ours = ourSnowflake(new VirtualClock());
	const sapphire = new SapphireSnowflake(BigInt(TWITTER_LAYOUT.epoch));
	return [
		{
			name: "edge-ids JSON.stringify(await next(10,000)), virtual clock",
			ours: true,
			ids: batch,
			fn: async () => {
				sink = JSON.stringify(await ours.next(batch));
				produced += batch;
			},
		},
		{
			name: "@sapphire/snowflake 10,000 × generate().toString(), JSON.stringify",
			ours: false,
			ids: batch,
			fn: () => {
				const ids = new Array<string>(batch);
				for (let i = 0; i < batch; i++) ids[i] = sapphire.generate().toString();
				sink = JSON.stringify(ids);
				produced += batch;
			},
		},
	];
}

/**
 * Borrowed time on the real clock: one worker ID's batches of 10,000 by
 * `maxBorrowMs`, the figure the service's MAX_BORROW_MS default was chosen by.
 * (A generator starts with up to `maxBorrowMs` of lead to spend, which adds at
 * most that many ms of IDs to a round: under 1% for 5 ms.)
 */
function borrowRows(): Row[] {
	return [0, 1, 2, 5, 10, 20].map((maxBorrowMs) => ({
		name: `edge-ids await next(10,000), system clock, maxBorrowMs ${maxBorrowMs}`,
		ours: true,
		ids: 10_000,
		fn: ourLoop(1, ourSnowflake(systemClock, maxBorrowMs), 10_000),
	}));
}

function ulidRows(): Row[] {
	const ours = new UlidFactory();
	const ulid = ulidMonotonic();
	const ulidx = ulidxMonotonic();
	return [
		{
			name: "edge-ids UlidFactory.next(Date.now())",
			ours: true,
			ids: 1_000,
			fn: loop(1_000, () => ours.next(Date.now())),
		},
		{ name: "ulid monotonicFactory()()", ours: false, ids: 1_000, fn: loop(1_000, () => ulid()) },
		{ name: "ulidx monotonicFactory()()", ours: false, ids: 1_000, fn: loop(1_000, () => ulidx()) },
	];
}

function uuidRows(): Row[] {
	const ours = new UuidV7Factory();
	return [
		{
			name: "edge-ids UuidV7Factory.next(Date.now())",
			ours: true,
			ids: 1_000,
			fn: loop(1_000, () => ours.next(Date.now())),
		},
		{ name: "uuid v7()", ours: false, ids: 1_000, fn: loop(1_000, () => uuidV7()) },
	];
}

/**
 * Not speed but uniqueness: a burst of `n` IDs made as fast as the generator goes,
 * and how many of them repeat an earlier one. A Snowflake generator that beats
 * 4,096 IDs per ms per worker ID without waiting for the next tick must repeat.
 */
async function duplicatesIn(n: number, make: () => string | Promise<string[]>): Promise<number> {
	// Make first, count afterwards: adding to a Set inside the burst would slow it down.
	const ids: string[] = [];
	while (ids.length < n) {
		const result = make();
		if (typeof result === "string") ids.push(result);
		else ids.push(...(await result));
	}
	return ids.length - new Set(ids).size;
}

async function printDuplicates(): Promise<void> {
	const sapphire = new SapphireSnowflake(BigInt(TWITTER_LAYOUT.epoch));
	const wasm = new WasmSnowflake({ custom_epoch: TWITTER_LAYOUT.epoch, instance_id: 7 });
	const snowflakeId = new SnowflakeId({ mid: 7, offset: TWITTER_LAYOUT.epoch });
	const ours = ourSnowflake(systemClock);
	const checks: [string, number, () => string | Promise<string[]>][] = [
		["edge-ids await next(1), system clock", 200_000, () => ours.next(1)],
		["@sapphire/snowflake generate().toString()", 200_000, () => sapphire.generate().toString()],
		["nodejs-snowflake getUniqueID().toString()", 200_000, () => wasm.getUniqueID().toString()],
		["snowflake-id generate()", 10_000, () => snowflakeId.generate()],
	];
	console.log("\nSnowflake uniqueness: repeated IDs in a burst made as fast as possible");
	const width = Math.max(...checks.map(([name]) => name.length));
	for (const [name, n, make] of checks) {
		const repeated = await duplicatesIn(n, make);
		console.log(
			`  ${name.padEnd(width)}  ${repeated.toLocaleString("en")} of ${n.toLocaleString("en")}`,
		);
	}
}

function formatRate(idsPerSecond: number): string {
	return idsPerSecond >= 1e6
		? `${(idsPerSecond / 1e6).toFixed(2)} M`
		: `${(idsPerSecond / 1e3).toFixed(1)} k`;
}

/** Tables without peers compare with one worker ID's limit under the Twitter layout. */
const LAYOUT_LIMIT_IDS_PER_S = 4096 * 1000;

function printTable(title: string, rows: Measured[]): void {
	const peers = rows.filter((r) => !r.ours);
	const best = Math.max(...peers.map((r) => r.idsPerSecond));
	const width = Math.max(...rows.map((r) => r.name.length));
	console.log(`\n${title}`);
	const against = peers.length > 0 ? "our/best peer" : "of 4.096 M/s";
	console.log(
		`  ${"generator".padEnd(width)}  ${"IDs/s".padStart(9)}  ${"spread".padStart(6)}  ${against}`,
	);
	for (const row of rows) {
		const ratio =
			peers.length === 0
				? `${((100 * row.idsPerSecond) / LAYOUT_LIMIT_IDS_PER_S).toFixed(0)}%`
				: row.ours
					? `${(row.idsPerSecond / best).toFixed(2)}x`
					: "";
		const spread = rounds > 1 ? `${row.spread.toFixed(0)}%` : "-";
		console.log(
			`  ${row.name.padEnd(width)}  ${formatRate(row.idsPerSecond).padStart(9)}  ${spread.padStart(6)}  ${ratio}`,
		);
	}
}

async function main(): Promise<void> {
	const load = () => (loadavg()[0] ?? 0).toFixed(2);
	console.log(
		`edge-ids in-process benchmark${quick ? " (--quick)" : ""}: node ${process.version}, ${process.platform}/${process.arch}, ${availableParallelism()} cores; tinybench, best of ${rounds} round(s) of ${timeMs} ms per task; load average ${load()}`,
	);
	const groups: [string, () => Row[]][] = [
		["Snowflake, single ID per call", () => snowflakeRows(1)],
		["Snowflake, batches of 1,000 (peers: 1,000 calls)", () => snowflakeRows(1_000)],
		["Snowflake, batches of 10,000 (peers: 10,000 calls)", () => snowflakeRows(10_000)],
		["Snowflake, 10,000 IDs into a JSON array body", jsonRows],
		["Snowflake, one worker ID at the layout's limit, by borrowed time", borrowRows],
		["ULID, monotonic, single ID per call", ulidRows],
		["UUIDv7, single ID per call", uuidRows],
	];
	for (const [title, rows] of groups) printTable(title, await measure(title, rows()));
	await printDuplicates();
	if (sink.length === 0 || produced === 0) throw new Error("no IDs were produced");
	console.log(
		"\nvirtual clock: waiting for the next tick costs no time, so the figure is CPU cost." +
			"\nsystem clock: real waits; one worker ID cannot pass 4,096 IDs per ms (4.096 M/s)." +
			`\nload average at the end: ${load()}`,
	);
}

await main();
