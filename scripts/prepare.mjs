// npm runs `prepare` after `npm install` in this checkout, and when a project installs
// edge-ids from its git repository (`npm install github:edge-ids/edge-ids#v0.2.0`):
// there npm packs the clone without running `prepack`, so lib/ (what the package
// ships) is built here when it is missing. A checkout that has lib/ keeps it: `npm pack`
// builds it afresh anyway.
// Plain JavaScript with no imports beyond Node's, like ensure-deps.mjs.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

if (!existsSync(new URL("../lib/client/index.js", import.meta.url))) {
	const npm = process.platform === "win32" ? "npm.cmd" : "npm";
	const result = spawnSync(npm, ["run", "--silent", "build:lib"], { stdio: "inherit" });
	if (result.status !== 0) process.exit(result.status ?? 1);
}
