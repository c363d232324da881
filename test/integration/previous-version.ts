/**
 * The service as it was before worker-ID leases, built from git for the version-skew
 * tests: `git archive` of PREVIOUS_VERSION into .build/previous-src (sharing this
 * checkout's node_modules when the lockfiles agree, else with its own from `npm ci`),
 * then `wrangler deploy --dry-run` as for the current bundle. Built once per commit
 * (a marker file says which), about 15 s (45 s with `npm ci`).
 *
 * It needs the commit in the clone's history (a plain `git clone` has it; a shallow
 * one needs `git fetch --unshallow`): a checked-in bundle would be 500 KB of
 * generated JavaScript to review, and would drift from what that commit really built.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";

/** The service without worker-ID leases, as this branch last merged it (its objects know no lease methods). */
export const PREVIOUS_VERSION = "ec2db4407b12fe9ec2db1cff428a0a88a5de9e00";

/** The previous version's bundle (built if missing): its path. */
export function previousBundle(): string {
	const source = resolve(".build/previous-src");
	const out = resolve(".build/previous");
	const marker = resolve(out, "COMMIT");
	const script = resolve(out, "index.js");
	if (
		existsSync(script) &&
		existsSync(marker) &&
		readFileSync(marker, "utf8") === PREVIOUS_VERSION
	) {
		return script;
	}
	try {
		execFileSync("git", ["cat-file", "-e", `${PREVIOUS_VERSION}^{commit}`], { stdio: "pipe" });
	} catch {
		throw new Error(
			`the version-skew tests build commit ${PREVIOUS_VERSION} (the service before worker-ID leases), which this clone does not have: run \`git fetch --unshallow\` (or clone without --depth)`,
		);
	}
	rmSync(source, { recursive: true, force: true });
	rmSync(out, { recursive: true, force: true });
	mkdirSync(source, { recursive: true });
	const archive = execFileSync("git", ["archive", PREVIOUS_VERSION], {
		maxBuffer: 256 * 1024 * 1024,
	});
	execFileSync("tar", ["-x", "-C", source], { input: archive });
	// Its own packages when its lockfile differs from this checkout's (it may import
	// packages this one dropped, such as zod): `npm ci`, about 30 s more.
	if (
		readFileSync(resolve(source, "package-lock.json"), "utf8") ===
		readFileSync("package-lock.json", "utf8")
	) {
		symlinkSync(resolve("node_modules"), resolve(source, "node_modules"));
	} else {
		execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: source, stdio: "pipe" });
	}
	execFileSync("npx", ["wrangler", "deploy", "--dry-run", "-c", "wrangler.toml", "--outdir", out], {
		cwd: source,
		stdio: "pipe",
		env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
	});
	writeFileSync(marker, PREVIOUS_VERSION);
	return script;
}
