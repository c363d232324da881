/** corsFromConfig on an app of its own: the configured origins, the methods it is given, built once per config. */
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../src/worker/http/app-env";
import { corsFromConfig } from "../../src/worker/http/middleware/cors";
import { resolveConfig } from "../../src/worker/http/middleware/request-config";

function corsApp(corsOrigins: string) {
	let asked = 0;
	const app = new Hono<AppEnv>()
		.use(resolveConfig())
		.use(
			corsFromConfig(() => {
				asked++;
				return ["GET", "POST", "GET"];
			}),
		)
		.get("/x", (c) => c.text("ok"));
	const own = { ...env, CORS_ORIGINS: corsOrigins } as Env;
	return {
		request: (init: RequestInit) => app.request("/x", init, own),
		asked: () => asked,
	};
}

describe("corsFromConfig", () => {
	it("answers a preflight with the methods given (once each), OPTIONS, the headers and a day's max-age", async () => {
		const app = corsApp("https://a.example");
		const response = await app.request({
			method: "OPTIONS",
			headers: { Origin: "https://a.example", "Access-Control-Request-Method": "POST" },
		});
		expect(response.status).toBe(204);
		expect(response.headers.get("Access-Control-Allow-Origin")).toBe("https://a.example");
		expect(response.headers.get("Access-Control-Allow-Methods")).toBe("GET,POST,OPTIONS");
		expect(response.headers.get("Access-Control-Allow-Headers")).toBe(
			"Authorization,Content-Type,Accept",
		);
		expect(response.headers.get("Access-Control-Max-Age")).toBe("86400");
	});

	it("exposes Retry-After and X-Request-Id to the configured origin, and nothing to another", async () => {
		const app = corsApp("https://a.example");
		const allowed = await app.request({ headers: { Origin: "https://a.example" } });
		expect(allowed.headers.get("Access-Control-Allow-Origin")).toBe("https://a.example");
		expect(allowed.headers.get("Access-Control-Expose-Headers")).toBe("Retry-After,X-Request-Id");
		const other = await app.request({ headers: { Origin: "https://evil.example" } });
		expect(other.headers.get("Access-Control-Allow-Origin")).toBeNull();
		expect(await other.text()).toBe("ok");
	});

	it("answers any origin with * by default, and builds its handler once per config", async () => {
		const app = corsApp("*");
		for (let i = 0; i < 3; i++) {
			const response = await app.request({ headers: { Origin: "https://b.example" } });
			expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
		}
		expect(app.asked()).toBe(1);
	});
});
