/**
 * npm run bench:cold — a new isolate's first requests against a bare Hono app's: the
 * service's real bundle and a bare Hono app with a bare Durable Object
 * (scripts/bench/startup-baseline, built by the same wrangler, run under the service's
 * compatibility date), each in a fresh Miniflare (a new workerd, so a new isolate)
 * per round, the two interleaved round by round.
 *
 *   npm run bench:cold                          # 7 rounds
 *   npm run bench:cold -- --rounds 11
 *   npm run bench:cold -- --against main        # and another revision's bundle, in the same rounds
 *   npm run bench:cold -- --bundle old=path/to/index.js   # or a bundle built before
 *   npm run bench:cold -- --no-tree --against v0.1.0 --against main   # revisions only
 *   npm run bench:cold -- --variant "no log:REQUEST_LOG=off"   # this bundle under other vars too
 *   npm run bench:cold -- --profile             # what the first requests run, in order, with times
 *
 * A sequence asks each of its paths first once (timed), then 20 times more (the warm
 * median). The last sequence runs on Durable Object state an earlier isolate stored
 * (in a temporary directory), so its object restarts as after a deploy or an eviction,
 * where the others' start for the first time ever (a fresh namespace: the layout check
 * included). "extra" is the first request's time minus the warm median — what the
 * first use of the path costs — and the figure that counts is the service's minus the
 * bare app's, per round; the tables show its median and range. Two tables: wall time
 * (what a caller waits), and workerd's CPU time over the same requests (every thread,
 * from /proc: Linux only), which other processes on a shared machine disturb far
 * less. Each Miniflare is left to settle (its start-up's CPU tail) before the first
 * request. The service runs with its default config (wrangler.toml's vars: the
 * request log on). A benchmark, not a test: run it on a quiet machine.
 *
 * `--profile` takes one fresh isolate of each target through each sequence with
 * workerd's inspector open and prints, per first request, a CPU profile read against
 * the bundle's source map (scripts/lib/cpu-profile.ts): busy time by file or package,
 * by function of ours (inclusive), the hottest functions, and the timeline of what
 * ran. The inspector slows the isolate: read a profile for what runs and its shares,
 * the rounds for the figures.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { unstable_readConfig } from "wrangler";
import {
	busyByFunction,
	busyByOrigin,
	busyBySelf,
	profileWhile,
	sourceMapOf,
	timeline,
} from "../lib/cpu-profile";
import { buildBundle, buildRevisionBundle, startBundle } from "../lib/miniflare-service";
import { childPid, cpuMs, settled } from "../lib/process-cpu";

const { values } = parseArgs({
	options: {
		rounds: { type: "string", default: "7" },
		warm: { type: "string", default: "20" },
		against: { type: "string", multiple: true, default: [] },
		bundle: { type: "string", multiple: true, default: [] },
		/** `name:KEY=value,KEY=value`: this checkout's bundle again, these vars over its own. */
		variant: { type: "string", multiple: true, default: [] },
		/** Leave out this checkout's bundle (time only --against and --bundle ones). */
		"no-tree": { type: "boolean", default: false },
		profile: { type: "boolean", default: false },
	},
});
const rounds = Math.max(3, Number(values.rounds));
const warmRequests = Math.max(5, Number(values.warm));

interface Sequence {
	paths: { path: string; label: string }[];
	/**
	 * Paths an earlier isolate asked first, on the same stored state (then stopped): the
	 * timed isolate's objects restart on what they stored, as after a deploy or an eviction.
	 */
	before?: string[];
}

const SEQUENCES: Sequence[] = [
	{
		paths: [
			{ path: "/health", label: "`/health` first (app-wide first use)" },
			{ path: "/ulid", label: "`/ulid` after `/health` (the route's own first use)" },
			{ path: "/snowflake/1", label: "`/snowflake/1` after both (its object starts)" },
		],
	},
	{ paths: [{ path: "/ulid", label: "`/ulid` first" }] },
	{
		before: ["/snowflake/1"],
		paths: [
			{ path: "/health", label: "`/health` first, objects stored by an earlier isolate" },
			{
				path: "/snowflake/1",
				label: "`/snowflake/1` after it (its object restarts on stored state)",
			},
		],
	},
];

interface Target {
	name: string;
	script: string;
	config: string;
	vars?: Record<string, string>;
	cleanup?: () => void;
}

