import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { unstable_readConfig } from "wrangler";
import { builtEntry, workerModules } from "../../scripts/lib/built-worker";

/** The worker IDs the lease tests lease to holders: `vars: LEASES_ON`. */
export const LEASES_ON = { LEASE_WORKER_IDS: "900-931" };

/** Short leases, so that holders renew, lose and re-acquire within a test. */
export const SHORT_SPAN_MS = 1_500;
export const SHORT_GRACE_MS = 200;
/** `vars` of four worker IDs leased in short spans (the request log off: holders renew often). */
export const SHORT_LEASES = {
	LEASE_WORKER_IDS: "900-903",
	LEASE_SPAN_MS: String(SHORT_SPAN_MS),
	LEASE_GRACE_MS: String(SHORT_GRACE_MS),
	REQUEST_LOG: "off",
};

/**
 * Two Workers in one workerd, from their real bundles (built by global-setup.ts
 * with `wrangler deploy --dry-run`): edge-ids, and the example consumer bound to its IdService
 * entrypoint. The service is the first worker, so `url` reaches it over HTTP.
 * With `apiToken`, the service requires it over HTTP (not through the binding);
 * `vars` replace the service's vars of wrangler.toml.
 */
export async function startServiceAndConsumer(
	options: { apiToken?: string; vars?: Record<string, string> } = {},
) {
	const service = unstable_readConfig({ config: "wrangler.toml" });
	const consumer = unstable_readConfig({ config: "examples/consumer/wrangler.toml" });
	// Miniflare 5 takes these (v4-shaped) options through its converter.
	const mf = new Miniflare(
		convertV4MiniflareOptions({
			host: "127.0.0.1",
			port: 0,
			workers: [
				{
					name: service.name,
					...workerModules(builtEntry(".build/service")),
					compatibilityDate: service.compatibility_date,
					bindings: {
						...(service.vars as Record<string, string>),
						...(options.apiToken ? { API_TOKEN: options.apiToken } : {}),
						...options.vars,
					},
					durableObjects: {
						SNOWFLAKE: { className: "SnowflakeWorker", useSQLite: true },
						SEQUENCES: { className: "SequenceObject", useSQLite: true },
					},
					ratelimits: {
						RATE_LIMITER: { namespace_id: "1001", simple: { limit: 1000, period: 10 } },
					},
				},
				{
					name: consumer.name,
					...workerModules(builtEntry(".build/consumer")),
					compatibilityDate: consumer.compatibility_date,
					serviceBindings: { IDS: { name: service.name ?? "edge-ids", entrypoint: "IdService" } },
				},
			],
		}),
	);
	const url = await mf.ready;
	return { mf, url, consumerName: consumer.name ?? "edge-ids-consumer" };
}
