/**
 * npm run bench:http — edge-ids loaded with autocannon, beside a peer measured in
 * the same run: a plain Node http server generating Snowflakes with @sapphire/snowflake.
 * By default the real bundle (`wrangler deploy --dry-run --outdir dist`) runs in
 * Miniflare's workerd on a loopback port, with no dev proxy; `--dev` measures it
 * under `wrangler dev` instead (local Durable Objects, its proxy on every request).
 *
 *   npm run bench:http                  # 3 interleaved rounds, 5 s per scenario, connections 1/16/64
 *   npm run bench:http -- --rounds 5 --duration 2 --connections 16
 *   npm run bench:http -- --only "count=10000,blocks"   # scenarios whose name holds one of these
 *   npm run bench:http -- --var MAX_BORROW_MS=0   # any wrangler var, e.g. without borrowing
 *   npm run bench:http -- --dev
 *
 * Each figure is the median of the rounds with its range. A 503 (a worker ID's queue
 * full: `overloaded`, with Retry-After) is counted apart; any other failure fails the run.
 * The service and the load generator share this machine's cores: read the ratios.
 */
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { fmt, load, served, spread } from "../lib/autocannon";
import { startBundledService } from "../lib/miniflare-service";
import { startPeerProcess } from "../lib/peer-process";
import { mixedPoolLoad, type PoolLoadResult } from "../lib/pool-load";
import { startWranglerDev } from "../lib/wrangler-dev";

const { values } = parseArgs({
	options: {
		duration: { type: "string", default: "5" },
		connections: { type: "string", default: "1,16,64" },
		var: { type: "string", multiple: true, default: [] },
		rounds: { type: "string", default: "3" },
		only: { type: "string" },
		dev: { type: "boolean", default: false },
	},
});
// The request log is off unless asked for (--var REQUEST_LOG=on): under wrangler dev
// every log line crosses the dev server's inspector and halves its req/s, a cost
// production (Workers Logs) does not pay.
const vars = Object.fromEntries(
	["REQUEST_LOG=off", ...values.var].map((setting) => {
		const [name = "", ...value] = setting.split("=");
		return [name, value.join("=")];
	}),
);
const duration = Number(values.duration);
const connectionLevels = values.connections.split(",").map(Number);
const rounds = Math.max(3, Number(values.rounds));
const wanted = values.only?.split(",");
const LAYOUT_LIMIT_IDS_PER_S = 4096 * 1000; // Twitter layout: 4,096 IDs per ms per worker ID

interface Scenario {
	name: string;
	target: "edge-ids" | "peer";
	path: string;
	idsPerRequest: number;
	headers?: Record<string, string>;
}

/** A scenario: `path` on `target`, named by its path and `note`. */
const scenario = (
	target: Scenario["target"],
	path: string,
	idsPerRequest: number,
	note = "",
	headers?: Record<string, string>,
): Scenario => ({
	name: `${target === "peer" ? "peer " : ""}${path}${note && ` ${note}`}`,
	target,
	path,
	idsPerRequest,
	...(headers ? { headers } : {}),
});

const scenarios: Scenario[] = [
	scenario("edge-ids", "/health", 0),
	scenario("edge-ids", "/snowflake/1", 1),
	scenario("edge-ids", "/snowflake", 1, "(auto, pooled)"),
	scenario("edge-ids", "/snowflake/1?count=10000", 10_000),
	scenario("edge-ids", "/snowflake?count=10000", 10_000, "(auto)"),
	scenario("edge-ids", "/snowflake/1?count=10000", 10_000, "text/plain", { accept: "text/plain" }),
	scenario("edge-ids", "/snowflake/2/blocks?count=1000000", 1_000_000),
	scenario("edge-ids", "/snowflake/blocks?count=1000000", 1_000_000, "(auto)"),
	scenario("edge-ids", "/ulid", 1),
	scenario("peer", "/health", 0),
	scenario("peer", "/snowflake", 1),
	scenario("peer", "/snowflake?count=10000", 10_000),
];

interface Row {
	scenario: string;
	connections: number;
	reqPerS: number;
	p50: number;
	p99: number;
	idsPerS: number;
	/** 503 answers: the worker ID's queue was full (`overloaded`). */
	busy: number;
	/** Anything else that is not a 2xx, and connection errors and timeouts. */
	failures: number;
}

async function startService(): Promise<{ url: string; stop: () => Promise<void> }> {
	if (values.dev) return startWranglerDev({ vars });
	return startBundledService(vars);
}

/** The routes of one named worker ID: only they are bound by its layout's limit. */
const oneWorkerId = /^\/snowflake\/[0-9]/;

