/** The playground against a service with API_TOKEN set: the page is public, the API is not. */
import { API_TOKEN, expect, generate, layoutSection, test, UUIDV7 } from "./fixtures";

test.use({ server: "locked" });

test.beforeEach(async ({ page, allowFailedRequest }) => {
	allowFailedRequest("/layout"); // the 401 before a token is given
	await page.goto("/");
});

const authCard = (page: import("@playwright/test").Page) =>
	page.getByRole("region", { name: "Authorization" });

test("the page is public and asks for the token", async ({ page }) => {
	await expect(authCard(page)).toContainText("needs a token");
	await expect(layoutSection(page).getByRole("alert")).toContainText("(unauthorized, HTTP 401)");
	await expect(page.getByLabel("API token")).toBeFocused();
});

test("a wrong token is refused, the right one is used", async ({ page }) => {
	await page.getByLabel("API token").fill("wrong");
	await page.getByRole("button", { name: "Use token" }).click();
	await expect(authCard(page)).toContainText("did not accept");
	await page.getByLabel("API token").fill(API_TOKEN);
	await page.getByRole("button", { name: "Use token" }).click();
	await expect(layoutSection(page)).toContainText("Exhausts at");
	await expect(authCard(page)).toContainText("Using the API token saved in this browser tab");
	const ids = await generate(page, "UUIDv7", 2);
	for (const id of ids) expect(id).toMatch(UUIDV7);
});

test("the token survives a reload and can be forgotten", async ({ page }) => {
	await page.getByLabel("API token").fill(API_TOKEN);
	await page.getByRole("button", { name: "Use token" }).click();
	await expect(layoutSection(page)).toContainText("Exhausts at");
	await page.reload();
	await expect(layoutSection(page)).toContainText("Exhausts at");
	await expect(page.getByLabel("API token")).toBeHidden();
	await page.getByRole("button", { name: "Forget token" }).click();
	await expect(page.getByLabel("API token")).toBeVisible();
});
