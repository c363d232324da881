// Secrets are not in wrangler.jsonc, so `wrangler types` cannot see them.
declare namespace Cloudflare {
	interface Env {
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
}
