import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { clearOutdir } from "../../scripts/lib/built-worker";

const EXAMPLES_TSCONFIG = resolve("examples/tsconfig.json");

/** Builds the real bundles once, as `wrangler deploy` would, before the integration tests. */
export default function buildBundles() {
	// An absolute outdir: wrangler resolves a relative one against the config's folder.
	const build = (config: string, outdir: string, more: string[] = []) => {
		clearOutdir(outdir);
		execFileSync(
			"npx",
			["wrangler", "deploy", "--dry-run", "-c", config, "--outdir", resolve(outdir), ...more],
			{ stdio: "pipe", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
		);
	};
	build("wrangler.toml", ".build/service");
	// The consumer imports `edge-ids/client`: here, this checkout's sources.
	build("examples/consumer/wrangler.toml", ".build/consumer", ["--tsconfig", EXAMPLES_TSCONFIG]);
}
