/**
 * npm run bench:sequences — named sequences over HTTP against the routes of the
 * same shape and against a Leaf-segment peer, in one run: the service's bundle in
 * Miniflare (workerd, no dev proxy), a bare Hono app with a bare Durable Object that
 * writes one row a call (./startup-baseline: the floor of each shape in workerd),
 * and Meituan Leaf's segment mode over node:sqlite (./leaf-segment-peer.ts, a
 * process of its own, its database beside the objects'), loaded with autocannon in
 * interleaved rounds so that load from elsewhere falls on every contender alike.
 * Single numbers are asked with GET, as `/snowflake/1` and `/ulid` are. Last in each
 * round, one caller takes numbers one at a time from createSequenceBuffer (ranges
 * reserved over HTTP, handed out in this process): what a process gets that way.
 *
 *   npm run bench:sequences                               # 5 rounds, 3 s per contender, connections 1/16
 *   npm run bench:sequences -- --rounds 7 --duration 5 --connections 16
 *   npm run bench:sequences -- --storage-dir /dev/shm/seq  # every SQLite file there (tmpfs: no disk sync)
 *   npm run bench:sequences -- --var POOL_MAX_AGE_MS=500  # any wrangler var
 *   npm run bench:sequences -- --only "ordered next,/snowflake/1"  # some contenders (their ratios)
 *
 * Prints each run, then per connection level the medians with their ranges, the
 * ratios the targets name (ordered `next` / `/snowflake/1` ≥ 0.9, pooled `next` /
 * `/ulid` ≥ 0.9, pooled / the peer ≥ 1, one number a request and 1,000), and for
 * pooled mode what each object write served, from the sequence's status (its
 * `requests` and `issued`) read before and after every pooled run. `/health` is the
 * ceiling of the Worker's HTTP path here. Any failed request fails the run.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createSequenceBuffer, idsClient } from "../../src/client";
import { fmt, load, served, spread } from "../lib/autocannon";
import { buildBundle, startBundle, startBundledService } from "../lib/miniflare-service";
import { startPeerProcess } from "../lib/peer-process";

const { values } = parseArgs({
	options: {
		rounds: { type: "string", default: "5" },
		duration: { type: "string", default: "3" },
		connections: { type: "string", default: "1,16" },
		var: { type: "string", multiple: true, default: [] },
		"storage-dir": { type: "string" },
		only: { type: "string" },
	},
});
const rounds = Math.max(5, Number(values.rounds));
const duration = Number(values.duration);
const connectionLevels = values.connections.split(",").map(Number);
const vars = Object.fromEntries(
	["REQUEST_LOG=off", ...values.var].map((setting) => {
		const [name = "", ...value] = setting.split("=");
		return [name, value.join("=")];
	}),
);

/** The bare Hono app and bare object (one row written a call) of bench:startup and bench:cold. */
const BASELINE_CONFIG = "scripts/bench/startup-baseline/wrangler.toml";

const ORDERED = "bench-ordered";
const POOLED = "bench-pooled";
const POOLED_BATCHES = "bench-pooled-batches";
const BUFFERED = "bench-buffered";
const BATCH = 1_000;

interface Contender {
	name: string;
	/** `caller`: numbers handed out in this process by createSequenceBuffer (one caller, c=1 only). */
	target: "edge-ids" | "baseline" | "peer" | "caller";
	path: string;
	method: "GET" | "POST";
	/** Numbers (or IDs) per answer. */
	numbers: number;
	/** A pooled sequence whose status is read around each run: what its object writes served. */
	pooled?: string;
}

const allContenders: Contender[] = [
	{
		name: "ordered next",
		target: "edge-ids",
		path: `/sequences/${ORDERED}/next`,
		method: "GET",
		numbers: 1,
	},
	{ name: "/snowflake/1", target: "edge-ids", path: "/snowflake/1", method: "GET", numbers: 1 },
	{
		name: "bare object write",
		target: "baseline",
		path: "/snowflake/1",
		method: "GET",
		numbers: 1,
	},
	{
		name: "pooled next",
		target: "edge-ids",
		path: `/sequences/${POOLED}/next`,
		method: "GET",
		numbers: 1,
		pooled: POOLED,
	},
	{ name: "/ulid", target: "edge-ids", path: "/ulid", method: "GET", numbers: 1 },
	{ name: "/health", target: "edge-ids", path: "/health", method: "GET", numbers: 0 },
	{ name: "bare Hono /health", target: "baseline", path: "/health", method: "GET", numbers: 0 },
	{ name: "Leaf-segment peer", target: "peer", path: "/next?tag=bench", method: "GET", numbers: 1 },
	{
		name: `pooled next ×${BATCH}`,
		target: "edge-ids",
		path: `/sequences/${POOLED_BATCHES}/next?count=${BATCH}`,
		method: "GET",
		numbers: BATCH,
		pooled: POOLED_BATCHES,
	},
	{
		name: `Leaf-segment peer ×${BATCH}`,
		target: "peer",
		path: `/next?tag=batches&count=${BATCH}`,
		method: "GET",
		numbers: BATCH,
	},
	{ name: "buffer in the caller", target: "caller", path: "", method: "GET", numbers: 1 },
];

