/**
 * `npm run build:worker` (wrangler's `[build]` command runs it before every `wrangler dev`
 * and `wrangler deploy`): the Worker, bundled by esbuild into .build/worker/ in chunks.
 *
 * Why not wrangler's own bundle: it is one module, and workerd compiles all of it as
 * a new isolate starts. Here the code that only some routes run is reached through
 * `import()` (src/worker/on-first-use.ts: the Snowflake object's rules and records,
 * the operations behind /snowflake, /decode, /range, /typeid and /leases, the /docs
 * page, all in one chunk, and the OpenAPI document in another), and workerd compiles
 * a chunk only when it is first imported: an isolate that answers /health or /ulid
 * never compiles them (docs/PERFORMANCE.md, "Startup").
 * wrangler uploads the chunks beside the entry (`no_bundle`, `.mjs` files are ES modules).
 *
 * The options are wrangler's own (conditions, target, platform, NODE_ENV), minified,
 * without kept function names: keeping them defines every function's `name` as it is
 * created, which cost a new isolate's first request more than anything of ours. No
 * answer or log line uses one.
 *
 *   npm run build:worker                 # .build/worker/index.mjs and its chunks
 *   tsx scripts/build/worker.ts --outdir some/dir --metafile meta.json
 *   BUILD_WORKER_READABLE=1 npm run build:worker   # not minified: names to read a profile by
 */
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const { values } = parseArgs({
	options: {
		outdir: { type: "string", default: ".build/worker" },
		metafile: { type: "string" },
	},
});
const outdir = values.outdir;

const result = await build({
	entryPoints: { index: "src/index.ts" },
	bundle: true,
	splitting: true,
	format: "esm",
	outdir,
	outExtension: { ".js": ".mjs" },
	chunkNames: "chunks/[name]-[hash]",
	target: "es2024",
	supported: { "import-source": true, using: true },
	platform: "neutral",
	conditions: ["workerd", "worker", "browser"],
	mainFields: ["browser", "module", "main"],
	external: ["cloudflare:*"],
	define: { "process.env.NODE_ENV": '"production"' },
	minify: !process.env.BUILD_WORKER_READABLE,
	keepNames: false,
	sourcemap: true,
	metafile: values.metafile !== undefined,
	logLevel: "warning",
	write: false,
});

// Each file written beside itself and renamed into place: dev servers start side by side
// (the tests run several), each running this build, and none may read half a file.
const written = new Set<string>();
for (const file of result.outputFiles) {
	mkdirSync(dirname(file.path), { recursive: true });
	const partial = `${file.path}.${process.pid}.partial`;
	writeFileSync(partial, file.contents);
	renameSync(partial, file.path);
	written.add(file.path);
}
// Chunk names carry a content hash: remove an earlier build's, so no stale chunk is uploaded.
for (const name of readdirSync(outdir, { recursive: true, encoding: "utf8" })) {
	const path = resolve(outdir, name);
	if (/\.mjs(\.map)?$/.test(name) && !written.has(path)) rmSync(path, { force: true });
}
if (values.metafile && result.metafile) {
	writeFileSync(values.metafile, JSON.stringify(result.metafile));
}
