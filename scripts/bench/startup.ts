/**
 * npm run bench:startup — how busy a new isolate's startup is: the service against a
 * bare Hono app of three routes (scripts/bench/startup-baseline), each built by the same
 * wrangler (`wrangler deploy --dry-run`, what a deploy uploads).
 *
 * Startup is what workerd does before a new isolate can serve: compile the entry module
 * and the modules it imports, and run their top level. As `wrangler check startup`
 * does, each run starts a fresh workerd whose first request imports the Worker, and
 * profiles that request; unlike it, the profile samples every 50 µs (wrangler's
 * default samples every few milliseconds, too coarse for a 10 ms difference) and
 * counts only the samples inside the import, so the request and the profiler's own
 * start are left out. Chunks the entry imports only with `import()` are not compiled
 * here: they load with the first request that needs them (npm run bench:cold times that).
 * Medians of interleaved runs with their ranges; a benchmark, not a test: run it on a
 * quiet machine.
 *
 *   npm run bench:startup                         # 11 runs of each
 *   npm run bench:startup -- --runs 21
 *   npm run bench:startup -- --against main       # and another revision, in the same runs
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { unstable_readConfig } from "wrangler";
import { workerModules } from "../lib/built-worker";
import { type CpuProfile, profileWhile } from "../lib/cpu-profile";
import { buildBundle, revisionTree } from "../lib/miniflare-service";

const { values } = parseArgs({
	options: {
		runs: { type: "string", default: "11" },
		against: { type: "string", multiple: true, default: [] },
	},
});
const runs = Math.max(3, Number(values.runs));
const { compatibility_date: compatibilityDate } = unstable_readConfig({ config: "wrangler.toml" });

/** The import, in a function of its own so the profile can tell its samples from the rest. */
const IMPORTER = "edge-ids-startup-importer.mjs";
const importer = (entry: string) => `
async function startup() {
	await import("./${basename(entry)}");
}
export default {
	async fetch() {
		await startup();
		return new Response("ok");
	},
};`;

/** Milliseconds of `profile`'s samples inside the importer's `startup` (the import itself). */
function importMs(profile: CpuProfile): number {
	const parent = new Map<number, number>();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parent.set(child, node.id);
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const inImport = (id: number | undefined): boolean => {
		for (let at = id; at !== undefined; at = parent.get(at)) {
			const frame = byId.get(at)?.callFrame;
			if (frame?.functionName === "startup" && frame.url.endsWith(IMPORTER)) return true;
		}
		return false;
	};
	let us = 0;
	for (const [i, id] of profile.samples.entries()) {
		// A sample's delta is the time since the previous one: it belongs to this sample.
		if (inImport(id)) us += profile.timeDeltas[i] ?? 0;
	}
	return us / 1000;
}

/** One fresh workerd importing the Worker at `entry`: its startup's CPU milliseconds. */
async function startupMs(entry: string): Promise<number> {
	const { modules, modulesRoot } = workerModules(entry);
	const mf = new Miniflare(
		convertV4MiniflareOptions({
			compatibilityDate,
			inspectorPort: 0,
			modulesRoot,
			modules: [
				{ type: "ESModule", path: join(dirname(entry), IMPORTER), contents: importer(entry) },
				...modules,
			],
			handleStructuredLogs: () => {},
		}),
	);
	try {
		await mf.ready;
		const profile = await profileWhile(await mf.getInspectorURL(), async () => {
			const answer = await mf.dispatchFetch("http://startup.local/");
			if (!answer.ok) throw new Error(`importing ${entry} failed: ${await answer.text()}`);
		});
		return importMs(profile);
	} finally {
		await mf.dispose();
	}
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[list.length >> 1] ?? 0;
const summary = (list: number[]) => {
	const sorted = [...list].sort((a, b) => a - b);
	return `median ${median(list).toFixed(1)} ms (range ${sorted[0]?.toFixed(1)}–${sorted.at(-1)?.toFixed(1)})`;
};

const scratch = mkdtempSync(join(tmpdir(), "edge-ids-startup-"));
const revisions = values.against.map((ref) => ({ ref, ...revisionTree(ref) }));
try {
	const BARE = "bare Hono app";
	const targets = [
		{ name: "edge-ids", entry: buildBundle(join(scratch, "service")) },
		...revisions.map(({ ref, tree }) => ({
			name: `edge-ids at ${ref}`,
			entry: buildBundle(
				join(scratch, `revision-${ref.replace(/\W/g, "_")}`),
				"wrangler.toml",
				tree,
			),
		})),
		{
			name: BARE,
			entry: buildBundle(join(scratch, "bare"), "wrangler.toml", "scripts/bench/startup-baseline"),
		},
	];
	console.log(
		`startup CPU (ms inside the Worker's import, sampled every 50 µs), ${runs} runs each, interleaved; node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(2)}`,
	);
	const times = targets.map(() => [] as number[]);
	for (let i = 0; i < runs; i++) {
		for (const [t, target] of targets.entries()) times[t]?.push(await startupMs(target.entry));
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
	for (const { cleanup } of revisions) cleanup();
	rmSync(scratch, { recursive: true, force: true });
}
