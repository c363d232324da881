/**
 * A CPU profile of what a Worker runs while `action` does (a request, say), taken
 * through workerd's inspector (the DevTools protocol), and read back against the
 * bundle's source map: which of our files and which libraries the time went to, and
 * in what order.
 *
 *   const service = await startBundle(script, "wrangler.toml", { inspector: true });
 *   const profile = await profileWhile(await service.inspectorUrl(), () => fetch(url));
 *   console.log(timeline(profile, sourceMapOf(script)).join("\n"));
 */
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { dirname, join } from "node:path";

interface CallFrame {
	functionName: string;
	url: string;
	lineNumber: number;
	columnNumber: number;
}
interface ProfileNode {
	id: number;
	callFrame: CallFrame;
	children?: number[];
}
export interface CpuProfile {
	nodes: ProfileNode[];
	startTime: number;
	endTime: number;
	samples: number[];
	timeDeltas: number[];
}

/** The user Worker's inspector target (Miniflare names it `core:user:<name>`). */
async function userTarget(inspector: URL): Promise<string> {
	const targets = (await (await fetch(`http://${inspector.host}/json`)).json()) as {
		id: string;
		webSocketDebuggerUrl: string;
	}[];
	const target = targets.find((t) => t.id.startsWith("core:user:"));
	if (!target) throw new Error(`no user Worker among the inspector's targets`);
	return target.webSocketDebuggerUrl;
}

/** A DevTools protocol session over one WebSocket. */
async function session(url: string) {
	const socket = new WebSocket(url);
	await new Promise((resolve, reject) => {
		socket.addEventListener("open", resolve, { once: true });
		socket.addEventListener("error", reject, { once: true });
	});
	let nextId = 1;
	const pending = new Map<number, (result: unknown) => void>();
	socket.addEventListener("message", (event) => {
		const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
		if (message.id !== undefined) pending.get(message.id)?.(message.result);
	});
	return {
		send<T>(method: string, params: object = {}): Promise<T> {
			const id = nextId++;
			socket.send(JSON.stringify({ id, method, params }));
			return new Promise((resolve) => pending.set(id, resolve as (result: unknown) => void));
		},
		close: () => socket.close(),
	};
}

/** The CPU profile of the user Worker while `action` runs, sampled every `intervalUs`. */
export async function profileWhile(
	inspector: URL,
	action: () => Promise<unknown>,
	intervalUs = 50,
): Promise<CpuProfile> {
	const devtools = await session(await userTarget(inspector));
	try {
		await devtools.send("Profiler.enable");
		await devtools.send("Profiler.setSamplingInterval", { interval: intervalUs });
		await devtools.send("Profiler.start");
		await action();
		const { profile } = await devtools.send<{ profile: CpuProfile }>("Profiler.stop");
		return profile;
	} finally {
		devtools.close();
	}
}

/** The source maps of a built Worker's modules (its entry and chunks), read as frames need them. */
export interface BundleMaps {
	of(url: string): SourceMap;
}

