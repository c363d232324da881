/**
 * A Worker as `wrangler deploy --dry-run --outdir <dir>` leaves it: an entry module
 * and, for this service (scripts/build/worker.ts), chunks beside it that the entry
 * imports. Earlier versions built one file, index.js. Miniflare takes them all as a
 * module list.
 *
 *   const entry = builtEntry(".build/service");   // .build/service/index.mjs
 *   new Miniflare({ ...workerModules(entry), compatibilityDate, … });
 */
import { cpSync, existsSync, readdirSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/** The entry module in `outdir`: index.mjs (built in chunks), else index.js (one file). */
export function builtEntry(outdir: string): string {
	const chunked = resolve(outdir, "index.mjs");
	return existsSync(chunked) ? chunked : resolve(outdir, "index.js");
}

/** Empties `outdir` before a build into it: chunk names carry hashes, so old ones would stay. */
export function clearOutdir(outdir: string): void {
	rmSync(outdir, { recursive: true, force: true });
}

/** Miniflare's `modules` and `modulesRoot` for the Worker whose entry is `entry`: the entry first. */
export function workerModules(entry: string) {
	const root = dirname(entry);
	const others = readdirSync(root, { recursive: true, encoding: "utf8" })
		.filter((file) => /\.m?js$/.test(file) && file !== basename(entry))
		.sort();
	return {
		modulesRoot: root,
		modules: [entry, ...others.map((file) => join(root, file))].map((path) => ({
			type: "ESModule" as const,
			path,
		})),
	};
}

/**
 * The source maps of the build in `cwd` (.build/worker/, scripts/build/worker.ts) beside
 * its modules in `outdir`: `wrangler deploy --dry-run --outdir` copies the modules only.
 * A one-file build of an earlier version has its map in `outdir` already.
 */
export function copySourceMaps(cwd: string, outdir: string): void {
	const built = resolve(cwd, ".build/worker");
	if (!existsSync(built)) return;
	cpSync(built, outdir, { recursive: true, filter: (path) => !/\.m?js$/.test(path) });
}

/** wrangler.toml's lines naming the built entry and its chunks (scripts/build/worker.ts). */
const BUILT_MAIN = `main = ".build/worker/index.mjs"
no_bundle = true
find_additional_modules = true
base_dir = ".build/worker"
rules = [{ type = "ESModule", globs = ["**/*.mjs"], fallthrough = false }]
`;

/**
 * wrangler.toml (its text) with the Worker's source as `main`, for wrangler to bundle in
 * one file as it would by default: what `wrangler types` reads the Worker's types from,
 * and how the dev:consumer session runs it.
 */
export function withSourceMain(toml: string): string {
	if (!toml.includes(BUILT_MAIN)) {
		throw new Error(
			"wrangler.toml no longer names the built entry as scripts/lib/built-worker.ts expects",
		);
	}
	return toml.replace(BUILT_MAIN, 'main = "src/index.ts"\n');
}
