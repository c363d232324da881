// The package.json that ships: `npm pack` and `npm publish` run
// `prepack` (this script with `strip`) before packing and `postpack` (`restore`)
// after, so the packed manifest carries no scripts and no devDependencies (a
// consumer's npm then sees no install scripts to warn about, and no tooling pins).
// The checkout's own package.json is kept beside it and put back by `restore`;
// `strip` puts back a copy left by a pack that failed half-way before stripping again.
// Plain JavaScript with no imports beyond Node's, like ensure-deps.mjs.
import { copyFileSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

const manifest = new URL("../package.json", import.meta.url);
const kept = new URL("../package.json.unpacked", import.meta.url);
/** What only this checkout needs: its tasks, its tools, npm's approval of their install scripts. */
const DEVELOPMENT_ONLY = ["scripts", "devDependencies", "allowScripts"];

const step = process.argv[2];
if (step === "strip") {
	if (existsSync(kept)) renameSync(kept, manifest);
	copyFileSync(manifest, kept);
	const shipped = JSON.parse(readFileSync(manifest, "utf8"));
	for (const field of DEVELOPMENT_ONLY) delete shipped[field];
	writeFileSync(manifest, `${JSON.stringify(shipped, null, "\t")}\n`);
} else if (step === "restore") {
	if (existsSync(kept)) renameSync(kept, manifest);
} else {
	console.error("usage: node scripts/pack-manifest.mjs strip|restore");
	process.exit(2);
}
