// Secrets are not in wrangler.toml, so `wrangler types` cannot see them. Its output
// declares `Env` and `Cloudflare.Env` (the type of `env` from "cloudflare:workers")
// separately, so both get them here.
interface EdgeIdsSecrets {
	/** When set, every route but `/health` and `/` needs `Authorization: Bearer <API_TOKEN>`. */
	API_TOKEN?: string;
}
interface Env extends EdgeIdsSecrets {}
declare namespace Cloudflare {
	interface Env extends EdgeIdsSecrets {}
}
