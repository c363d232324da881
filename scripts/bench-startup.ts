/**
 * npm run bench:startup — how busy a new isolate's startup is: the service's bundle
 * against a bare Hono app of two routes (scripts/startup-baseline, built by the same
 * wrangler). Each figure is `wrangler check startup` (which builds the bundle, runs
 * its startup in a local workerd and samples its CPU profile, offline): the profile's
 * active time, median of several runs with the range, runs of the two interleaved.
 *
 *   npm run bench:startup                 7 runs of each
 *   npm run bench:startup -- --runs 11
 */
import { execFileSync } from "node:child_process";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { runs: { type: "string", default: "7" } } });
const runs = Math.max(3, Number(values.runs));

/** The active (not idle) milliseconds of one startup profile of the Worker in `cwd`. */
function activeMs(cwd: string): number {
	const output = execFileSync(
		"npx",
		[
			"wrangler",
			"check",
			"startup",
			"--cwd",
			cwd,
			"--outfile",
			join(tmpdir(), "edge-ids-startup.cpuprofile"),
		],
		{ encoding: "utf8", stdio: "pipe", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
	);
	const found = /Active: ([0-9.]+) ms/.exec(output);
	if (!found?.[1])
		throw new Error(`no "Active:" line in wrangler check startup's output:\n${output}`);
	return Number(found[1]);
}

function summary(values: number[]): string {
	const sorted = [...values].sort((a, b) => a - b);
	const median = sorted[sorted.length >> 1] ?? 0;
	return `median ${median.toFixed(1)} ms (range ${sorted[0]?.toFixed(1)}–${sorted.at(-1)?.toFixed(1)})`;
}

console.log(
	`startup CPU (active ms in wrangler check startup's profile), ${runs} runs each, interleaved; node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(2)}`,
);
const service: number[] = [];
const baseline: number[] = [];
for (let i = 0; i < runs; i++) {
	service.push(activeMs("."));
	baseline.push(activeMs("scripts/startup-baseline"));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
console.log(`  edge-ids:                    ${summary(service)}`);
console.log(`  bare Hono app of two routes: ${summary(baseline)}`);
console.log(
	`  difference of the medians:   ${(median(service) - median(baseline)).toFixed(1)} ms; load average ${loadavg()[0]?.toFixed(2)}`,
);
