// Runs before `npm run dev`, `npm start` and `npm test`, under scripts/with-node.sh (which
// has already made sure of Node 22.12 or later). On a fresh clone it installs exactly the
// lockfile's dependencies (`npm ci`), so the quick start is two commands.
// Plain JavaScript with no imports beyond Node's: it runs before anything is installed.
// Does nothing more once node_modules is there.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

if (!existsSync(new URL("../node_modules/.package-lock.json", import.meta.url))) {
	console.log("edge-ids: first run, installing dependencies (npm ci)…");
	const npm = process.platform === "win32" ? "npm.cmd" : "npm";
	const result = spawnSync(npm, ["ci", "--no-audit", "--no-fund"], { stdio: "inherit" });
	if (result.status !== 0) process.exit(result.status ?? 1);
}
