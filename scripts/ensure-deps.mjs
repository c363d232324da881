// Runs before `npm run dev`, `npm start` and `npm test`, under scripts/with-node.sh (so
// on Node 22.12 or later). First it checks Node anyway: run by hand on an older Node,
// wrangler and vitest would fail with messages that do not say how to go on, so this
// says it, and stops. Then, on a fresh clone, it installs
// exactly the lockfile's dependencies (`npm ci`), so the quick start is two commands.
// Plain JavaScript with no imports beyond Node's: it runs before anything is installed.
// Does nothing more once node_modules is there.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
	const command = process.env.npm_lifecycle_event?.replace(/^pre/, "") ?? "dev";
	console.error(
		[
			`edge-ids needs Node.js 22.12 or later (24 LTS recommended); this is Node ${process.versions.node}.`,
			"Install a newer Node, or run under Node 24 without installing it system-wide",
			"(fetched once from the npm registry into ~/.cache/edge-ids):",
			"",
			`  scripts/with-node.sh npm ${command === "test" || command === "start" ? command : `run ${command}`}`,
			"",
		].join("\n"),
	);
	process.exit(1);
}

if (!existsSync(new URL("../node_modules/.package-lock.json", import.meta.url))) {
	console.log("edge-ids: first run, installing dependencies (npm ci)…");
	const npm = process.platform === "win32" ? "npm.cmd" : "npm";
	const result = spawnSync(npm, ["ci", "--no-audit", "--no-fund"], { stdio: "inherit" });
	if (result.status !== 0) process.exit(result.status ?? 1);
}
