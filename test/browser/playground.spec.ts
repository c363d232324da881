/** The playground against an open service: one test per behaviour. */
import { join } from "node:path";
import type { Page } from "@playwright/test";
import {
	bitCells,
	decode,
	decodedField,
	decodeSection,
	expect,
	generate,
	generateSection,
	generateStatus,
	idButtons,
	layoutSection,
	SCREENSHOTS,
	SNOWFLAKE,
	segmentValue,
	test,
	ULID,
	UUIDV7,
} from "./fixtures";

/** The decoded Snowflake's 64 bit cells read `id` in binary; each field has its width. */
async function expectSnowflakeBits(
	page: Page,
	id: bigint,
	widths: [field: string, width: number][],
): Promise<void> {
	const bits = (await bitCells(page).allTextContents()).join("");
	expect(bits).toBe(id.toString(2).padStart(64, "0"));
	for (const [field, width] of widths) {
		await expect(bitCells(page, field), field).toHaveCount(width);
	}
}

test.beforeEach(async ({ page }) => {
	await page.goto("/");
});

test("shows the active layout and its exhaustion date", async ({ page }) => {
	const layout = layoutSection(page);
	await expect(layout).toContainText("2080-07-10T17:30:30.209Z");
	await expect(layout).toContainText("1 sign + 41 time + 10 worker + 12 sequence");
	await expect(layout).toContainText("0–1023");
	await expect(layout).toContainText(/in \d+ years/);
});

