import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startWranglerDev } from "../../scripts/lib/wrangler-dev";
import type { ErrorBody } from "../../src/wire";

/**
 * Under a real `wrangler dev`, where the static layer (public/) and the Worker are
 * routed as on Cloudflare: the Worker's answers, not the static layer's, for every
 * method on a file's path.
 */
let dev: DevServer;
beforeAll(async () => {
	dev = await startWranglerDev();
});
afterAll(() => dev?.stop());

async function send(path: string, method: string) {
	const response = await fetch(`${dev.url}${path}`, { method, redirect: "manual" });
	return { response, text: await response.text() };
}

describe("files and the Worker under wrangler dev", () => {
	it("answers POST / and other methods on a file's path with the Worker's JSON 405", async () => {
		const cases = [
			["/", "POST", "GET"],
			["/", "DELETE", "GET"],
			["/index.html", "POST", "GET, HEAD"],
			["/playground.css", "PUT", "GET, HEAD"],
			["/playground.js", "PATCH", "GET, HEAD"],
		] as const;
		for (const [path, method, allow] of cases) {
			const { response, text } = await send(path, method);
			expect(response.status, `${method} ${path}`).toBe(405);
			expect(response.headers.get("Allow"), `${method} ${path}`).toBe(allow);
			expect(response.headers.get("Content-Type"), `${method} ${path}`).toBe("application/json");
			expect(response.headers.get("X-Request-Id"), `${method} ${path}`).toMatch(/^[0-9a-f-]{36}$/);
			expect(response.headers.get("Cache-Control"), `${method} ${path}`).toBe("no-store");
			expect((JSON.parse(text) as ErrorBody).error.code, `${method} ${path}`).toBe(
				"method_not_allowed",
			);
		}
	});

	it("still serves the files on GET with their CSP", async () => {
		for (const [path, type] of [
			["/", "text/html"],
			["/playground.js", "text/javascript"],
			["/playground.css", "text/css"],
		] as const) {
			const { response, text } = await send(path, "GET");
			expect(response.status, path).toBe(200);
			expect(response.headers.get("Content-Type"), path).toContain(type);
			expect(response.headers.get("Content-Security-Policy"), path).toContain("default-src 'self'");
			expect(text.length, path).toBeGreaterThan(500);
		}
	});

	it("refuses an unknown query parameter with invalid_request", async () => {
		const { response, text } = await send("/ulid?cuont=3", "GET");
		expect(response.status).toBe(400);
		expect((JSON.parse(text) as ErrorBody).error.code).toBe("invalid_request");
	});
});
