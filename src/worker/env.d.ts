// Secrets are not in wrangler.jsonc, so `wrangler types` cannot see them.
declare namespace Cloudflare {
	interface Env {
		/** When set, every route but `/health` and `/` needs `Authorization: Bearer <API_TOKEN>`. */
		API_TOKEN?: string;
	}
}
