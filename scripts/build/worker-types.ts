/**
 * `npm run cf-typegen` (and `npm run typecheck`, with `--check`): `wrangler types` for
 * the Worker's source. wrangler.toml's `main` is the built entry (.build/worker/index.mjs,
 * scripts/build/worker.ts), which has no types; its types are src/index.ts's. So
 * wrangler types reads a copy of wrangler.toml naming the source as `main`, beside it
 * (every other path in it stays as written), removed afterwards.
 *
 *   tsx scripts/build/worker-types.ts            # writes worker-configuration.d.ts
 *   tsx scripts/build/worker-types.ts --check    # fails when it is out of date
 */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { withSourceMain } from "../lib/built-worker";

const copy = ".wrangler-types.toml";
writeFileSync(copy, withSourceMain(readFileSync("wrangler.toml", "utf8")));
try {
	execFileSync(
		"wrangler",
		[
			"types",
			"-c",
			copy,
			"--strict-vars=false",
			"--include-runtime=false",
			"--env-file",
			".dev.vars.example",
			...process.argv.slice(2),
		],
		{ stdio: "inherit", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
	);
} catch {
	process.exitCode = 1;
} finally {
	rmSync(copy, { force: true });
}