async function main() {
	const chosen = scenarios.filter((s) => !wanted || wanted.some((w) => s.name.includes(w)));
	const mode = values.dev ? "wrangler dev" : "the bundle in Miniflare (workerd, no proxy)";
	console.log(
		`starting ${mode} and the peer (${rounds} interleaved rounds, ${duration} s per scenario, connections ${connectionLevels.join("/")}; load average ${loadavg()[0]?.toFixed(2)})`,
	);
	if (values.var.length > 0) console.log(`wrangler vars: ${values.var.join(" ")}`);
	const service = await startService();
	const peer = await startPeerProcess("scripts/bench/peer-server.ts", ["0"]);
	const rows: Row[] = [];
	// Worker ID 1's object, counted from before the first round to after the last.
	type Counts = { leaseWrites: number; issued: number; maxLeadMs: number; rolloverWaits: number };
	const workerOne = async () =>
		(await (await fetch(`${service.url}/snowflake/1/stats`)).json()) as Counts;
	try {
		// Warm both: first requests compile code and create Durable Objects.
		for (const s of chosen)
			await load((s.target === "peer" ? peer.url : service.url) + s.path, 4, 1, s.headers);
		const before = await workerOne();
		const started = Date.now();
		for (let round = 1; round <= rounds; round++) {
			for (const s of chosen) {
				for (const connections of connectionLevels) {
					const base = s.target === "peer" ? peer.url : service.url;
					const result = await load(base + s.path, connections, duration, s.headers);
					const { reqPerS, busy, failures } = served(result);
					const row: Row = {
						scenario: s.name,
						connections,
						reqPerS,
						p50: result.latency.p50,
						p99: result.latency.p99,
						idsPerS: reqPerS * s.idsPerRequest,
						busy,
						failures,
					};
					rows.push(row);
					console.log(
						`r${round} ${s.name.padEnd(38)} c=${String(connections).padEnd(3)} ${fmt(row.reqPerS).padStart(7)} req/s  p50 ${fmt(row.p50)} ms  p99 ${fmt(row.p99)} ms  ${fmt(row.idsPerS).padStart(11)} IDs/s${busy ? `  503 ${busy}` : ""}${row.failures ? `  FAILURES ${row.failures}` : ""}`,
					);
				}
			}
		}
		const after = await workerOne();
		const seconds = (Date.now() - started) / 1000;

		console.log(`\nmedians of ${rounds} rounds [range]; IDs/s against one worker ID's 4.096 M/s`);
		for (const s of chosen) {
			for (const connections of connectionLevels) {
				const mine = rows.filter((r) => r.scenario === s.name && r.connections === connections);
				const req = spread(mine.map((r) => r.reqPerS));
				const ids = spread(mine.map((r) => r.idsPerS));
				const ratio = (n: number) => (n / LAYOUT_LIMIT_IDS_PER_S).toFixed(3);
				const idText =
					s.idsPerRequest === 0
						? ""
						: `  ${fmt(ids.median).padStart(11)} IDs/s [${fmt(ids.low)}–${fmt(ids.high)}]${oneWorkerId.test(s.path) && s.idsPerRequest > 1 ? `  ratio ${ratio(ids.median)} [${ratio(ids.low)}–${ratio(ids.high)}]` : ""}`;
				const busy = mine.reduce((n, r) => n + r.busy, 0);
				console.log(
					`${s.name.padEnd(38)} c=${String(connections).padEnd(3)} ${fmt(req.median).padStart(7)} req/s [${fmt(req.low)}–${fmt(req.high)}]${idText}${busy ? `  503: ${busy}` : ""}`,
				);
			}
		}
		if (chosen.some((s) => s.path.startsWith("/snowflake/1"))) {
			console.log(
				`worker ID 1: ${after.leaseWrites - before.leaseWrites} lease writes, ${fmt(after.rolloverWaits - before.rolloverWaits)} rollover waits over ${fmt(seconds)} s, ${fmt(after.issued - before.issued)} IDs issued; largest lead ever ${after.maxLeadMs} ms`,
			);
		}
		if (!wanted || wanted.some((w) => "pools".includes(w))) {
			// The auto route's pools under mixed counts, with a freshness probe.
			const poolConnections = Math.max(...connectionLevels);
			const pools: PoolLoadResult = await mixedPoolLoad({
				base: service.url,
				autoWorkerIds: Array.from({ length: 32 }, (_, n) => n), // AUTO_WORKER_IDS 0-31
				connections: poolConnections,
				seconds: duration,
				maxAgeMs: 1000, // POOL_MAX_AGE_MS
			});
			console.log(
				`auto requests per object call, counts 1/5/100, c=${poolConnections}: ${fmt(pools.requestsPerObjectCall, 1)} (${fmt(pools.requests)} requests, ${pools.objectCalls} object calls; ${fmt(pools.wasteShare * 100, 1)} % of ${fmt(pools.issued)} issued IDs unused); IDs older than POOL_MAX_AGE_MS on arrival: ${pools.stale} of ${fmt(pools.probed)}`,
			);
		}
		const busy = rows.reduce((n, r) => n + r.busy, 0);
		const failures = rows.reduce((n, r) => n + r.failures, 0);
		console.log(
			`503 (queue full, overloaded): ${busy}; failures: ${failures}; load average ${loadavg()[0]?.toFixed(2)}`,
		);
		if (failures > 0) {
			console.error(`${failures} failed requests`);
			process.exitCode = 1;
		}
	} finally {
		peer.stop();
		await service.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
