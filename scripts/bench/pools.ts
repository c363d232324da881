/**
 * npm run bench:pools — how the auto route's pool size bound (POOL_MAX_SIZE)
 * trades object calls against unused IDs: for each size, a fresh `wrangler dev`
 * (local Durable Objects, request log off) under the same mixed load of auto
 * requests (counts 1, 5 and 100), reading the objects' stats before and after.
 *
 *   npm run bench:pools                          # sizes 256,1024,4096,16384; 5 s; 64 connections
 *   npm run bench:pools -- --sizes 1024,4096 --duration 10 --connections 16
 *
 * wrangler dev and the load share this machine's cores: compare the rows of one
 * run with each other, not with another machine's.
 */
import { parseArgs } from "node:util";
import { fmt } from "../lib/autocannon";
import { mixedPoolLoad } from "../lib/pool-load";
import { startWranglerDev } from "../lib/wrangler-dev";

const { values } = parseArgs({
	options: {
		sizes: { type: "string", default: "256,1024,4096,16384" },
		duration: { type: "string", default: "5" },
		connections: { type: "string", default: "64" },
	},
});
const sizes = values.sizes.split(",").map(Number);
const seconds = Number(values.duration);
const connections = Number(values.connections);
const AUTO_WORKER_IDS = Array.from({ length: 32 }, (_, n) => n); // the default 0-31
const MAX_AGE_MS = 1000; // POOL_MAX_AGE_MS's default

async function measure(size: number) {
	const dev = await startWranglerDev({
		vars: { REQUEST_LOG: "off", POOL_MAX_SIZE: String(size) },
	});
	const run = (durationS: number) =>
		mixedPoolLoad({
			base: dev.url,
			autoWorkerIds: AUTO_WORKER_IDS,
			connections,
			seconds: durationS,
			maxAgeMs: MAX_AGE_MS,
		});
	try {
		await run(2); // warm up: compile, create the objects, let the pool grow
		return await run(seconds);
	} finally {
		await dev.stop();
	}
}

async function main() {
	console.log(
		`auto route, counts 1/5/100, ${connections} connections, ${seconds} s per size (after 2 s of warm-up)`,
	);
	const rows: Record<string, Record<string, string>> = {};
	for (const size of sizes) {
		const r = await measure(size);
		rows[`POOL_MAX_SIZE=${size}`] = {
			"req/s": fmt(r.requests / seconds),
			"requests per object call": fmt(r.requestsPerObjectCall, 1),
			"object calls/s": fmt(r.objectCalls / seconds, 1),
			"IDs issued": fmt(r.issued),
			"unused share": `${fmt(r.wasteShare * 100, 1)} %`,
			"older than 1 s on arrival": `${r.stale} of ${fmt(r.probed)}`,
		};
		console.log(`POOL_MAX_SIZE=${size} done`);
	}
	console.table(rows);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
