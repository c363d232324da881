/**
 * The browser tests' fixtures: which server a test talks to, a page that fails the
 * test on any console error or CSP violation it did not ask for and never reaches
 * past its server, and the steps most tests share (generate, decode), written with
 * role-based locators.
 */
import { test as base, expect, type Page, type Request } from "@playwright/test";

export { expect };

export const API_TOKEN = "browser-test-token";
export const SCREENSHOTS = "test-artifacts";

export const SNOWFLAKE = /^[0-9]{1,19}$/;
export const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
export const UUIDV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Fixtures {
	/** `open`: no API token; `locked`: the service has API_TOKEN set. */
	server: "open" | "locked";
	/** Failed requests the test provokes on purpose (a 400 for a bad ID) are not errors. */
	allowFailedRequest: (urlPart: string) => void;
	/** Requests beyond the dev server, refused at once; unanswered ones listed on failure. */
	localOnly: undefined;
}

export const test = base.extend<Fixtures>({
	server: ["open", { option: true }],
	baseURL: async ({ server }, use) => {
		const url = server === "open" ? process.env.PLAYGROUND_URL : process.env.PLAYGROUND_LOCKED_URL;
		if (!url) throw new Error("no dev server: run through `npm run test:browser`");
		await use(url);
	},
	allowFailedRequest: [
		async ({ page }, use) => {
			const allowed: string[] = [];
			const errors: string[] = [];
			page.on("console", (message) => {
				if (message.type() !== "error") return;
				const url = message.location().url ?? "";
				const failedLoad = message.text().startsWith("Failed to load resource");
				if (failedLoad && allowed.some((part) => url.includes(part))) return;
				errors.push(`${message.text()}${url ? ` (${url})` : ""}`);
			});
			page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
			await use((part) => allowed.push(part));
			expect(errors, "console errors").toEqual([]);
		},
		{ auto: true },
	],
	// A request to another host may never be answered on a closed network, and would
	// hold the page's load event until the test times out: each one is aborted at
	// once and fails the test by name. A test that plays such a host (the docs CDN)
	// routes it itself; its route comes later, so it is asked first. A failed test
	// also gets the requests still unanswered, the first thing to read after a hang.
	localOnly: [
		async ({ page, baseURL }, use, testInfo) => {
			const origin = new URL(baseURL ?? "").origin;
			const external: string[] = [];
			const pending = new Map<Request, number>();
			page.on("request", (request) => pending.set(request, Date.now()));
			page.on("requestfinished", (request) => pending.delete(request));
			page.on("requestfailed", (request) => pending.delete(request));
			await page.route(
				(url) => url.origin !== origin,
				(route) => {
					external.push(route.request().url());
					return route.abort("blockedbyclient");
				},
			);
			await use(undefined);
			if (testInfo.status !== testInfo.expectedStatus && pending.size > 0) {
				const now = Date.now();
				const lines = [...pending].map(
					([request, since]) => `${request.method()} ${request.url()} (${now - since} ms)`,
				);
				await testInfo.attach("pending-requests", { body: lines.join("\n") });
			}
			expect(external, "requests beyond the dev server").toEqual([]);
		},
		{ auto: true },
	],
});

/** Generates IDs through the form and returns them as listed. */
export async function generate(
	page: Page,
	kind: string,
	count: number,
	workerId = "",
): Promise<string[]> {
	await page.getByRole("radio", { name: kind }).check();
	if (kind === "Snowflake") await page.getByLabel("Worker ID").fill(workerId);
	await page.getByLabel("Count", { exact: true }).fill(String(count));
	await page.getByRole("button", { name: "Generate", exact: true }).click();
	await expect(generateStatus(page)).toContainText(`${count} ${kind} ID`);
	return idButtons(page).allTextContents();
}

/** Decodes an ID by typing it and pressing Enter (the keyboard path). */
export async function decode(page: Page, id: string): Promise<void> {
	const input = page.getByLabel("Snowflake, ULID or UUID");
	await input.fill(id);
	await input.press("Enter");
	await expect(decodeStatus(page)).toContainText("Decoded a");
}

export const generateSection = (page: Page) => page.getByRole("region", { name: "Generate" });
export const decodeSection = (page: Page) => page.getByRole("region", { name: "Decode" });
export const layoutSection = (page: Page) =>
	page.getByRole("region", { name: "Active Snowflake layout" });
export const generateStatus = (page: Page) => generateSection(page).getByRole("status");
export const decodeStatus = (page: Page) => decodeSection(page).getByRole("status");
/** The generated IDs: each a button named by its ID that decodes it (beside its Copy button). */
export const idButtons = (page: Page) =>
	page.getByRole("list", { name: "Generated IDs" }).getByRole("button", { name: /^(?!Copy )/ });
/** The bit cells of the decoded ID, or those of one field. */
export const bitCells = (page: Page, field?: string) =>
	page
		.getByRole("img", { name: /bits, most significant first/ })
		.locator(field ? `.bit.f-${field}` : ".bit");
/** The decoded ID's field (the `<dd>` after its label). */
export const decodedField = (page: Page, label: string) =>
	decodeSection(page)
		.getByRole("term")
		.getByText(label, { exact: true })
		.locator("xpath=following-sibling::dd[1]");
/** A row of the bit table, by field name: its value. */
export const segmentValue = (page: Page, name: string) =>
	decodeSection(page)
		.getByRole("row")
		.filter({ has: page.getByRole("rowheader", { name: new RegExp(`^${name} bits? `) }) })
		.locator(".value");
