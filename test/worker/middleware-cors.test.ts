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
		.get("/x", (c) => c.text("ok"))
		.get("/redirect", () => Response.redirect("https://elsewhere.example/", 302))
		.get("/fails", () => {
			throw new Error("route failed");
		})
		.onError((_error, c) => c.json({ error: "failed" }, 500));
	const own = { ...env, CORS_ORIGINS: corsOrigins } as Env;
	return {
		request: (init: RequestInit, path = "/x") => app.request(path, init, own),
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
		expect(allowed.headers.get("Access-Control-Expose-Headers")).toBe(
			"Retry-After,X-Request-Id,Sequence-Period",
		);
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

	it("varies by Origin when origins are named, and puts its headers on every kind of answer", async () => {
		const named = corsApp("https://a.example,https://b.example");
		const asked = { headers: { Origin: "https://b.example" } };
		const plain = await named.request(asked);
		expect(plain.headers.get("Access-Control-Allow-Origin")).toBe("https://b.example");
		expect(plain.headers.get("Vary")).toBe("Origin");
		expect(plain.headers.get("Content-Type")).toMatch(/^text\/plain/);
		// A response whose headers cannot change (Response.redirect's) is copied, not lost.
		const moved = await named.request(asked, "/redirect");
		expect(moved.status).toBe(302);
		expect(moved.headers.get("Location")).toBe("https://elsewhere.example/");
		expect(moved.headers.get("Access-Control-Allow-Origin")).toBe("https://b.example");
		const failed = await named.request(asked, "/fails");
		expect(failed.status).toBe(500);
		expect(failed.headers.get("Access-Control-Expose-Headers")).toBe(
			"Retry-After,X-Request-Id,Sequence-Period",
		);
		expect((await corsApp("*").request(asked)).headers.get("Vary")).toBeNull();
	});
});