export function sourceMapOf(script: string): BundleMaps {
	const read = (path: string) => new SourceMap(JSON.parse(readFileSync(`${path}.map`, "utf8")));
	const entry = read(script);
	const maps = new Map<string, SourceMap>();
	return {
		of(url) {
			// Miniflare names a module file:///bundle/<its path beside the entry> (chunks/…);
			// one without a map of its own reads the entry's.
			const path = join(dirname(script), new URL(url).pathname.replace(/^\/bundle\//, ""));
			if (!existsSync(`${path}.map`)) return entry;
			if (!maps.has(path)) maps.set(path, read(path));
			return maps.get(path) as SourceMap;
		},
	};
}

/** Where a frame's code comes from: a file of ours, a package, or the runtime. */
function originOf(frame: CallFrame, map: BundleMaps): { origin: string; ours: boolean } {
	if (frame.url === "" || frame.lineNumber < 0) {
		// (program), (idle), (garbage collector), (root), or a builtin.
		return { origin: frame.functionName || "(runtime)", ours: false };
	}
	// The runtime's own JavaScript (`node-internal:internal_inspect`, console.log's formatting).
	if (!frame.url.startsWith("file:")) return { origin: `(runtime) ${frame.url}`, ours: false };
	const entry = map.of(frame.url).findEntry(frame.lineNumber, frame.columnNumber) as {
		originalSource?: string;
	};
	const source = entry.originalSource ?? frame.url;
	const packageName = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(source);
	if (packageName) {
		const [, name, rest = ""] = packageName;
		// Hono's routers apart from the rest of it: they are one of the levers.
		const router = /router\/([^/]+)/.exec(rest);
		return { origin: router ? `${name} ${router[1]} router` : (name as string), ours: false };
	}
	const ours = /(src\/.*|scripts\/.*)$/.exec(source);
	return { origin: ours?.[1] ?? source, ours: true };
}

interface Sample {
	/** µs since the profile began. */
	at: number;
	durationUs: number;
	stack: { frame: CallFrame; origin: string; ours: boolean }[];
}

function samplesOf(profile: CpuProfile, map: BundleMaps): Sample[] {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parent.set(child, node.id);
	const stacks = new Map<number, Sample["stack"]>();
	const stackOf = (id: number): Sample["stack"] => {
		let stack = stacks.get(id);
		if (!stack) {
			stack = [];
			for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
				const frame = (byId.get(at) as ProfileNode).callFrame;
				stack.unshift({ frame, ...originOf(frame, map) });
			}
			stacks.set(id, stack);
		}
		return stack;
	};
	const samples: Sample[] = [];
	let at = 0;
	for (const [i, id] of profile.samples.entries()) {
		at += profile.timeDeltas[i] ?? 0;
		const next = profile.timeDeltas[i + 1] ?? 0;
		samples.push({ at, durationUs: next, stack: stackOf(id) });
	}
	return samples;
}

/**
 * A sample's phase: the innermost function of ours on the stack (`config.ts
 * integerVar`), and the package it was in at the time (`→ zod`), if any; the
 * runtime's own states as they are.
 */
function phaseOf(sample: Sample): string {
	const { stack } = sample;
	const leaf = stack.at(-1);
	if (!leaf) return "(none)";
	let index = stack.length - 1;
	while (index >= 0 && !stack[index]?.ours) index--;
	const ours = stack[index];
	const name = ours ? `${ours.origin} ${ours.frame.functionName || "(anonymous)"}` : "";
	if (leaf.frame.url === "" && RUNTIME_STATES.has(leaf.origin)) {
		return name ? `${leaf.origin} in ${name}` : leaf.origin;
	}
	const below = stack.slice(index + 1).find((entry) => !entry.ours && entry.frame.url !== "");
	const library =
		below?.origin ?? (ours ? "" : (stack.find((e) => e.frame.url !== "")?.origin ?? leaf.origin));
	return [name, library].filter(Boolean).join(" → ");
}

const RUNTIME_STATES = new Set(["(idle)", "(program)", "(garbage collector)"]);

/**
 * What ran, in order: consecutive samples of one phase merged, phases under
 * `minUs` folded into the next line's "and …" count. Idle time is left out.
 */
export function timeline(profile: CpuProfile, map: BundleMaps, minUs = 100): string[] {
	const segments: { phase: string; at: number; us: number }[] = [];
	for (const sample of samplesOf(profile, map)) {
		const phase = phaseOf(sample);
		if (phase === "(idle)") continue;
		const last = segments.at(-1);
		if (last?.phase === phase) last.us += sample.durationUs;
		else segments.push({ phase, at: sample.at, us: sample.durationUs });
	}
	const lines: string[] = [];
	let folded = 0;
	for (const { phase, at, us } of segments) {
		if (us < minUs) {
			folded += us;
			continue;
		}
		lines.push(
			`${(at / 1000).toFixed(2).padStart(7)} ms  ${(us / 1000).toFixed(2).padStart(5)} ms  ${phase}`,
		);
		if (folded > 0) {
			lines[lines.length - 1] += `  (+${(folded / 1000).toFixed(2)} ms in short phases before it)`;
			folded = 0;
		}
	}
	return lines;
}

/** Busy (non-idle) time by where it went: self time per origin, largest first. */
export function busyByOrigin(
	profile: CpuProfile,
	map: BundleMaps,
): { origin: string; ms: number }[] {
	const totals = new Map<string, number>();
	for (const sample of samplesOf(profile, map)) {
		const leaf = sample.stack.at(-1);
		if (!leaf || leaf.origin === "(idle)") continue;
		totals.set(leaf.origin, (totals.get(leaf.origin) ?? 0) + sample.durationUs);
	}
	return [...totals].map(([origin, us]) => ({ origin, ms: us / 1000 })).sort((a, b) => b.ms - a.ms);
}

/** Busy time per function of ours, inclusive (everything it called), largest first. */
export function busyByFunction(
	profile: CpuProfile,
	map: BundleMaps,
): { name: string; ms: number }[] {
	const totals = new Map<string, number>();
	for (const sample of samplesOf(profile, map)) {
		if (sample.stack.at(-1)?.origin === "(idle)") continue;
		const seen = new Set<string>();
		for (const entry of sample.stack) {
			if (!entry.ours) continue;
			const name = `${entry.origin} ${entry.frame.functionName || "(anonymous)"}`;
			if (seen.has(name)) continue;
			seen.add(name);
			totals.set(name, (totals.get(name) ?? 0) + sample.durationUs);
		}
	}
	return [...totals].map(([name, us]) => ({ name, ms: us / 1000 })).sort((a, b) => b.ms - a.ms);
}

/** Self time per function (any origin), largest first. */
export function busyBySelf(profile: CpuProfile, map: BundleMaps): { name: string; ms: number }[] {
	const totals = new Map<string, number>();
	for (const sample of samplesOf(profile, map)) {
		const leaf = sample.stack.at(-1);
		if (!leaf || leaf.origin === "(idle)") continue;
		const name = `${leaf.origin} ${leaf.frame.functionName || "(anonymous)"}`;
		totals.set(name, (totals.get(name) ?? 0) + sample.durationUs);
	}
	return [...totals].map(([name, us]) => ({ name, ms: us / 1000 })).sort((a, b) => b.ms - a.ms);
}
