import { defineConfig } from "@playwright/test";

/**
 * The playground in a real browser (`npm run test:browser`): Debian's Chromium
 * (`apt-get install -y chromium`; another binary with CHROMIUM_PATH), no browser
 * download. test/browser/global-setup.ts starts the `wrangler dev` servers.
 */
export default defineConfig({
	testDir: "test/browser",
	globalSetup: "test/browser/global-setup.ts",
	outputDir: "test-artifacts/browser",
	timeout: 30_000,
	expect: { timeout: 10_000 },
	// Two cores are shared with the dev servers: one page at a time is steadier.
	workers: 1,
	forbidOnly: !!process.env.CI,
	// No retries: a test that fails once is a failure. A failed test carries its trace,
	// the requests still unanswered (fixtures.ts) and the servers' output
	// (test-artifacts/wrangler-*.log).
	retries: 0,
	reporter: [["list"]],
	use: {
		viewport: { width: 1280, height: 800 },
		permissions: ["clipboard-read", "clipboard-write"],
		trace: "retain-on-failure",
		screenshot: "only-on-failure",
		launchOptions: {
			executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
			args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking"],
		},
	},
});