/** `name:KEY=value,KEY=value` → the name and the vars. */
function parseVariant(text: string): { name: string; vars: Record<string, string> } {
	const colon = text.indexOf(":");
	if (colon < 1) throw new Error(`--variant ${text}: expected name:KEY=value[,KEY=value…]`);
	const vars: Record<string, string> = {};
	for (const pair of text.slice(colon + 1).split(",")) {
		const [key = "", ...value] = pair.split("=");
		if (!key || value.length === 0) throw new Error(`--variant ${text}: ${pair} is not KEY=value`);
		vars[key] = value.join("=");
	}
	return { name: text.slice(0, colon), vars };
}

const BARE = "bare";
const BARE_CONFIG = "scripts/bench/startup-baseline/wrangler.toml";

function targets(): Target[] {
	const list: Target[] = [
		{ name: BARE, script: buildBundle(".build/cold/baseline", BARE_CONFIG), config: BARE_CONFIG },
	];
	const variants = values.variant.map(parseVariant);
	if (!values["no-tree"] || variants.length > 0) {
		const script = buildBundle(".build/cold/service");
		if (!values["no-tree"]) list.unshift({ name: "edge-ids", script, config: "wrangler.toml" });
		for (const { name, vars } of variants)
			list.push({ name, script, config: "wrangler.toml", vars });
	}
	for (const ref of values.against) {
		const built = buildRevisionBundle(ref);
		list.push({ name: `edge-ids at ${ref}`, ...built });
	}
	for (const named of values.bundle) {
		const [name = "", ...path] = named.split("=");
		list.push({ name, script: path.join("="), config: "wrangler.toml" });
	}
	return list;
}

interface Timing {
	/** Wall time from sending the request to the body's last byte. */
	wallMs: number;
	/** CPU time workerd (every thread) spent meanwhile. */
	cpuMs: number;
}

