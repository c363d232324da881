/**
 * npm run bench:http — edge-ids under `wrangler dev` (started here, local Durable
 * Objects) loaded with autocannon, beside a peer measured in the same run: a
 * plain Node http server generating Snowflakes with @sapphire/snowflake.
 *
 *   npm run bench:http                  # 5 s per scenario, connections 1/16/64
 *   npm run bench:http -- --duration 2 --connections 16
 *   npm run bench:http -- --var MAX_BORROW_MS=0   # any wrangler var, e.g. without borrowing
 *
 * wrangler dev and the load generator share this machine's cores: read the
 * ratios (measured in one run), not the absolute numbers, as the result.
 */
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { fmt, load } from "./lib/autocannon";
import { mixedPoolLoad, type PoolLoadResult } from "./lib/pool-load";
import { freePort } from "./lib/ports";
import { startWranglerDev } from "./lib/wrangler-dev";

const { values } = parseArgs({
	options: {
		duration: { type: "string", default: "5" },
		connections: { type: "string", default: "1,16,64" },
		var: { type: "string", multiple: true, default: [] },
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
const LAYOUT_LIMIT_IDS_PER_S = 4096 * 1000; // Twitter layout: 4,096 IDs per ms per worker ID

interface Scenario {
	name: string;
	target: "edge-ids" | "peer";
	path: string;
	idsPerRequest: number;
	headers?: Record<string, string>;
}

const scenarios: Scenario[] = [
	{ name: "/health", target: "edge-ids", path: "/health", idsPerRequest: 0 },
	{ name: "/snowflake/1", target: "edge-ids", path: "/snowflake/1", idsPerRequest: 1 },
	{ name: "/snowflake (auto, pooled)", target: "edge-ids", path: "/snowflake", idsPerRequest: 1 },
	{
		name: "/snowflake/1?count=10000",
		target: "edge-ids",
		path: "/snowflake/1?count=10000",
		idsPerRequest: 10_000,
	},
	{
		name: "/snowflake?count=10000 (auto)",
		target: "edge-ids",
		path: "/snowflake?count=10000",
		idsPerRequest: 10_000,
	},
	{
		name: "/snowflake/1?count=10000 text/plain",
		target: "edge-ids",
		path: "/snowflake/1?count=10000",
		idsPerRequest: 10_000,
		headers: { accept: "text/plain" },
	},
	{
		name: "/snowflake/2/blocks?count=1000000",
		target: "edge-ids",
		path: "/snowflake/2/blocks?count=1000000",
		idsPerRequest: 1_000_000,
	},
	{
		name: "/snowflake/blocks?count=1000000 (auto)",
		target: "edge-ids",
		path: "/snowflake/blocks?count=1000000",
		idsPerRequest: 1_000_000,
	},
	{ name: "/ulid", target: "edge-ids", path: "/ulid", idsPerRequest: 1 },
	{ name: "peer /health", target: "peer", path: "/health", idsPerRequest: 0 },
	{ name: "peer /snowflake", target: "peer", path: "/snowflake", idsPerRequest: 1 },
	{
		name: "peer /snowflake?count=10000",
		target: "peer",
		path: "/snowflake?count=10000",
		idsPerRequest: 10_000,
	},
];

interface Row {
	scenario: string;
	connections: number;
	reqPerS: number;
	p50: number;
	p99: number;
	idsPerS: number;
	failures: number;
}

async function startPeer(): Promise<{ url: string; stop: () => void }> {
	const port = await freePort();
	const child = spawn("npx", ["tsx", "scripts/peer-server.ts", String(port)], {
		detached: true,
		stdio: ["ignore", "pipe", "inherit"],
	});
	await new Promise<void>((resolve, reject) => {
		child.stdout?.on("data", (chunk: Buffer) => {
			if (chunk.toString().includes("listening")) resolve();
		});
		child.once("exit", () => reject(new Error("peer server exited")));
	});
	const stop = () => {
		if (child.pid !== undefined) {
			try {
				process.kill(-child.pid, "SIGKILL");
			} catch {
				// gone
			}
		}
	};
	process.on("exit", stop);
	return { url: `http://127.0.0.1:${port}`, stop };
}

async function main() {
	console.log(
		`starting wrangler dev and the peer (duration ${duration} s, connections ${connectionLevels.join("/")})`,
	);
	if (values.var.length > 0) console.log(`wrangler vars: ${values.var.join(" ")}`);
	const dev = await startWranglerDev({ vars });
	const peer = await startPeer();
	const rows: Row[] = [];
	// Worker ID 1's object, read right after its last scenario: an idle object is
	// evicted (and its in-memory stats with it) within seconds under wrangler dev.
	// Stats survive restarts (and earlier runs on the same local state): count from a baseline.
	type Counts = { leaseWrites: number; issued: number; maxLeadMs: number; rolloverWaits: number };
	const workerOne = async () =>
		(await (await fetch(`${dev.url}/snowflake/1/stats`)).json()) as Counts;
	let workerOneBaseline: Counts | undefined;
	let workerOneStats: Counts = { leaseWrites: 0, issued: 0, maxLeadMs: 0, rolloverWaits: 0 };
	let workerOneStarted = 0;
	let workerOneSeconds = 0;
	try {
		// Warm both: first requests compile code and create Durable Objects.
		for (const s of scenarios) {
			const base = s.target === "peer" ? peer.url : dev.url;
			await load(base + s.path, 4, 1, s.headers);
		}
		for (const s of scenarios) {
			const onWorkerOne = s.target === "edge-ids" && s.path.startsWith("/snowflake/1");
			if (onWorkerOne && workerOneStarted === 0) {
				workerOneBaseline = await workerOne();
				workerOneStarted = Date.now();
			}
			for (const connections of connectionLevels) {
				const base = s.target === "peer" ? peer.url : dev.url;
				const result = await load(base + s.path, connections, duration, s.headers);
				const ok = result.requests.total - result.non2xx - result.errors;
				rows.push({
					scenario: s.name,
					connections,
					reqPerS: result.requests.average,
					p50: result.latency.p50,
					p99: result.latency.p99,
					// Over the time actually measured: autocannon stops at its next 1-s sample
					// after `duration`, and counts what completed until then.
					idsPerS: (ok / result.duration) * s.idsPerRequest,
					failures: result.non2xx + result.errors + result.timeouts,
				});
				const row = rows.at(-1) as Row;
				if (onWorkerOne) {
					workerOneStats = await workerOne();
					workerOneSeconds = (Date.now() - workerOneStarted) / 1000;
				}
				console.log(
					`${s.name.padEnd(38)} c=${String(connections).padEnd(3)} ${fmt(row.reqPerS).padStart(7)} req/s  p50 ${fmt(row.p50)} ms  p99 ${fmt(row.p99)} ms  ${fmt(row.idsPerS).padStart(11)} IDs/s${row.failures ? `  FAILURES ${row.failures}` : ""}`,
				);
			}
		}

		const base = workerOneBaseline ?? { leaseWrites: 0, issued: 0, rolloverWaits: 0 };
		// The auto route's pools under mixed counts, with a freshness probe.
		const poolConnections = Math.max(...connectionLevels);
		const pools: PoolLoadResult = await mixedPoolLoad({
			base: dev.url,
			autoWorkerIds: Array.from({ length: 32 }, (_, n) => n), // AUTO_WORKER_IDS 0-31
			connections: poolConnections,
			seconds: duration,
			maxAgeMs: 1000, // POOL_MAX_AGE_MS
		});

		const best = (name: string, key: "reqPerS" | "idsPerS") =>
			Math.max(...rows.filter((r) => r.scenario === name).map((r) => r[key]));
		const health = best("/health", "reqPerS");
		const single = best("/snowflake/1", "reqPerS");
		const batch = best("/snowflake/1?count=10000", "idsPerS");
		const auto = best("/snowflake?count=10000 (auto)", "idsPerS");
		const autoSingle = best("/snowflake (auto, pooled)", "reqPerS");
		const blocksOne = best("/snowflake/2/blocks?count=1000000", "idsPerS");
		const blocksAuto = best("/snowflake/blocks?count=1000000 (auto)", "idsPerS");
		const ulid = best("/ulid", "reqPerS");
		const p50Of = (name: string) =>
			Math.min(...rows.filter((r) => r.scenario === name).map((r) => r.p50));
		const text = best("/snowflake/1?count=10000 text/plain", "idsPerS");
		const peerSingle = best("peer /snowflake", "reqPerS");
		const peerBatch = best("peer /snowflake?count=10000", "idsPerS");
		const peerHealth = best("peer /health", "reqPerS");

		console.log("\nsummary (best over connection levels)");
		console.table({
			"single /snowflake/1 vs /health (target >= 85%)": `${fmt((single / health) * 100, 1)} %`,
			"one worker ID, batches: IDs/s": fmt(batch),
			"  vs layout limit 4.096 M/s (target >= 85%)": `${fmt((batch / LAYOUT_LIMIT_IDS_PER_S) * 100, 1)} %`,
			"auto worker IDs, batches: IDs/s": fmt(auto),
			"blocks of 1 M, one worker ID: IDs/s (target >= 95% of 4.096 M)": `${fmt(blocksOne)} (${fmt((blocksOne / LAYOUT_LIMIT_IDS_PER_S) * 100, 1)} %)`,
			"blocks of 1 M, auto worker IDs: IDs/s": fmt(blocksAuto),
			"  one worker ID vs auto": `${fmt((batch / auto) * 100, 1)} %`,
			"auto single req/s vs /ulid (target >= 0.95x)": `${fmt(autoSingle)} vs ${fmt(ulid)} (${fmt(autoSingle / ulid, 2)}x; best p50 ${fmt(p50Of("/snowflake (auto, pooled)"))} vs ${fmt(p50Of("/ulid"))} ms)`,
			[`auto requests per object call, counts 1/5/100, c=${poolConnections} (target >= 50)`]: `${fmt(pools.requestsPerObjectCall, 1)} (${fmt(pools.requests)} requests, ${pools.objectCalls} object calls; ${fmt(pools.wasteShare * 100, 1)} % of ${fmt(pools.issued)} issued IDs unused)`,
			"auto IDs older than POOL_MAX_AGE_MS on arrival (target 0)": `${pools.stale} of ${fmt(pools.probed)} probed (oldest ${fmt(pools.maxAgeSeenMs)} ms)`,
			"text/plain batches: IDs/s": fmt(text),
			"peer single req/s vs ours": `${fmt(peerSingle)} vs ${fmt(single)} (ours ${fmt(single / peerSingle, 2)}x)`,
			"peer batch IDs/s vs ours": `${fmt(peerBatch)} vs ${fmt(batch)} (ours ${fmt(batch / peerBatch, 2)}x)`,
			"/health: wrangler dev vs plain node": `${fmt(health)} vs ${fmt(peerHealth)}`,
			"lease writes, worker ID 1": `${workerOneStats.leaseWrites - base.leaseWrites} over ${fmt(workerOneSeconds)} s of its load, ${fmt(workerOneStats.issued - base.issued)} IDs issued`,
			"worker ID 1: rollover waits, largest lead ever": `${fmt(workerOneStats.rolloverWaits - base.rolloverWaits)}, ${workerOneStats.maxLeadMs} ms`,
		});
		const failures = rows.reduce((n, r) => n + r.failures, 0);
		if (failures > 0) {
			console.error(`${failures} failed requests`);
			process.exitCode = 1;
		}
	} finally {
		peer.stop();
		await dev.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
