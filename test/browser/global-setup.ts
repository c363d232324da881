/**
 * Starts the two services the browser tests use, with the project's `wrangler dev`
 * launcher: one open, one with an API token. Each keeps its state in its own
 * temporary folder. Their URLs reach the tests through the environment.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWranglerDev } from "../../scripts/lib/wrangler-dev";
import { API_TOKEN } from "./fixtures";

export default async function startServers(): Promise<() => Promise<void>> {
	const state = mkdtempSync(join(tmpdir(), "edge-ids-browser-"));
	// One after the other: each runs the playground build into the same public/ folder.
	const open = await startWranglerDev({ persistTo: join(state, "open"), timeoutMs: 90_000 });
	const locked = await startWranglerDev({
		persistTo: join(state, "locked"),
		vars: { API_TOKEN },
		timeoutMs: 90_000,
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
