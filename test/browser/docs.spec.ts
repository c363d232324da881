/**
 * `/docs` in a real browser, with the CDN that serves the reference script out of
 * reach (as offline or behind a proxy) and answering. The CDN is outside the
 * service, so the test plays it with `page.route`.
 */
import { createHash } from "node:crypto";
import { expect, test } from "./fixtures";

const CDN = "https://cdn.jsdelivr.net/**";

const fallback = (page: import("@playwright/test").Page) => page.getByRole("main");

test("says what the page is and links the document when the CDN is out of reach", async ({
	page,
	allowFailedRequest,
}) => {
	allowFailedRequest("cdn.jsdelivr.net");
	await page.route(CDN, (route) => route.abort("internetdisconnected"));
	await page.goto("/docs");
	await expect(page.getByRole("heading", { name: "edge-ids API reference" })).toBeVisible();
	await expect(fallback(page)).toContainText("could not be loaded from cdn.jsdelivr.net");
	await expect(fallback(page)).toContainText("a proxy or firewall blocks");
	const link = page.getByRole("link", { name: "/openapi.json" });
	await expect(link).toBeVisible();
	await link.click();
	await expect(page).toHaveURL(/\/openapi\.json$/);
	expect(JSON.parse((await page.textContent("body")) ?? "")).toMatchObject({ openapi: "3.1.0" });
});

test("shows the fallback while the CDN does not answer", async ({ page, allowFailedRequest }) => {
	allowFailedRequest("cdn.jsdelivr.net");
	let release: () => void = () => {};
	const released = new Promise<void>((resolve) => {
		release = resolve;
	});
	await page.route(CDN, async (route) => {
		await released; // a proxy that swallows the request, until the test is done
		await route.abort("timedout").catch(() => {});
	});
	// The page's parsing waits on the script, so there is no DOMContentLoaded to await.
	await page.goto("/docs", { waitUntil: "commit" });
	await expect(fallback(page)).toContainText("Loading the reference");
	await expect(page.getByRole("link", { name: "/openapi.json" })).toBeVisible();
	release();
});

test("the reference replaces the fallback once its script loads", async ({ page }) => {
	// Stands in for Scalar: renders a placeholder where the reference would be.
	const stub = `document.body.prepend(Object.assign(document.createElement("div"), { id: "stub-reference", textContent: "Reference from the CDN" }));`;
	const stubIntegrity = `sha384-${createHash("sha384").update(stub).digest("base64")}`;
	await page.route(CDN, (route) =>
		route.fulfill({
			contentType: "text/javascript",
			headers: { "Access-Control-Allow-Origin": "*" },
			body: stub,
		}),
	);
	// A stub cannot match the pinned hash: the page is served as is (its CSP too),
	// with only the integrity attribute naming the stub.
	await page.route("**/docs", async (route) => {
		const response = await route.fetch();
		const html = (await response.text()).replace(
			/integrity="[^"]+"/,
			`integrity="${stubIntegrity}"`,
		);
		await route.fulfill({ response, body: html });
	});
	await page.goto("/docs");
	await expect(page.locator("#stub-reference")).toHaveText("Reference from the CDN");
	await expect(fallback(page)).toHaveCount(0);
});
