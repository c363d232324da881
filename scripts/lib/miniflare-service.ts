/**
 * The real bundle in workerd with no dev proxy: `wrangler deploy --dry-run --outdir dist`
 * (what a deploy uploads), served by Miniflare on a free loopback port, its Durable
 * Objects' SQLite files in a scratch directory. Benchmarks measure the Worker here; `wrangler dev` adds its
 * proxy and inspector to every request.
 *
 *   const service = await startBundledService({ REQUEST_LOG: "off" });
 *   await fetch(`${service.url}/health`);
 *   await service.stop();
 *
 *   // A bundle built once, started many times (each a fresh workerd, so a new isolate):
 *   const script = buildBundle(".build/cold", "wrangler.toml");
 *   const fresh = await startBundle(script, "wrangler.toml");
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { unstable_readConfig } from "wrangler";
import { builtEntry, clearOutdir, copySourceMaps, workerModules } from "./built-worker";

/**
 * Builds the bundle into `outdir` as `wrangler deploy` would (esbuild, wrangler.toml),
 * running wrangler in `cwd` (another checkout, say).
 */
export function buildBundle(outdir = "dist", config = "wrangler.toml", cwd = "."): string {
	clearOutdir(resolve(outdir));
	execFileSync(
		"npx",
		["wrangler", "deploy", "--dry-run", "-c", config, "--outdir", resolve(outdir)],
		{ cwd, stdio: "pipe", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
	);
	copySourceMaps(cwd, resolve(outdir));
	return builtEntry(outdir);
}

interface DurableObjectBinding {
	name: string;
	class_name: string;
}
interface RateLimitBinding {
	name: string;
	namespace_id: string;
}

/**
 * Git revision `ref` (`main`, a tag, a commit) extracted into `tree` (created), with its
 * packages: this checkout's node_modules when the lockfiles agree, else its own,
 * installed with `npm ci` (about 30 s: it may import packages this one dropped).
 */
export function checkoutRevision(ref: string, tree: string): void {
	mkdirSync(tree, { recursive: true });
	const archive = execFileSync("git", ["archive", "--format=tar", ref], {
		maxBuffer: 256 * 1024 * 1024,
	});
	execFileSync("tar", ["-x", "-C", tree], { input: archive });
	if (
		readFileSync(join(tree, "package-lock.json"), "utf8") ===
		readFileSync("package-lock.json", "utf8")
	) {
		symlinkSync(resolve("node_modules"), join(tree, "node_modules"));
	} else {
		execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: tree, stdio: "pipe" });
	}
}

/** A scratch copy of git revision `ref` (`checkoutRevision`); `cleanup` removes it. */
export function revisionTree(ref: string): { tree: string; cleanup: () => void } {
	const dir = mkdtempSync(join(tmpdir(), "edge-ids-revision-"));
	const tree = join(dir, "tree");
	checkoutRevision(ref, tree);
	return { tree, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The bundle of git revision `ref`, built in a scratch copy of it (`revisionTree`). */
export function buildRevisionBundle(ref: string): {
	script: string;
	config: string;
	cleanup: () => void;
} {
	const { tree, cleanup } = revisionTree(ref);
	// The bundle inside this checkout: Miniflare names modules by their path from here,
	// and workerd refuses a module path that climbs out of it.
	mkdirSync(".build", { recursive: true });
	const outdir = mkdtempSync(join(".build", "revision-"));
	return {
		script: buildBundle(outdir, "wrangler.toml", tree),
		config: join(tree, "wrangler.toml"),
		cleanup: () => {
			cleanup();
			rmSync(outdir, { recursive: true, force: true });
		},
	};
}

export interface StartOptions {
	/** Over the config's vars. */
	vars?: Record<string, string>;
	/** Open workerd's inspector (DevTools protocol) on a free port: `inspectorUrl()`. */
	inspector?: boolean;
	/** Where the Worker's console lines go; default: dropped (a benchmark's output stays its own). */
	log?: (line: string) => void;
	/** Requests per 10 s each rate limiter allows; default a limit no benchmark reaches. */
	rateLimit?: number;
	/** Over the config's compatibility date. */
	compatibilityDate?: string;
	/** Serve the config's static files (`[assets]`) as a deploy would; default off (benchmarks time the Worker). */
	assets?: boolean;
	/** Keep Durable Object state in this directory (a later Miniflare on it restarts the objects); default a scratch directory. */
	persistTo?: string;
}

interface AssetsConfig {
	directory?: string;
	binding?: string;
	run_worker_first?: boolean | string[];
}

/** Miniflare's options for the config's `[assets]`, as wrangler passes them. */
function assetsOptions(config: string, assets: AssetsConfig | undefined) {
	if (!assets?.directory) return {};
	return {
		assets: {
			directory: resolve(dirname(config), assets.directory),
			binding: assets.binding,
			routerConfig: {
				has_user_worker: true,
				invoke_user_worker_ahead_of_assets: assets.run_worker_first === true,
			},
		},
	};
}

/**
 * The bundle at `scriptPath` in a new Miniflare, with the compatibility date, vars and
 * Durable Objects (SQLite files in a scratch directory, or in `persistTo`)
 * of the wrangler config `config`; a rate limiter
 * (RATE_LIMITER) with a limit no benchmark reaches unless `rateLimit` says otherwise:
 * the bench measures the service, not the limiter.
 */
export async function startBundle(scriptPath: string, config: string, options: StartOptions = {}) {
	const wrangler = unstable_readConfig({ config });
	const durableObjects = Object.fromEntries(
		wrangler.durable_objects.bindings.map(({ name, class_name }: DurableObjectBinding) => [
			name,
			{ className: class_name, useSQLite: true },
		]),
	);
	const ratelimits = Object.fromEntries(
		wrangler.ratelimits.map(({ name, namespace_id }: RateLimitBinding) => [
			name,
			{ namespace_id, simple: { limit: options.rateLimit ?? 1_000_000_000, period: 10 as const } },
		]),
	);
	const log = options.log ?? (() => {});
	// Miniflare 5 takes these (v4-shaped) options through its converter.
	const mf = new Miniflare(
		convertV4MiniflareOptions({
			host: "127.0.0.1",
			port: 0,
			...(options.inspector ? { inspectorPort: 0 } : {}),
			...workerModules(scriptPath),
			compatibilityDate: options.compatibilityDate ?? wrangler.compatibility_date,
			bindings: { ...(wrangler.vars as Record<string, string>), ...options.vars },
			durableObjects,
			ratelimits,
			...(options.assets ? assetsOptions(config, wrangler.assets as AssetsConfig | undefined) : {}),
			...(options.persistTo ? { resourcePersistencePath: options.persistTo } : {}),
			handleStructuredLogs: ({ message }) => log(message),
		}),
	);
	const url = (await mf.ready).toString().replace(/\/$/, "");
	return { url, inspectorUrl: () => mf.getInspectorURL(), stop: () => mf.dispose() };
}

/**
 * The service's bundle in Miniflare, with wrangler.toml's vars overridden by `vars`:
 * built now, or `bundle` when given (a `dist/index.js` built already).
 */
export async function startBundledService(
	vars: Record<string, string> = {},
	bundle?: string,
	options: Omit<StartOptions, "vars"> = {},
) {
	return startBundle(bundle ?? buildBundle(), "wrangler.toml", { ...options, vars });
}
