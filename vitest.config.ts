import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		projects: [
			{
				// The runtime-neutral ID core: plain TypeScript on a fake clock.
				test: { name: "core", include: ["test/core/**/*.test.ts"], environment: "node" },
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
				// The Worker, its Durable Object and routes, inside workerd.
				plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.jsonc" } })],
				test: {
					name: "worker",
					include: ["test/worker/**/*.test.ts"],
					globalSetup: ["test/worker/build-playground.ts"],
				},
			},
		],
	},
});
