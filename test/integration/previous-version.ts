/**
 * The service as it was before worker-ID leases, built from git for the version-skew
 * tests: PREVIOUS_VERSION checked out into .build/previous-src (`checkoutRevision`:
 * this checkout's node_modules when the lockfiles agree, else its own from `npm ci`),
 * then built as for the current bundle (`buildBundle`). Built once per commit
 * (a marker file says which), about 15 s (45 s with `npm ci`).
 *
 * It needs the commit in the clone's history (a plain `git clone` has it; a shallow
 * one needs `git fetch --unshallow`): a checked-in bundle would be 500 KB of
 * generated JavaScript to review, and would drift from what that commit really built.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { buildBundle, checkoutRevision } from "../../scripts/lib/miniflare-service";

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
	checkoutRevision(PREVIOUS_VERSION, source);
	const built = buildBundle(out, "wrangler.toml", source);
	writeFileSync(marker, PREVIOUS_VERSION);
	return built;
}
