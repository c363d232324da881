/**
 * The fleet view at scale: a `wrangler dev` whose catalog holds N sequences (default
 * 200,000), written into the directory and the shards the way creates and reports leave
 * them (scripts/load/fleet-scale-worker: 200,000 real creates would make 200,000 objects
 * on disk; the fleet routes read the catalog only), then every fleet route asked
 * REPEATS times: status, answer size and median time, each size against its bound.
 *
 *   npm run test:fleet-scale                        200,000 sequences (docs/SCALING.md)
 *   npm run test:fleet-scale -- --sequences 20000   a quicker look
 *
 * Exits 1 when a route answers other than 200 or above its bound, 2 when it could not run.
 */
import { execSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { stopOnSignals, stopReported, WranglerDev } from "../lib/wrangler-dev";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const BATCH = 10_000;
const REPEATS = 5;
const KB = 1024;

const { values } = parseArgs({
	options: {
		sequences: { type: "string", default: "200000" },
		verbose: { type: "boolean", default: false },
	},
});
const sequences = Number(values.sequences);
if (!Number.isInteger(sequences) || sequences < 1 || sequences > 2_000_000) {
	console.error("--sequences must be an integer in [1, 2000000]");
	process.exit(2);
}

/** wrangler.toml with the load worker as its entry (bundled by wrangler, absolute paths). */
function loadConfig(): string {
	const lines = readFileSync(join(REPO, "wrangler.toml"), "utf8")
		.split("\n")
		.filter((line) => !/^(no_bundle|find_additional_modules|base_dir|rules) =/.test(line))
		.map((line) => {
			if (line.startsWith("main = "))
				return `main = ${JSON.stringify(join(REPO, "scripts/load/fleet-scale-worker/worker.ts"))}`;
			if (line.startsWith("command = ")) return `command = "npm run --silent build:playground"`;
			if (line.startsWith("directory = "))
				return `directory = ${JSON.stringify(join(REPO, "public"))}`;
			if (line.startsWith("watch_dir = "))
				return `watch_dir = [${JSON.stringify(join(REPO, "src"))}]`;
			return line;
		});
	const dir = join(REPO, ".wrangler", "fleet-scale");
	mkdirSync(dir, { recursive: true });
	const path = join(dir, "wrangler.toml");
	writeFileSync(path, `${lines.join("\n")}\n`);
	return path;
}

/** Each route, and the largest answer it may give (bytes), whatever the fleet's size. */
const ROUTES: [string, number][] = [
	["/stats", 100 * 460 + 2 * KB],
	["/stats?limit=1000", 1_000 * 460 + 2 * KB],
	["/stats?limit=1000&cursor=s%3Aload-0100000", 1_000 * 460 + 2 * KB],
	["/metrics", 1_024 * 6 * 64 + 100 * 4 * 160 + 8 * KB],
	["/leases", 1_024 * 220 + KB],
	["/stats/history?minutes=1440", 1_440 * 400 + KB],
	["/sequences?limit=1000", 1_000 * 67 + KB],
	["/sequences?prefix=load-00199&limit=20", 20 * 67 + KB],
	["/monitor", 64 * KB],
];

async function timed(url: string): Promise<{ status: number; bytes: number; ms: number }> {
	const started = performance.now();
	const response = await fetch(url, { signal: AbortSignal.timeout(120_000) });
	const bytes = (await response.arrayBuffer()).byteLength;
	return { status: response.status, bytes, ms: performance.now() - started };
}

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const dev = new WranglerDev({
	args: ["-c", loadConfig()],
	vars: { LEASE_WORKER_IDS: "600-699" },
	timeoutMs: 180_000,
	onOutput: values.verbose ? (text) => process.stderr.write(text) : undefined,
});
stopOnSignals(() => stopReported(dev));

async function main(): Promise<number> {
	await dev.start();
	// Worker IDs with counts: their objects report within two minutes, while the rows load.
	for (let workerId = 0; workerId < 64; workerId++) {
		await fetch(`${dev.url}/snowflake/${workerId}?count=100`);
	}
	const loadStarted = performance.now();
	for (let from = 0; from < sequences; from += BATCH) {
		const to = Math.min(sequences, from + BATCH);
		const response = await fetch(`${dev.url}/__load/sequences?label=load&from=${from}&to=${to}`, {
			method: "POST",
			signal: AbortSignal.timeout(600_000),
		});
		if (!response.ok)
			throw new Error(`loading ${from}-${to}: ${response.status} ${await response.text()}`);
		process.stderr.write(`\rrows written: ${to}`);
	}
	const loadS = (performance.now() - loadStarted) / 1000;
	process.stderr.write(`\n`);
	for (const holder of ["pod-1", "pod-2", "pod-3"]) {
		await fetch(`${dev.url}/leases`, {
			method: "POST",
			headers: { "Content-Type": "application/json" },
			body: JSON.stringify({ holder }),
		});
	}
	let failed = 0;
	const rows: string[] = [];
	for (const [route, bound] of ROUTES) {
		const runs = [];
		for (let i = 0; i < REPEATS; i++) runs.push(await timed(`${dev.url}${route}`));
		const statuses = [...new Set(runs.map((run) => run.status))];
		const bytes = Math.max(...runs.map((run) => run.bytes));
		const ok = statuses.length === 1 && statuses[0] === 200 && bytes <= bound;
		if (!ok) failed++;
		rows.push(
			`| \`${route}\` | ${statuses.join(", ")} | ${(bytes / KB).toFixed(1)} KB | ${(bound / KB).toFixed(0)} KB | ${median(runs.map((r) => r.ms)).toFixed(0)} ms | ${Math.max(...runs.map((r) => r.ms)).toFixed(0)} ms |${ok ? "" : " **over**"}`,
		);
	}
	const stats = (await (await fetch(`${dev.url}/stats?limit=1`)).json()) as { totals: unknown };
	const cpu = cpus()[0]?.model ?? "unknown";
	console.log(
		`\n${sequences.toLocaleString("en-US")} sequences written in ${loadS.toFixed(0)} s; totals: ${JSON.stringify(stats.totals)}`,
	);
	console.log(
		`machine: ${execSync("nproc").toString().trim()} cores, ${cpu}; ${new Date().toISOString().slice(0, 10)}\n`,
	);
	console.log("| route | status | largest answer | bound | median | slowest |");
	console.log("|---|---|---|---|---|---|");
	for (const row of rows) console.log(row);
	return failed === 0 ? 0 : 1;
}

main()
	.then(async (code) => {
		await stopReported(dev);
		process.exit(code);
	})
	.catch(async (error: Error) => {
		console.error(`fleet-scale run failed: ${error.message}\n${dev.output()}`);
		await stopReported(dev);
		process.exit(2);
	});