test("generates Snowflakes from an automatic worker ID, in increasing order", async ({ page }) => {
	const ids = await generate(page, "Snowflake", 5);
	expect(ids).toHaveLength(5);
	for (const id of ids) expect(id).toMatch(SNOWFLAKE);
	const sorted = [...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
	expect(new Set(ids).size).toBe(5);
	expect(ids).toEqual(sorted);
	await expect(generateStatus(page)).toContainText(/from worker ID \d+/);
});

test("generates Snowflakes from a chosen worker ID", async ({ page }) => {
	const ids = await generate(page, "Snowflake", 3, "7");
	expect(ids).toHaveLength(3);
	for (const id of ids) expect((BigInt(id) >> 12n) & 1023n).toBe(7n);
});

test("generates ULIDs, with the worker ID field disabled", async ({ page }) => {
	const ids = await generate(page, "ULID", 4);
	expect(ids).toHaveLength(4);
	for (const id of ids) expect(id).toMatch(ULID);
	await expect(page.getByLabel("Worker ID")).toBeDisabled();
});

test("generates 10,000 distinct UUIDv7s at once, the API's default limit", async ({ page }) => {
	await expect(page.getByText("1 to 10,000.")).toBeVisible();
	await page.getByRole("radio", { name: "UUIDv7" }).check();
	await page.getByLabel("Count").fill("10000");
	await page.getByRole("button", { name: "Generate", exact: true }).click();
	await expect(generateStatus(page)).toContainText("10000 UUIDv7 IDs");
	// Naming 20,000 buttons by role is slow: read the list's ID buttons directly.
	const ids = await page
		.getByRole("list", { name: "Generated IDs" })
		.locator("button.id")
		.allTextContents();
	expect(ids).toHaveLength(10_000);
	expect(ids.filter((id) => !UUIDV7.test(id))).toEqual([]); // one expect: each costs a trace step
	expect(new Set(ids).size).toBe(10_000);
});

test("refuses a count over 10,000 before calling the API", async ({ page }) => {
	let calls = 0;
	page.on("request", (request) => {
		if (request.method() === "POST") calls++;
	});
	await page.getByLabel("Count").fill("10001");
	await page.getByRole("button", { name: "Generate", exact: true }).click();
	await expect(generateSection(page).getByRole("alert")).toContainText("1 to 10,000");
	expect(calls).toBe(0);
});

test("shows an API error readably (worker ID out of range)", async ({
	page,
	allowFailedRequest,
}) => {
	allowFailedRequest("/snowflake/5000");
	await page.getByLabel("Worker ID").fill("5000");
	await page.getByLabel("Count").fill("1");
	await page.getByRole("button", { name: "Generate", exact: true }).click();
	const alert = generateSection(page).getByRole("alert");
	await expect(alert).toContainText("Invalid worker id");
	await expect(alert).toContainText("(invalid_worker_id, HTTP 400)");
	await expect(alert).toContainText("1023"); // the API's own message
});

test("a failed Generate clears the IDs listed before it", async ({ page, allowFailedRequest }) => {
	allowFailedRequest("/snowflake/5000");
	await generate(page, "Snowflake", 3);
	await page.getByLabel("Worker ID").fill("5000");
	await page.getByRole("button", { name: "Generate", exact: true }).click();
	await expect(generateSection(page).getByRole("alert")).toContainText("Invalid worker id");
	await expect(idButtons(page)).toHaveCount(0);
	await expect(page.getByRole("button", { name: "Copy all" })).toBeHidden();

	await generate(page, "ULID", 2);
	await page.getByLabel("Count").fill("0"); // refused by the page itself
	await page.getByRole("button", { name: "Generate", exact: true }).click();
	await expect(generateSection(page).getByRole("alert")).toContainText("1 to 10,000");
	await expect(idButtons(page)).toHaveCount(0);
});

test("decodes a Twitter Snowflake: time, worker split, 64 bits", async ({ page }) => {
	await decode(page, "910499571847892992");
	await expect(decodedField(page, "Kind")).toHaveText("Snowflake");
	await expect(decodedField(page, "Timestamp (Unix ms)")).toHaveText("1505914988849");
	await expect(decodedField(page, "Time")).toContainText("2017-09-20T13:43:08.849Z");
	await expect(decodedField(page, "Time")).toContainText(/\(\d+ years ago\)/);
	await expect(decodedField(page, "Worker ID")).toHaveText("569");
	await expect(decodedField(page, "Datacenter ID")).toHaveText("17");
	await expect(decodedField(page, "Machine ID")).toHaveText("25");
	await expect(segmentValue(page, "Datacenter")).toHaveText("17");
	await expect(segmentValue(page, "Machine")).toHaveText("25");
	await expectSnowflakeBits(page, 910499571847892992n, [
		["sign", 1],
		["time", 41],
		["datacenter", 5],
		["machine", 5],
		["sequence", 12],
	]);
	await expect(decodeSection(page).getByRole("status")).toContainText("Decoded a Snowflake");
});

test("decodes another system's ID with a layout preset (Discord), bits included", async ({
	page,
}) => {
	await page.getByRole("combobox", { name: "Snowflake layout" }).selectOption("discord");
	await decode(page, "175928847299117063");
	await expect(decodedField(page, "Layout")).toHaveText("discord");
	await expect(decodedField(page, "Time")).toContainText("2016-04-30T11:18:25.796Z");
	await expect(decodedField(page, "Worker ID")).toHaveText("1");
	await expect(decodedField(page, "Process ID")).toHaveText("0");
	await expect(decodedField(page, "Increment")).toHaveText("7");
	// Discord's IDs use all 64 bits: no sign bit.
	await expectSnowflakeBits(page, 175928847299117063n, [
		["sign", 0],
		["time", 42],
		["worker", 5],
		["process", 5],
		["increment", 12],
	]);
	await expect(segmentValue(page, "Process ID")).toHaveText("0");
	await expect(segmentValue(page, "Increment")).toHaveText("7");
});

test("clicking a generated ULID decodes it into 128 bits", async ({ page }) => {
	const [id] = await generate(page, "ULID", 2);
	await idButtons(page).first().click();
	await expect(decodeSection(page).getByText(id ?? "", { exact: true })).toBeVisible();
	await expect(decodedField(page, "Kind")).toHaveText("ULID");
	await expect(bitCells(page)).toHaveCount(128);
	await expect(bitCells(page, "time")).toHaveCount(48);
	await expect(bitCells(page, "random")).toHaveCount(80);
	await expect(page.getByLabel("Snowflake, ULID or UUID")).toHaveValue(id ?? "");
});

test("decodes a UUIDv7: time, version, counter, variant, random", async ({ page }) => {
	await page.getByRole("button", { name: "UUIDv7", exact: true }).click(); // an example
	await expect(decodedField(page, "Time")).toContainText("2022-02-22T19:22:22.000Z");
	await expect(bitCells(page)).toHaveCount(128);
	for (const [field, width] of [
		["time", 48],
		["version", 4],
		["counter", 42],
		["variant", 2],
		["random", 32],
	] as const) {
		await expect(bitCells(page, field), field).toHaveCount(width);
	}
	await expect(segmentValue(page, "Version")).toHaveText("7");
});

test("shows a bad ID's error readably", async ({ page, allowFailedRequest }) => {
	allowFailedRequest("/decode/not-an-id");
	const input = page.getByLabel("Snowflake, ULID or UUID");
	await input.fill("not-an-id");
	await input.press("Enter");
	const alert = decodeSection(page).getByRole("alert");
	await expect(alert).toContainText(/^Invalid id/);
	await expect(alert).toContainText("1-19 decimal digits");
});

test("copies a generated ID to the clipboard", async ({ page }) => {
	const [id] = await generate(page, "Snowflake", 1);
	await page.getByRole("button", { name: `Copy ${id}` }).click();
	await expect(generateStatus(page)).toContainText("Copied ID to the clipboard");
	expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(id);
});

test("copies all generated IDs at once", async ({ page }) => {
	const ids = await generate(page, "ULID", 3);
	await page.getByRole("button", { name: "Copy all" }).click();
	await expect(generateStatus(page)).toContainText("Copied 3 IDs");
	expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(ids.join("\n"));
});

test("links the API reference and the OpenAPI description", async ({ page }) => {
	const footer = page.getByRole("contentinfo");
	await expect(footer.getByRole("link", { name: "API reference" })).toHaveAttribute(
		"href",
		"/docs",
	);
	const openApi = footer.getByRole("link", { name: "OpenAPI description" });
	await expect(openApi).toHaveAttribute("href", "/openapi.json");
	await openApi.click();
	await expect(page).toHaveURL(/\/openapi\.json$/);
	expect(JSON.parse((await page.textContent("body")) ?? "")).toMatchObject({ openapi: "3.1.0" });
});

test("shows where keyboard focus is", async ({ page }) => {
	await page.getByLabel("Count").focus();
	await page.keyboard.press("Tab");
	const outline = await page.evaluate(() => {
		const style = getComputedStyle(document.activeElement as Element);
		return `${style.outlineStyle} ${style.outlineWidth}`;
	});
	expect(outline).toMatch(/^solid [1-9]/);
});

test("fits a desktop, a phone and the dark scheme without sideways scrolling", async ({ page }) => {
	const noSidewaysScroll = async () =>
		expect(
			await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
		).toBeLessThanOrEqual(0);
	await decode(page, "910499571847892992");
	await noSidewaysScroll();
	await page.screenshot({ path: join(SCREENSHOTS, "playground-desktop.png"), fullPage: true });

	await page.setViewportSize({ width: 390, height: 844 });
	await generate(page, "Snowflake", 3);
	await decode(page, "01ARYZ6S41TSV4RRFFQ69G5FAV");
	await noSidewaysScroll();
	await page.screenshot({ path: join(SCREENSHOTS, "playground-phone.png"), fullPage: true });

	await page.setViewportSize({ width: 1280, height: 800 });
	await page.emulateMedia({ colorScheme: "dark" });
	await decode(page, "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
	await page.screenshot({ path: join(SCREENSHOTS, "playground-dark.png"), fullPage: true });
});

test("shows Generate first: top left on a desktop, first on a phone", async ({ page }) => {
	const cards = ["Generate", "Decode", "IDs of a time window", "Snowflake layout"];
	const boxes = async () => {
		const found = [];
		for (const name of cards) {
			const box = await page.getByRole("region", { name }).boundingBox();
			if (!box) throw new Error(`no ${name} card`);
			found.push(box);
		}
		return found;
	};
	// Desktop: Generate is the top-left card; no other card starts above it or left of it.
	const [first, ...others] = await boxes();
	if (!first) throw new Error("no Generate card");
	for (const box of others) {
		expect(box.y + 1).toBeGreaterThanOrEqual(first.y);
		expect(box.x + 1).toBeGreaterThanOrEqual(first.x);
	}
	// Phone: one column, in the page's order.
	await page.setViewportSize({ width: 390, height: 844 });
	const stacked = await boxes();
	const tops = stacked.map((box) => box.y);
	expect(tops).toEqual([...tops].sort((a, b) => a - b));
});

test("generates prefixed TypeIDs and base32 Snowflakes, and decodes them", async ({ page }) => {
	const generateCard = generateSection(page);
	await generateCard.getByLabel("Prefix").fill("user");
	const typeids = await generate(page, "TypeID", 3);
	for (const id of typeids) expect(id).toMatch(/^user_[0-7][0-9a-hjkmnp-tv-z]{25}$/);
	await idButtons(page).first().click();
	await expect(decodedField(page, "Prefix")).toHaveText("user");
	await expect(bitCells(page)).toHaveCount(128);

	await generateCard.getByLabel("Prefix").fill("");
	await page.getByRole("radio", { name: "Snowflake" }).check();
	await generateCard.getByLabel("Snowflake text").selectOption("base32");
	const snowflakes = await generate(page, "Snowflake", 3);
	for (const id of snowflakes) expect(id).toMatch(/^[0-7][0-9a-hjkmnp-tv-z]{12}$/);
	expect([...snowflakes].sort()).toEqual(snowflakes);
	// A bare base32 Snowflake is read as one when picked from the list.
	await idButtons(page).first().click();
	await expect(decodedField(page, "Base32 text")).toHaveText(snowflakes[0] as string);
	await expect(bitCells(page)).toHaveCount(64);
});

test("finds the ID bounds of a time window", async ({ page, allowFailedRequest }) => {
	allowFailedRequest("/range?"); // the reversed window below is a 400 on purpose
	const card = page.getByRole("region", { name: "IDs of a time window" });
	await card.getByLabel("Kind").selectOption("typeid");
	await card.getByLabel("Prefix").fill("order");
	await card.getByLabel("From (included)").fill("2026-11-01T00:00:00");
	await card.getByLabel("To (excluded)").fill("2026-11-02T00:00:00");
	await card.getByRole("button", { name: "Find bounds" }).click();
	await expect(card.getByRole("status")).toContainText("lies between these");
	await expect(card.locator('[data-field="min"]')).toHaveText(/^order_[0-7][0-9a-z]{25}$/);
	await expect(card.locator('[data-field="sql"]')).toContainText("WHERE id BETWEEN 'order_");

	await card.getByLabel("To (excluded)").fill("2026-10-01T00:00:00");
	await card.getByRole("button", { name: "Find bounds" }).click();
	await expect(card.getByRole("alert")).toContainText("invalid_range");
});
