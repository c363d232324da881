import { execFileSync } from "node:child_process";

/**
 * Builds the playground's script into public/ (as `wrangler dev` and `wrangler deploy`
 * do through wrangler.toml's build command), so a fresh clone's tests can serve it.
 */
export default function buildPlayground() {
	execFileSync("npm", ["run", "--silent", "build:playground"], { stdio: "inherit" });
}
