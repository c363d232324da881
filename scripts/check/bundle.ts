/**
 * The deployed Worker's size, the last step of `npm run check` (after
 * `wrangler deploy --dry-run --outdir dist`): fails when it passes its budgets, so a
 * dependency that drags in more code (zod's locales, say) is noticed in CI, not in a
 * slower cold start. Two figures: everything uploaded (the entry and every chunk),
 * and what a new isolate compiles at startup (the entry and the chunks it imports
 * statically; the rest loads on first use, scripts/build/worker.ts), which must not
 * hold the code meant for first use (read from the build's source maps).
 *
 *   npx wrangler deploy --dry-run --outdir dist && npx tsx scripts/check/bundle.ts
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { workerModules } from "../lib/built-worker";

/**
 * Room above the measured sizes for a small feature, not for a new dependency (zod and
 * the OpenAPI generator, out of the Worker since requests are read with plain checks,
 * took 46 KiB). Uploaded: 64.7 KiB gzip with named sequences (rules, objects, routes,
 * +10 KiB, most on first use) and the operations view (catalog, history, metrics,
 * +6 KiB), a third of it the OpenAPI document (195 KiB raw, its own chunk, loaded by
 * /openapi.json only). Startup: 32.2 KiB, from 28.8: the two new Durable Object classes
 * (the entry must export them), the sequences' and the operations' routes and contracts
 * (registered at startup like every route) and the Analytics Engine middleware.
 * 0.3.0: uploaded 74.7 KiB (the OpenAPI document's new routes, the Leaf routes, retiring,
 * the catalog's root, directory and shards, paged /stats); startup 35.1 KiB (the
 * catalog's three roles in its class, which the entry must export; the Leaf and retire
 * routes and contracts; the paging contracts): startup CPU +1.1 to +3.0 ms over 0.2.0's
 * round end in two `npm run bench:startup -- --against` runs.
 * Raise them on purpose, with the reason in the commit.
 */
const BUDGET_GZIP_BYTES = 78 * 1024;
const STARTUP_BUDGET_GZIP_BYTES = 36 * 1024;

const REPO = join(dirname(fileURLToPath(import.meta.url)), "../..");
const entry = join(REPO, "dist/index.mjs");
const texts = new Map(
	workerModules(entry).modules.map(({ path }) => [path, readFileSync(path, "utf8")]),
);

/**
 * The modules `path` imports, itself included: statically (`import … from "./…"`), or
 * with `dynamic` also through `import("./…")`. (dist/ may hold chunks of earlier builds.)
 */
function closure(path: string, dynamic: boolean, seen = new Set<string>()): Set<string> {
	if (seen.has(path)) return seen;
	seen.add(path);
	const imports = dynamic
		? /(?:from|import)\s*\(?\s*"(\.[^"]+)"/g
		: /(?:from|import)\s*"(\.[^"]+)"/g;
	for (const [, specifier] of (texts.get(path) ?? "").matchAll(imports)) {
		closure(join(dirname(path), specifier ?? ""), dynamic, seen);
	}
	return seen;
}

const gzip = (paths: Iterable<string>) =>
	gzipSync([...paths].map((path) => texts.get(path) ?? "").join("\n"), { level: 9 }).length;
const raw = (paths: Iterable<string>) =>
	[...paths].reduce((sum, path) => sum + Buffer.byteLength(texts.get(path) ?? ""), 0);
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

const all = closure(entry, true);
const startup = closure(entry, false);
const missing = [...all].filter((path) => !texts.has(path));
if (missing.length > 0) {
	console.error(
		`bundle: the entry imports modules not in dist/: ${missing.map((p) => relative("dist", p)).join(", ")}`,
	);
	process.exit(1);
}
// Sources a new isolate must not compile at startup (each behind src/worker/on-first-use.ts):
// a static import of one of them from the entry's modules would undo the split quietly.
const FIRST_USE_ONLY = [
	"src/ids/snowflake/generator.ts",
	"src/ids/leases/keeper.ts",
	"src/worker/operations/snowflake.ts",
	"src/worker/operations/leases.ts",
	"src/worker/operations/forms-and-ranges.ts",
	"src/worker/object/worker-id-storage.ts",
	"src/worker/operations/fleet.ts",
	"src/worker/operations/prometheus.ts",
	"src/worker/object/catalog-tables.ts",
	"src/worker/object/catalog-sequences.ts",
	"src/worker/object/history.ts",
	"src/worker/object/minutes.ts",
	"src/ids/minute-tally.ts",
	"src/worker/pages/docs-page.ts",
	"src/worker/http/openapi/document.generated.ts",
];
const distDir = dirname(entry);
const loadedEarly = [...startup].flatMap((path) => {
	const map = join(REPO, ".build/worker", `${relative(distDir, path)}.map`);
	const { sources } = JSON.parse(readFileSync(map, "utf8")) as { sources: string[] };
	return FIRST_USE_ONLY.filter((source) => sources.some((s) => s.endsWith(source)));
});
if (loadedEarly.length > 0) {
	console.error(`bundle: compiled at startup, but meant for first use: ${loadedEarly.join(", ")}`);
	process.exit(1);
}

const figures = [
	["uploaded", all, BUDGET_GZIP_BYTES],
	["at startup", startup, STARTUP_BUDGET_GZIP_BYTES],
] as const;
let over = false;
for (const [name, paths, budget] of figures) {
	const size = gzip(paths);
	console.log(
		`bundle ${name}: ${kib(raw(paths))} raw, ${kib(size)} gzip (budget ${kib(budget)} gzip), ${[...paths].length} modules`,
	);
	over ||= size > budget;
}
if (over) {
	console.error(
		"bundle: over budget; the .map files in .build/worker/ show which sources the bytes come from",
	);
	process.exit(1);
}
