/**
 * The Java client's speed against Leaf-style yardsticks in the same JVM
 * (dev.edgeids.bench.JavaBench, examples/java's test tree): the leased generator's
 * `nextId()` against a generator that works as Leaf's SnowflakeIDGenImpl does, and
 * `SequenceBuffer.next()` against a segment double buffer that works as Leaf's
 * SegmentIDGenImpl does, each on 1 and 8 threads, in alternating rounds. Both sequence
 * variants take their ranges from the same service (the real bundle in Miniflare,
 * or `--url`) and the same sequence through `POST /sequences/:name/reserve`, so only
 * what happens in the JVM differs. The limit of one worker ID is 4,096 IDs per ms.
 * Each figure comes twice: per second of wall time, and per second of the measuring
 * threads' CPU time (a machine shared with other work takes cores away from the
 * first, not from the second; 8 threads on 2 cores share theirs).
 *
 *   npm run bench:java                       5 rounds of 2 s per variant
 *   npm run bench:java -- --rounds 7 --seconds 3
 *   npm run bench:java -- --url http://127.0.0.1:8787   a running service (LEASE_WORKER_IDS set)
 */
import { spawnSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { LIMIT_IDS_PER_S, roundOptions } from "../lib/ceiling-rounds";
import { buildJava, javaMissing } from "../lib/java-build";
import { startBundledService } from "../lib/miniflare-service";

interface Line {
	case: "snowflake" | "sequence";
	threads: number;
	variant: "edge-ids" | "edge-ids-unaged" | "leaf-style";
	perSecond: number;
	/** Per second of the threads' own CPU time: what the code does when it has a core. */
	perCpuSecond: number;
}

const missing = javaMissing();
if (missing) {
	console.error(missing);
	process.exit(1);
}
const { rounds, seconds } = roundOptions();
const urlAt = process.argv.indexOf("--url");
const classes = buildJava();
const service =
	urlAt >= 0
		? { url: process.argv[urlAt + 1] ?? "", stop: async () => {} }
		: await startBundledService({ LEASE_WORKER_IDS: "900-903", REQUEST_LOG: "off" });
try {
	const sequence = `bench-${Date.now()}`;
	const created = await fetch(`${service.url}/sequences/${sequence}`, { method: "PUT" });
	if (!created.ok) throw new Error(`PUT /sequences/${sequence}: ${created.status}`);
	console.log(
		`bench:java: ${rounds} rounds of ${seconds} s per variant; ${cpus().length} cores (${cpus()[0]?.model}), load ${loadavg()[0]?.toFixed(2)}; service ${urlAt >= 0 ? service.url : "the bundle in Miniflare"}`,
	);
	const run = spawnSync(
		"java",
		[
			"-cp",
			classes,
			"dev.edgeids.bench.JavaBench",
			service.url,
			sequence,
			String(rounds),
			String(seconds),
		],
		{ encoding: "utf8", timeout: 30 * 60_000 },
	);
	if (run.status !== 0) throw new Error(`JavaBench exited ${run.status}: ${run.stderr}`);
	const lines = run.stdout
		.trim()
		.split("\n")
		.map((line) => JSON.parse(line) as Line);
	const m = (n: number) => `${(n / 1e6).toFixed(3)} M/s`;
	for (const kind of ["snowflake", "sequence"] as const) {
		for (const threads of [1, 8]) {
			const of = (variant: Line["variant"], field: "perSecond" | "perCpuSecond" = "perSecond") =>
				lines
					.filter((l) => l.case === kind && l.threads === threads && l.variant === variant)
					.map((l) => l[field])
					.sort((a, b) => a - b);
			const ours = of("edge-ids");
			const theirs = of("leaf-style");
			const median = (xs: number[]) => xs[xs.length >> 1] ?? 0;
			const range = (xs: number[]) => `${m(xs[0] ?? 0)}–${m(xs.at(-1) ?? 0)}`;
			const limit =
				kind === "snowflake"
					? `, ${(median(ours) / LIMIT_IDS_PER_S).toFixed(3)} of 4.096 M (Leaf-style ${(median(theirs) / LIMIT_IDS_PER_S).toFixed(3)})`
					: "";
			const name =
				kind === "snowflake" ? "LeasedSnowflakeGenerator.nextId()" : "SequenceBuffer.next()";
			const oursCpu = of("edge-ids", "perCpuSecond");
			const theirsCpu = of("leaf-style", "perCpuSecond");
			console.log(
				`${name.padEnd(34)} ${threads} thread${threads > 1 ? "s" : " "}: median ${m(median(ours))} (range ${range(ours)}); Leaf-style ${m(median(theirs))} (range ${range(theirs)}); ${(median(ours) / median(theirs)).toFixed(3)}×${limit}`,
			);
			console.log(
				`${"".padEnd(34)} per CPU-second: ${m(median(oursCpu))} (range ${range(oursCpu)}); Leaf-style ${m(median(theirsCpu))} (range ${range(theirsCpu)}); ${(median(oursCpu) / median(theirsCpu)).toFixed(3)}×`,
			);
			if (kind === "sequence") {
				const unaged = of("edge-ids-unaged");
				const unagedCpu = of("edge-ids-unaged", "perCpuSecond");
				console.log(
					`${"  noMaxAge()".padEnd(34)} ${threads} thread${threads > 1 ? "s" : " "}: median ${m(median(unaged))} (range ${range(unaged)}), ${(median(unaged) / median(theirs)).toFixed(3)}× Leaf-style; per CPU-second ${m(median(unagedCpu))}, ${(median(unagedCpu) / median(theirsCpu)).toFixed(3)}×`,
				);
			}
		}
	}
} finally {
	await service.stop();
}