const only = values.only?.split(",").map((name) => name.trim());
const contenders = only ? allContenders.filter((c) => only.includes(c.name)) : allContenders;
if (contenders.length === 0) {
	throw new Error(`--only names none of: ${allContenders.map((c) => c.name).join(", ")}`);
}

/** The ratios the issue sets targets for, and the rest that explain them. */
const allRatios: { over: string; under: string; target?: number }[] = [
	{ over: "ordered next", under: "/snowflake/1", target: 0.9 },
	{ over: "ordered next", under: "bare object write" },
	{ over: "pooled next", under: "/ulid", target: 0.9 },
	{ over: "pooled next", under: "Leaf-segment peer", target: 1 },
	{ over: `pooled next ×${BATCH}`, under: `Leaf-segment peer ×${BATCH}`, target: 1 },
	{ over: "ordered next", under: "Leaf-segment peer" },
	{ over: "buffer in the caller", under: "Leaf-segment peer" },
	{ over: "pooled next", under: "/health" },
	{ over: "pooled next", under: "bare Hono /health" },
	{ over: "bare Hono /health", under: "Leaf-segment peer" },
];

const ratios = allRatios.filter((r) =>
	[r.over, r.under].every((name) => contenders.some((c) => c.name === name)),
);

interface Run {
	contender: string;
	connections: number;
	round: number;
	reqPerS: number;
	p50: number;
}

/** What one pooled contender's runs at one connection level added up to. */
interface PooledTally {
	answers: number;
	handedOut: number;
	objectWrites: number;
	issued: number;
}

async function main() {
	const cpu = cpus()[0]?.model ?? "unknown CPU";
	console.log(
		`${new Date().toISOString()}: ${availableParallelism()} cores (${cpu}), Node ${process.version}; load average ${loadavg()[0]?.toFixed(2)}`,
	);
	// Every contender's SQLite files in one directory: the objects', the bare object's, the peer's.
	const scratch = values["storage-dir"] === undefined;
	const storageDir = values["storage-dir"] ?? mkdtempSync(join(tmpdir(), "bench-sequences-"));
	mkdirSync(storageDir, { recursive: true });
	console.log(
		`the bundle and a bare Hono app with a bare object in Miniflare (workerd, no proxy), the Leaf-segment peer in Node; SQLite files in ${storageDir}; ${rounds} interleaved rounds, ${duration} s per contender, connections ${connectionLevels.join("/")}`,
	);
	const service = await startBundledService(vars, undefined, {
		persistTo: join(storageDir, "edge-ids"),
	});
	const baseline = await startBundle(
		buildBundle(".build/bench-sequences/baseline", BASELINE_CONFIG),
		BASELINE_CONFIG,
		{ persistTo: join(storageDir, "baseline") },
	);
	const peer = await startPeerProcess("scripts/bench/leaf-segment-peer.ts", [
		"--port",
		"0",
		"--db",
		join(storageDir, "leaf.sqlite"),
	]);
	const runs: Run[] = [];
	const tallies = new Map<string, PooledTally>();
	let failures = 0;
	let busy = 0;
	const counts = async (name: string) => {
		const body = (await (await fetch(`${service.url}/sequences/${name}`)).json()) as {
			requests: number;
			issued: string;
		};
		return { requests: body.requests, issued: Number(body.issued) };
	};
	const urlOf = (c: Contender) =>
		({ "edge-ids": service.url, baseline: baseline.url, peer: peer.url, caller: service.url })[
			c.target
		] + c.path;
	try {
		for (const [name, mode] of [
			[ORDERED, "ordered"],
			[POOLED, "pooled"],
			[POOLED_BATCHES, "pooled"],
			[BUFFERED, "ordered"],
		]) {
			const created = await fetch(`${service.url}/sequences/${name}`, {
				method: "PUT",
				headers: { "content-type": "application/json" },
				body: JSON.stringify({ mode }),
			});
			if (!created.ok) throw new Error(`PUT /sequences/${name}: ${await created.text()}`);
		}
		// Warm every contender: first requests compile code and create objects and rows.
		for (const c of contenders.filter((c) => c.target !== "caller")) {
			await load(urlOf(c), 4, 1, undefined, c.method);
		}
		for (let round = 1; round <= rounds; round++) {
			for (const c of contenders) {
				if (c.target === "caller") {
					const handed = await bufferRun(service.url, duration);
					runs.push({ contender: c.name, connections: 1, round, reqPerS: handed.perS, p50: 0 });
					console.log(
						`r${round} ${c.name.padEnd(26)} c=1   ${fmt(handed.perS).padStart(7)} numbers/s, ${handed.reserves} reserves`,
					);
					continue;
				}
				for (const connections of connectionLevels) {
					const before = c.pooled ? await counts(c.pooled) : undefined;
					const result = await load(urlOf(c), connections, duration, undefined, c.method);
					const answered = served(result);
					if (c.pooled && before) {
						const after = await counts(c.pooled);
						const key = `${c.name} c=${connections}`;
						const tally = tallies.get(key) ?? {
							answers: 0,
							handedOut: 0,
							objectWrites: 0,
							issued: 0,
						};
						tally.answers += answered.ok;
						tally.handedOut += answered.ok * c.numbers;
						tally.objectWrites += after.requests - before.requests;
						tally.issued += after.issued - before.issued;
						tallies.set(key, tally);
					}
					failures += answered.failures;
					busy += answered.busy;
					const run = {
						contender: c.name,
						connections,
						round,
						reqPerS: answered.reqPerS,
						p50: result.latency.p50,
					};
					runs.push(run);
					console.log(
						`r${round} ${c.name.padEnd(26)} c=${String(connections).padEnd(3)} ${fmt(run.reqPerS).padStart(7)} req/s  p50 ${fmt(run.p50)} ms  p99 ${fmt(result.latency.p99)} ms${answered.busy ? `  503 ${answered.busy}` : ""}${answered.failures ? `  FAILURES ${answered.failures}` : ""}`,
					);
				}
			}
		}
		report(runs, tallies);
		const load3 = loadavg().map((n) => n.toFixed(2));
		console.log(
			`503 (overloaded): ${busy}; failures: ${failures}; load average ${load3.join(" ")} (1/5/15 min)`,
		);
		if (failures > 0) process.exitCode = 1;
	} finally {
		peer.stop();
		await service.stop();
		await baseline.stop();
		if (scratch) rmSync(storageDir, { recursive: true, force: true });
	}
}

