// Secrets are not in wrangler.toml, so `wrangler types` cannot see them. Its output
// declares `Env` and `Cloudflare.Env` (the type of `env` from "cloudflare:workers")
// separately, so both get them here.
interface EdgeIdsSecrets {
	/**
	 * When set, every route but `/`, `/health`, `/openapi.json` and `/docs` needs
	 * `Authorization: Bearer <API_TOKEN>`. The files in public/ (the playground's
	 * page, script, styles and source map) are served before the Worker runs, so
	 * they are public too.
	 */
	API_TOKEN?: string;
	/** A second accepted token while callers move to it (rotation); only beside API_TOKEN. */
	API_TOKEN_NEXT?: string;
}
/** Optional bindings: commented out in wrangler.toml, so `wrangler types` does not list them. */
interface EdgeIdsOptionalBindings {
	/** A Workers Analytics Engine dataset: one data point per request when bound. */
	ANALYTICS?: AnalyticsEngineDataset;
}
interface Env extends EdgeIdsSecrets, EdgeIdsOptionalBindings {}
declare namespace Cloudflare {
	interface Env extends EdgeIdsSecrets, EdgeIdsOptionalBindings {}
}
