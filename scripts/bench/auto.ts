/**
 * npm run bench:auto — the auto Snowflake route (served from the isolate's ID
 * pool) against `/ulid` (no state at all) on one `wrangler dev`, in interleaved
 * rounds: a dev server's throughput drifts by more than the difference measured,
 * so each round runs both routes back to back and the sums are compared.
 *
 *   npm run bench:auto                                  # connections 1,16,64; 4 rounds of 3 s each
 *   npm run bench:auto -- --connections 16 --rounds 8
 */
import { parseArgs } from "node:util";
import { fmt, load } from "../lib/autocannon";
import { startWranglerDev } from "../lib/wrangler-dev";

const { values } = parseArgs({
	options: {
		connections: { type: "string", default: "1,16,64" },
		rounds: { type: "string", default: "4" },
		duration: { type: "string", default: "3" },
	},
});
const ROUTES = ["/snowflake", "/ulid"] as const;

async function main() {
	const dev = await startWranglerDev({ vars: { REQUEST_LOG: "off" } });
	try {
		for (const route of ROUTES) await load(dev.url + route, 4, 2); // warm-up
		const rows: Record<string, Record<string, string>> = {};
		for (const connections of values.connections.split(",").map(Number)) {
			const reqPerS = { "/snowflake": 0, "/ulid": 0 };
			const p50 = { "/snowflake": [] as number[], "/ulid": [] as number[] };
			for (let round = 0; round < Number(values.rounds); round++) {
				for (const route of ROUTES) {
					const result = await load(dev.url + route, connections, Number(values.duration));
					reqPerS[route] += result.requests.average / Number(values.rounds);
					p50[route].push(result.latency.p50);
				}
			}
			const median = (xs: number[]) =>
				[...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
			rows[`c=${connections}`] = {
				"/snowflake (auto) req/s": fmt(reqPerS["/snowflake"]),
				"/ulid req/s": fmt(reqPerS["/ulid"]),
				"auto vs /ulid": `${fmt(reqPerS["/snowflake"] / reqPerS["/ulid"], 2)}x`,
				"p50 ms (median of rounds)": `${median(p50["/snowflake"])} vs ${median(p50["/ulid"])}`,
			};
		}
		console.table(rows);
	} finally {
		await dev.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
