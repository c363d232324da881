import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/wire";
import { call, callJson } from "./helpers";

/** An asset as Cloudflare serves it (public/ with its _headers), before any Worker code. */
const asset = (path: string) => env.ASSETS.fetch(new Request(`https://ids.test${path}`));

/** The policy public/_headers gives every asset: own origin only, nothing inline. */
const CSP_DIRECTIVES = [
	"default-src 'self'",
	"script-src 'self'",
	"style-src 'self'",
	"img-src 'self' data:",
	"connect-src 'self'",
	"object-src 'none'",
	"base-uri 'none'",
	"form-action 'self'",
	"frame-ancestors 'none'",
];

function directivesOf(response: Response): string[] {
	return (response.headers.get("Content-Security-Policy") ?? "").split(";").map((d) => d.trim());
}

describe("the playground's assets", () => {
	it("serves / as HTML under a CSP that admits only this origin and nothing inline", async () => {
		const response = await asset("/");
		expect(response.status).toBe(200);
		expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
		expect(directivesOf(response).sort()).toEqual([...CSP_DIRECTIVES].sort());
		expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
		expect(response.headers.get("Referrer-Policy")).toBe("no-referrer");
		const html = await response.text();
		// Its only script and stylesheets are the files below, from this origin.
		expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script type="module" src="/playground.js">']);
		expect(html.match(/<link rel="stylesheet"[^>]*>/g)).toEqual([
			'<link rel="stylesheet" href="/playground.css">',
			'<link rel="stylesheet" href="/decoded.css">',
		]);
		expect(html).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);
	});

	it("serves the built script and the stylesheets under the same policy", async () => {
		for (const [path, type] of [
			["/playground.js", "text/javascript"],
			["/playground.css", "text/css"],
			["/decoded.css", "text/css"],
		] as const) {
			const response = await asset(path);
			expect(response.status, path).toBe(200);
			expect(response.headers.get("Content-Type"), path).toContain(type);
			expect(directivesOf(response).sort(), path).toEqual([...CSP_DIRECTIVES].sort());
			expect((await response.text()).length, path).toBeGreaterThan(1000);
		}
	});

	it("serves a favicon, as ICO and SVG, and the pages link both", async () => {
		const ico = await asset("/favicon.ico");
		expect(ico.status).toBe(200);
		expect(ico.headers.get("Content-Type")).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
		// An ICO header: reserved 0, type 1 (icon), then its images (16 and 32 pixels).
		expect([...new Uint8Array(await ico.arrayBuffer()).subarray(0, 6)]).toEqual([0, 0, 1, 0, 2, 0]);
		const svg = await asset("/favicon.svg");
		expect(svg.status).toBe(200);
		expect(svg.headers.get("Content-Type")).toContain("image/svg+xml");
		expect(await svg.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
		const icons = '<link rel="icon" href="/favicon.ico" sizes="32x32">';
		expect(await (await asset("/")).text()).toContain(icons);
		expect(await (await call("/docs")).text()).toContain(icons);
	});
});

describe("/ in the Worker", () => {
	it("answers GET with the same page (should a request reach the Worker)", async () => {
		const [viaWorker, direct] = await Promise.all([call("/"), asset("/")]);
		expect(viaWorker.status).toBe(200);
		expect(viaWorker.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
		expect(viaWorker.headers.get("Content-Security-Policy")).toBe(
			direct.headers.get("Content-Security-Policy"),
		);
		expect(await viaWorker.text()).toBe(await direct.text());
	});

	it("refuses other methods with 405 and Allow: GET", async () => {
		for (const method of ["POST", "PUT", "DELETE"]) {
			const { status, body, headers } = await callJson<ErrorBody>("/", {
				method,
			});
			expect(status).toBe(405);
			expect(headers.get("Allow")).toBe("GET");
			expect(body.error.code).toBe("method_not_allowed");
		}
	});
});

describe("the other files in the Worker (it runs before the static layer)", () => {
	it("serves them on GET and HEAD with their own headers, before auth and the log", async () => {
		const [viaWorker, direct] = await Promise.all([
			call("/playground.css"),
			asset("/playground.css"),
		]);
		expect(viaWorker.status).toBe(200);
		expect(viaWorker.headers.get("Content-Security-Policy")).toBe(
			direct.headers.get("Content-Security-Policy"),
		);
		expect(viaWorker.headers.get("X-Request-Id")).toBeNull();
		expect(await viaWorker.text()).toBe(await direct.text());
		expect((await call("/decoded.css", { method: "HEAD" })).status).toBe(200);
	});

	it("answers other methods on a file's path with the service's JSON 405 and Allow", async () => {
		for (const path of ["/playground.css", "/playground.js", "/index.html"]) {
			for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
				const { status, body, headers } = await callJson<ErrorBody>(path, { method });
				expect(status, `${method} ${path}`).toBe(405);
				expect(headers.get("Allow"), `${method} ${path}`).toBe("GET, HEAD");
				expect(headers.get("X-Request-Id"), `${method} ${path}`).toMatch(/^[0-9a-f-]{36}$/);
				expect(body.error.code, `${method} ${path}`).toBe("method_not_allowed");
				expect(body.error.message).toBe(`${method} is not allowed on ${path}; use GET or HEAD`);
			}
		}
	});

	it("leaves a path with no file and no route the service's 404", async () => {
		for (const method of ["GET", "POST"]) {
			const { status, body } = await callJson<ErrorBody>("/nope.css", { method });
			expect(status, method).toBe(404);
			expect(body.error.code, method).toBe("not_found");
		}
	});
});