/**
 * What one caller gets from createSequenceBuffer over idsClient in `seconds`: numbers
 * handed out in this process (one `await next()` each), a reserve over HTTP now and
 * then (ranges of up to 100,000, each meant to last a second).
 */
async function bufferRun(
	url: string,
	seconds: number,
): Promise<{ perS: number; reserves: number }> {
	const buffer = createSequenceBuffer({
		source: idsClient({ baseUrl: url }),
		name: BUFFERED,
		maxStep: 100_000,
		targetRefillMs: 1_000,
	});
	const started = performance.now();
	let handed = 0;
	try {
		while (performance.now() - started < seconds * 1000) {
			for (let i = 0; i < 1_000; i++) await buffer.next();
			handed += 1_000;
		}
		return {
			perS: handed / ((performance.now() - started) / 1000),
			reserves: buffer.stats().fetches,
		};
	} finally {
		buffer.close();
	}
}

function report(runs: Run[], tallies: Map<string, PooledTally>): void {
	const of = (contender: string, connections: number) =>
		runs.filter((r) => r.contender === contender && r.connections === connections);
	for (const connections of connectionLevels) {
		console.log(`\nc=${connections}: medians of ${rounds} rounds [range]`);
		for (const c of contenders) {
			if (of(c.name, connections).length === 0) continue;
			const req = spread(of(c.name, connections).map((r) => r.reqPerS));
			const numbers = c.numbers > 1 ? `  = ${fmt(req.median * c.numbers)} numbers/s` : "";
			console.log(
				`  ${c.name.padEnd(26)} ${fmt(req.median).padStart(7)} ${c.target === "caller" ? "numbers/s" : "req/s"} [${fmt(req.low)}–${fmt(req.high)}]${numbers}`,
			);
		}
		for (const { over, under, target } of ratios) {
			// The ratio of medians, and the range of the rounds' own ratios (one round
			// ran both within seconds of each other, under the same outside load).
			const a = of(over, connections);
			const b = of(under, connections);
			if (a.length === 0 || b.length === 0) continue;
			const perRound = a.map((run, i) => run.reqPerS / (b[i]?.reqPerS || Number.NaN));
			const range = spread(perRound);
			const ratio = spread(a.map((r) => r.reqPerS)).median / spread(b.map((r) => r.reqPerS)).median;
			const verdict =
				target === undefined
					? ""
					: ratio >= target
						? `  (target ≥ ${target}: met)`
						: `  (target ≥ ${target}: MISSED)`;
			console.log(
				`  ${`${over} / ${under}`.padEnd(52)} ${ratio.toFixed(2)} [rounds ${range.low.toFixed(2)}–${range.high.toFixed(2)}]${verdict}`,
			);
		}
		for (const c of contenders.filter((c) => c.pooled)) {
			const tally = tallies.get(`${c.name} c=${connections}`);
			if (!tally) continue;
			const writes = Math.max(1, tally.objectWrites);
			console.log(
				`  ${c.name}: ${fmt(tally.objectWrites)} object writes (segments) for ${fmt(tally.answers)} answers: ${fmt(tally.answers / writes, 1)} answers and ${fmt(tally.issued / writes)} numbers issued per write; ${fmt(Math.max(0, tally.issued - tally.handedOut))} of ${fmt(tally.issued)} issued not handed out (${fmt((100 * Math.max(0, tally.issued - tally.handedOut)) / Math.max(1, tally.issued), 1)} %: expired or held at a run's end)`,
			);
		}
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
