/**
 * The real bundle in workerd with no dev proxy: `wrangler deploy --dry-run --outdir dist`
 * (what a deploy uploads), served by Miniflare on a free loopback port with in-memory
 * Durable Object storage. Benchmarks measure the Worker here; `wrangler dev` adds its
 * proxy and inspector to every request.
 *
 *   const service = await startBundledService({ REQUEST_LOG: "off" });
 *   await fetch(`${service.url}/health`);
 *   await service.stop();
 */
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { unstable_readConfig } from "wrangler";

/** Builds the bundle into `outdir` as `wrangler deploy` would (esbuild, wrangler.toml). */
export function buildBundle(outdir = "dist", config = "wrangler.toml"): string {
	execFileSync(
		"npx",
		["wrangler", "deploy", "--dry-run", "-c", config, "--outdir", resolve(outdir)],
		{ stdio: "pipe", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
	);
	return resolve(outdir, "index.js");
}

/**
 * The service's bundle in Miniflare, with wrangler.toml's vars overridden by `vars`:
 * built now, or `bundle` when given (a `dist/index.js` built already).
 */
export async function startBundledService(vars: Record<string, string> = {}, bundle?: string) {
	const config = unstable_readConfig({ config: "wrangler.toml" });
	const scriptPath = bundle ?? buildBundle();
	// Miniflare 5 takes these (v4-shaped) options through its converter.
	const mf = new Miniflare(
		convertV4MiniflareOptions({
			host: "127.0.0.1",
			port: 0,
			modules: true,
			scriptPath,
			compatibilityDate: config.compatibility_date,
			bindings: { ...(config.vars as Record<string, string>), ...vars },
			durableObjects: { SNOWFLAKE: { className: "SnowflakeWorker", useSQLite: true } },
			// A limit no benchmark reaches: the bench measures the service, not the limiter.
			ratelimits: {
				RATE_LIMITER: { namespace_id: "1001", simple: { limit: 1_000_000_000, period: 10 } },
			},
		}),
	);
	const url = (await mf.ready).toString().replace(/\/$/, "");
	return { url, stop: () => mf.dispose() };
}
