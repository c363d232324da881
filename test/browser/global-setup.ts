/**
 * Starts the two services the browser tests use, with the project's `wrangler dev`
 * launcher: one open, one with an API token. Each keeps its state in its own
 * temporary folder and writes what it prints to test-artifacts/wrangler-<name>.log.
 * Their URLs reach the tests through the environment.
 *
 * Each start runs the playground build (wrangler.toml's `build`), which rewrites
 * public/playground.js: the locked server's build lands while the open one runs.
 * That cannot disturb a test: every build ends before its server first answers
 * `/health`, so before any test, and under a custom build wrangler dev (checked on 4.86) does
 * not reload on asset changes (it logs them; its asset watcher's reload needs a
 * bundle that only its own bundler, unused here, sets).
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWranglerDev } from "../../scripts/lib/wrangler-dev";
import { API_TOKEN, SCREENSHOTS } from "./fixtures";

/** Appends a server's output to its log in the test artifacts. */
function logTo(name: string): (text: string) => void {
	mkdirSync(SCREENSHOTS, { recursive: true });
	const file = join(SCREENSHOTS, `wrangler-${name}.log`);
	rmSync(file, { force: true });
	return (text) => appendFileSync(file, text);
}

export default async function startServers(): Promise<() => Promise<void>> {
	const state = mkdtempSync(join(tmpdir(), "edge-ids-browser-"));
	// One after the other: each runs the playground build into the same public/ folder.
	// The open one also lends worker IDs 1000-1023 (the monitor test holds one).
	const open = await startWranglerDev({
		persistTo: join(state, "open"),
		vars: { LEASE_WORKER_IDS: "1000-1023" },
		timeoutMs: 90_000,
		onOutput: logTo("open"),
	});
	const locked = await startWranglerDev({
		persistTo: join(state, "locked"),
		vars: { API_TOKEN },
		timeoutMs: 90_000,
		onOutput: logTo("locked"),
	}).catch(async (error) => {
		await open.stop();
		throw error;
	});
	process.env.PLAYGROUND_URL = open.url;
	process.env.PLAYGROUND_LOCKED_URL = locked.url;
	return async () => {
		await Promise.all([open.stop(), locked.stop()]);
		rmSync(state, { recursive: true, force: true });
	};
}