async function timed(url: string, workerd?: number): Promise<Timing> {
	const cpuBefore = workerd === undefined ? 0 : cpuMs(workerd);
	const started = performance.now();
	const response = await fetch(url);
	await response.arrayBuffer();
	const wallMs = performance.now() - started;
	const cpu = workerd === undefined ? 0 : cpuMs(workerd) - cpuBefore;
	if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
	return { wallMs, cpuMs: cpu };
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2
		? (sorted[mid] as number)
		: ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The service's compatibility date: the bare app runs under the same one. */
const compatibilityDate = unstable_readConfig({ config: "wrangler.toml" }).compatibility_date;

/**
 * A fresh isolate (a new Miniflare) of `target` for `sequence`, on the state an
 * earlier isolate left after asking the sequence's `before` paths, if any.
 */
async function freshIsolate(target: Target, sequence: Sequence, inspector = false) {
	const state = sequence.before ? mkdtempSync(join(tmpdir(), "edge-ids-cold-")) : undefined;
	const start = () =>
		startBundle(target.script, target.config, {
			compatibilityDate,
			vars: target.vars,
			persistTo: state,
			inspector,
		});
	if (sequence.before) {
		const earlier = await start();
		for (const path of sequence.before) await timed(`${earlier.url}${path}`);
		await earlier.stop();
	}
	const service = await start();
	return {
		...service,
		stop: async () => {
			await service.stop();
			if (state) rmSync(state, { recursive: true, force: true });
		},
	};
}

/**
 * One fresh isolate through a sequence: each path's first request, less the median
 * of the warm ones after it (wall and CPU time).
 */
async function runSequence(target: Target, sequence: Sequence): Promise<Timing[]> {
	const service = await freshIsolate(target, sequence);
	try {
		const workerd = childPid("workerd");
		await settled(workerd);
		const extras: Timing[] = [];
		for (const { path } of sequence.paths) {
			const url = `${service.url}${path}`;
			const first = await timed(url, workerd);
			const warm: Timing[] = [];
			for (let i = 0; i < warmRequests; i++) warm.push(await timed(url, workerd));
			extras.push({
				wallMs: first.wallMs - median(warm.map((t) => t.wallMs)),
				cpuMs: first.cpuMs - median(warm.map((t) => t.cpuMs)),
			});
		}
		return extras;
	} finally {
		await service.stop();
	}
}

async function measure(list: Target[]): Promise<void> {
	console.log(
		`first requests of a fresh isolate (Miniflare's workerd, compatibility date ${compatibilityDate}), ${rounds} interleaved rounds, ${warmRequests} warm requests per path; node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(2)}`,
	);
	/** extras[sequence][path][target] = each round's extra. */
	const extras = SEQUENCES.map((sequence) =>
		sequence.paths.map(() => list.map(() => [] as Timing[])),
	);
	for (let round = 0; round < rounds; round++) {
		// Turn the order round by round, so no target always meets another's leftovers.
		const order = list.map((_, i) => (i + round) % list.length);
		for (const [s, sequence] of SEQUENCES.entries()) {
			for (const t of order) {
				const result = await runSequence(list[t] as Target, sequence);
				for (const [p, extra] of result.entries()) extras[s]?.[p]?.[t]?.push(extra);
			}
		}
		console.log(`  round ${round + 1}/${rounds} done, load average ${loadavg()[0]?.toFixed(2)}`);
	}

	const range = (values: number[]) =>
		`${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`;
	const cell = (values: number[]) => `${median(values).toFixed(1)} ms (${range(values)})`;
	const bare = list.findIndex((target) => target.name === BARE);
	const services = list.map((target, t) => ({ target, t })).filter(({ t }) => t !== bare);
	for (const kind of ["wallMs", "cpuMs"] as const) {
		console.log(
			kind === "wallMs"
				? "\nWall time: the first request's, less the warm median"
				: "\nworkerd's CPU time (every thread): the first request's, less the warm median",
		);
		const head = services.map(({ target }) => `${target.name} extra | **over bare**`);
		console.log(`| first path on a fresh isolate | bare extra | ${head.join(" | ")} |`);
		console.log(`|---|---|${services.map(() => "---|---|").join("")}`);
		for (const [s, sequence] of SEQUENCES.entries()) {
			for (const [p, { label }] of sequence.paths.entries()) {
				const of = (t: number) => (extras[s]?.[p]?.[t] ?? []).map((timing) => timing[kind]);
				const bareValues = of(bare);
				const cells = services.map(({ t }) => {
					const own = of(t);
					const over = own.map((value, round) => value - (bareValues[round] ?? 0));
					return `${cell(own)} | **${cell(over)}**`;
				});
				console.log(`| ${label} | ${cell(bareValues)} | ${cells.join(" | ")} |`);
			}
		}
	}
	console.log(
		`\nmedian (range) of ${rounds} rounds; load average at the end ${loadavg()[0]?.toFixed(2)}`,
	);
}

/** `--profile`: each sequence's first requests on a fresh isolate, profiled. */
async function profileSequences(list: Target[]): Promise<void> {
	const ms = (value: number) => `${value.toFixed(2).padStart(6)} ms`;
	for (const target of list) {
		const map = sourceMapOf(target.script);
		for (const sequence of SEQUENCES) {
			const service = await freshIsolate(target, sequence, true);
			try {
				const inspector = await service.inspectorUrl();
				await settled(childPid("workerd"));
				for (const { path, label } of sequence.paths) {
					let wall = 0;
					const profile = await profileWhile(inspector, async () => {
						wall = (await timed(`${service.url}${path}`)).wallMs;
					});
					const origins = busyByOrigin(profile, map);
					const busy = origins.reduce((sum, { ms }) => sum + ms, 0);
					console.log(
						`\n## ${target.name}: ${label} — ${wall.toFixed(1)} ms wall, ${busy.toFixed(1)} ms busy`,
					);
					if (target.name === BARE) continue;
					console.log("busy by file or package (self time):");
					for (const { origin, ms: value } of origins.filter(({ ms: v }) => v >= 0.1))
						console.log(`  ${ms(value)}  ${origin}`);
					console.log("busy by function of ours (inclusive):");
					for (const { name, ms: value } of busyByFunction(profile, map).filter(
						({ ms: v }) => v >= 0.2,
					))
						console.log(`  ${ms(value)}  ${name}`);
					console.log("hottest functions (self time):");
					for (const { name, ms: value } of busyBySelf(profile, map).slice(0, 15))
						console.log(`  ${ms(value)}  ${name}`);
					console.log(
						"timeline (start, duration, innermost function of ours → the package it was in):",
					);
					for (const line of timeline(profile, map)) console.log(`  ${line}`);
				}
			} finally {
				await service.stop();
			}
		}
	}
}

const list = targets();
try {
	if (values.profile) await profileSequences(list);
	else await measure(list);
} finally {
	for (const target of list) target.cleanup?.();
}
