import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// workerd reports an object reset that test/worker/object-reset.test.ts makes on
// purpose (with its stack): drop exactly the output that names that test's reason,
// and nothing else.
const DELIBERATE_RESET = "deliberate test reset (expected)";
let afterDeliberateReset = false;
for (const stream of [process.stdout, process.stderr]) {
	const write = stream.write.bind(stream);
	stream.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
		const text = String(chunk);
		const noise =
			text.includes(DELIBERATE_RESET) || (afterDeliberateReset && text.startsWith("stack: "));
		afterDeliberateReset = text.includes(DELIBERATE_RESET);
		return noise || write(chunk, ...rest);
	}) as typeof stream.write;
}

export default defineConfig({
	test: {
		// Every request and RPC call writes one JSON log line (src/worker/http/middleware/
		// request-log.ts, src/worker/rpc/rpc-call.ts); the log tests assert them, the rest
		// would only be noise.
		onConsoleLog: (log) => !log.startsWith('{"requestId"') && !log.startsWith('{"rpc"'),
		projects: [
			// Three runtimes. In Node, plain TypeScript, one project for each part tested:
			{
				// The runtime-neutral ID core (src/ids) on a fake clock, and the tests' own checks.
				test: {
					name: "core",
					include: ["test/core/**/*.test.ts", "test/shared/**/*.test.ts"],
					environment: "node",
				},
			},
			{
				// The HTTP client and its pool (src/client/) against a stand-in fetch.
				test: { name: "client", include: ["test/client/**/*.test.ts"], environment: "node" },
			},
			{
				// The playground's logic (src/playground): bit views and the requests it builds.
				test: {
					name: "playground",
					include: ["test/playground/**/*.test.ts"],
					environment: "node",
				},
			},
			{
				// What the docs promise, run: docs/STORING.md's snippets on real databases,
				// the local setup README describes (a token in .dev.vars).
				test: {
					name: "docs",
					include: ["test/docs/**/*.test.ts"],
					environment: "node",
					testTimeout: 60_000,
					hookTimeout: 60_000,
					// Node 24.21's V8 can abort (`Check failed: jit_page.has_value()`, in
					// Runtime_TierUpWasmToJSWrapper → WasmImportWrapperCache::Free) while PGlite's
					// WebAssembly runs; it did in 2 of about 10 full runs. Wrappers that never tier
					// up never take that path.
					execArgv: ["--wasm-wrapper-tiering-budget=1000000000"],
				},
			},
			{
				// Two Workers from their real bundles in Miniflare: the service and a consumer.
				test: {
					name: "integration",
					include: ["test/integration/**/*.test.ts"],
					environment: "node",
					globalSetup: ["test/integration/global-setup.ts"],
					testTimeout: 30_000,
					hookTimeout: 120_000,
				},
			},
			{
				// Real `wrangler dev` servers (scripts/lib/wrangler-dev.ts): routing of files and
				// the Worker, what the dev server prints, two servers on one state directory.
				test: {
					name: "dev-server",
					include: ["test/dev-server/**/*.test.ts"],
					environment: "node",
					testTimeout: 60_000,
					hookTimeout: 120_000,
				},
			},
			{
				// The Worker, its Durable Object, routes and config, inside workerd, from the
				// sources (wrangler.toml's main is the built entry, scripts/build/worker.ts).
				plugins: [
					cloudflareTest({ main: "./src/index.ts", wrangler: { configPath: "./wrangler.toml" } }),
				],
				test: {
					name: "worker",
					include: ["test/worker/**/*.test.ts"],
					// `TEST_STATS=1 npm test` prints what the fuzz and clock-fault files injected.
					provide: { printTestStats: process.env.TEST_STATS === "1" },
					globalSetup: ["test/worker/build-playground.ts"],
				},
			},
		],
	},
});
