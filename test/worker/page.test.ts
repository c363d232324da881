import { describe, expect, it } from "vitest";
import { call, callJson } from "./helpers";

async function page() {
	const response = await call("/");
	return { response, html: await response.text() };
}

function nonceOf(response: Response): string {
	const csp = response.headers.get("Content-Security-Policy") ?? "";
	const nonce = /script-src 'nonce-([A-Za-z0-9+/]+={0,2})'/.exec(csp)?.[1];
	if (!nonce) throw new Error(`no script nonce in CSP: ${csp}`);
	return nonce;
}

describe("GET / (the playground page)", () => {
	it("is one HTML page, uncached", async () => {
		const { response, html } = await page();
		expect(response.status).toBe(200);
		expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
		expect(response.headers.get("Cache-Control")).toBe("no-store");
		expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
		expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
		expect(html).toContain('<html lang="en">');
		expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
	});

	it("has a strict Content-Security-Policy that admits only its own inline script and style", async () => {
		const { response, html } = await page();
		const csp = response.headers.get("Content-Security-Policy") ?? "";
		const directives = csp.split(";").map((d) => d.trim());
		expect(directives).toContain("default-src 'self'");
		expect(directives).toContain("connect-src 'self'");
		expect(directives).toContain("object-src 'none'");
		expect(directives).toContain("base-uri 'none'");
		expect(directives).toContain("frame-ancestors 'none'");
		expect(csp).not.toContain("unsafe-inline");
		expect(csp).not.toContain("unsafe-eval");
		const nonce = nonceOf(response);
		expect(directives).toContain(`script-src 'nonce-${nonce}'`);
		expect(directives).toContain(`style-src 'nonce-${nonce}'`);
		// Exactly one script and one style element, both inline and carrying the nonce.
		expect(html.match(/<script\b[^>]*>/g)).toEqual([`<script nonce="${nonce}">`]);
		expect(html.match(/<style\b[^>]*>/g)).toEqual([`<style nonce="${nonce}">`]);
		// No inline event handlers or style attributes (the CSP would block them).
		expect(html).not.toMatch(/\son[a-z]+=/i);
		expect(html).not.toMatch(/\sstyle=/i);
	});

	it("uses a fresh nonce for every response", async () => {
		const nonces = new Set<string>();
		for (let i = 0; i < 5; i++) nonces.add(nonceOf((await page()).response));
		expect(nonces.size).toBe(5);
	});

	it("has the controls: token, generate (kind, worker ID, count), decode, layout", async () => {
		const { html } = await page();
		for (const fragment of [
			'id="auth-form"',
			'<label for="token">',
			'type="password"',
			'id="gen-form"',
			'name="kind" value="snowflake"',
			'name="kind" value="ulid"',
			'name="kind" value="uuidv7"',
			'<label for="worker-id">',
			'id="worker-id"',
			'<label for="count">',
			'id="count"',
			'max="1000"',
			'id="decode-form"',
			'<label for="decode-input">',
			'id="decode-input"',
			'id="layout-output"',
			'id="gen-status" class="status" role="status" aria-live="polite"',
			'id="decode-status" class="status" role="status" aria-live="polite"',
		]) {
			expect(html).toContain(fragment);
		}
		expect(html.match(/<button\b/g)?.length).toBeGreaterThanOrEqual(5);
		expect(html).not.toMatch(/<button(?![^>]*\btype=")/); // every button says its type
	});

	it("calls only the service's own routes, and loads nothing from elsewhere", async () => {
		const { html } = await page();
		expect(html).not.toMatch(/https?:\/\//i);
		expect(html).not.toMatch(/\b(?:src|href|action)\s*=\s*"\/\//i);
		expect(html).not.toMatch(/@import|url\(/i);
		expect(html).not.toMatch(/<(?:link|img|iframe|object|embed)\b(?![^>]*\bhref="data:,")/i);
		for (const route of [
			'"/layout"',
			'"/decode/"',
			'"/" + kind',
			"/snowflake",
			"/ulid",
			"/uuidv7",
		]) {
			expect(html).toContain(route);
		}
	});

	it("needs no token (it is in PUBLIC_PATHS) and answers HEAD", async () => {
		const response = await call("/", { method: "HEAD" });
		expect(response.status).toBe(200);
		expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
		expect(await response.text()).toBe("");
	});

	it("refuses other methods with 405 and Allow: GET", async () => {
		for (const method of ["POST", "PUT", "DELETE"]) {
			const { status, body, headers } = await callJson<{ error: { code: string } }>("/", {
				method,
			});
			expect(status).toBe(405);
			expect(headers.get("Allow")).toBe("GET");
			expect(body.error.code).toBe("method_not_allowed");
		}
	});
});
