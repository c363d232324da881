/**
 * npm run bench:startup — how busy a new isolate's startup is: the service's bundle
 * against a bare Hono app of two routes (scripts/startup-baseline, built by the same
 * wrangler). Each figure is `wrangler check startup` (which builds the bundle, runs
 * its startup in a local workerd and samples its CPU profile, offline): the profile's
 * active time, median of several runs with the range, the targets interleaved run by run.
 *
 *   npm run bench:startup                         # 7 runs of each
 *   npm run bench:startup -- --runs 11
 *   npm run bench:startup -- --against main       # and another revision, in the same runs
 *   npm run bench:startup -- --config minified=wrangler.min.toml   # this checkout, another config
 */
import { execFileSync } from "node:child_process";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { revisionTree } from "./lib/miniflare-service";

const { values } = parseArgs({
	options: {
		runs: { type: "string", default: "7" },
		against: { type: "string", multiple: true, default: [] },
		/** `name=path`: this checkout built with another wrangler config. */
		config: { type: "string", multiple: true, default: [] },
	},
});
const runs = Math.max(3, Number(values.runs));

interface Target {
	name: string;
	cwd: string;
	config?: string;
	cleanup?: () => void;
}

/** The active (not idle) milliseconds of one startup profile of `target`'s Worker. */
function activeMs(target: Target): number {
	const output = execFileSync(
		"npx",
		[
			"wrangler",
			"check",
			"startup",
			...(target.config ? ["-c", target.config] : []),
			"--outfile",
			join(tmpdir(), "edge-ids-startup.cpuprofile"),
		],
		{
			cwd: target.cwd,
			encoding: "utf8",
			stdio: "pipe",
			env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
		},
	);
	const found = /Active: ([0-9.]+) ms/.exec(output);
	if (!found?.[1])
		throw new Error(`no "Active:" line in wrangler check startup's output:\n${output}`);
	return Number(found[1]);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

function summary(values: number[]): string {
	const sorted = [...values].sort((a, b) => a - b);
	return `median ${median(values).toFixed(1)} ms (range ${sorted[0]?.toFixed(1)}–${sorted.at(-1)?.toFixed(1)})`;
}

const BARE = "bare Hono app of two routes";
const targets: Target[] = [
	{ name: "edge-ids", cwd: "." },
	...values.config.map((named) => {
		const [name = "", ...path] = named.split("=");
		return { name, cwd: ".", config: path.join("=") };
	}),
	...values.against.map((ref) => {
		const { tree, cleanup } = revisionTree(ref);
		return { name: `edge-ids at ${ref}`, cwd: tree, cleanup };
	}),
	{ name: BARE, cwd: "scripts/startup-baseline" },
];

try {
	console.log(
		`startup CPU (active ms in wrangler check startup's profile), ${runs} runs each, interleaved; node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(2)}`,
	);
	const times = targets.map(() => [] as number[]);
	for (let i = 0; i < runs; i++) {
		for (const [t, target] of targets.entries()) times[t]?.push(activeMs(target));
	}
	const bare = median(times.at(-1) ?? []);
	const width = Math.max(...targets.map(({ name }) => name.length)) + 1;
	for (const [t, target] of targets.entries()) {
		const own = times[t] ?? [];
		const over = target.name === BARE ? "" : `; over bare: ${(median(own) - bare).toFixed(1)} ms`;
		console.log(`  ${`${target.name}:`.padEnd(width)} ${summary(own)}${over}`);
	}
	console.log(`load average at the end ${loadavg()[0]?.toFixed(2)}`);
} finally {
	for (const target of targets) target.cleanup?.();
}
