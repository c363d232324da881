/** resolveConfig on an app of its own: one parsed config per env, or invalid_config before anything runs. */
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { errorResponse } from "../../src/worker/errors";
import type { AppEnv } from "../../src/worker/http/app-env";
import { resolveConfig } from "../../src/worker/http/middleware/request-config";

function appSeeingConfig() {
	const seen: unknown[] = [];
	const app = new Hono<AppEnv>()
		.use(resolveConfig())
		.get("/x", (c) => {
			seen.push(c.var.config);
			return c.json({ maxBatch: c.var.config.maxBatch });
		})
		.onError((error, c) => errorResponse(c, error));
	return { app, seen };
}

describe("resolveConfig", () => {
	it("hands the env's parsed config on as c.var.config, the same object on every request", async () => {
		const { app, seen } = appSeeingConfig();
		const own = { ...env, MAX_BATCH: "77" } as Env;
		for (let i = 0; i < 3; i++) {
			const response = await app.request("/x", {}, own);
			expect(await response.json()).toEqual({ maxBatch: 77 });
		}
		expect(seen).toHaveLength(3);
		expect(new Set(seen).size).toBe(1);
	});

	it("answers invalid_config, naming the variable, before the handler runs", async () => {
		const { app, seen } = appSeeingConfig();
		const response = await app.request("/x", {}, { ...env, MAX_BATCH: "ten" } as Env);
		expect(response.status).toBe(500);
		expect(await response.json()).toMatchObject({
			error: { code: "invalid_config", message: expect.stringContaining("MAX_BATCH") },
		});
		expect(seen).toEqual([]);
	});
});
