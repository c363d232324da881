import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

/** Builds the real bundles once, as `wrangler deploy` would, before the integration tests. */
export default function buildBundles() {
	// An absolute outdir: wrangler resolves a relative one against the config's folder.
	const build = (config: string, outdir: string) =>
		execFileSync(
			"npx",
			["wrangler", "deploy", "--dry-run", "-c", config, "--outdir", resolve(outdir)],
			{ stdio: "pipe", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
		);
	build("wrangler.toml", ".build/service");
	build("examples/consumer/wrangler.toml", ".build/consumer");
}
