/** The playground's sequences panel against an open service: create, next, status, a refusal. */
import { expect, test } from "./fixtures";

test.beforeEach(async ({ page }) => {
	await page.goto("/");
});

test("creates a sequence, takes its next numbers in order, and shows its status", async ({
	page,
}) => {
	const panel = page.locator("#sequences");
	const name = `play-${Date.now()}`;
	await panel.getByLabel("Name").fill(name);
	await panel.getByLabel("Start").fill("1000");
	await panel.getByLabel("Reset").selectOption("daily");
	await panel.getByRole("button", { name: "Create" }).click();
	await expect(panel.locator("#seq-status")).toHaveText(`Sequence "${name}" is ready.`);
	await expect(panel.locator('[data-field="next"]')).toHaveText("1000");
	await expect(panel.locator('[data-field="settings"]')).toHaveText(
		"start 1000, ordered, reset daily, UTC",
	);

	await panel.getByLabel("Numbers").fill("3");
	await panel.getByRole("button", { name: "Next" }).click();
	await expect(panel.locator("#seq-numbers li")).toHaveText(["1000", "1001", "1002"]);
	await expect(panel.locator("#seq-status")).toContainText(`3 numbers of "${name}" (period `);
	await panel.getByRole("button", { name: "Next" }).click();
	await expect(panel.locator("#seq-numbers li")).toHaveText(["1003", "1004", "1005"]);

	await panel.getByRole("button", { name: "Status" }).click();
	await expect(panel.locator('[data-field="next"]')).toHaveText("1006");
	await expect(panel.locator('[data-field="issued"]')).toHaveText("6");
	await expect(panel.locator('[data-field="requests"]')).toHaveText("2");
});

test("shows the service's refusal of a name never created", async ({
	page,
	allowFailedRequest,
}) => {
	const panel = page.locator("#sequences");
	const name = `never-${Date.now()}`;
	allowFailedRequest(`/sequences/${name}/next`);
	await panel.getByLabel("Name").fill(name);
	await panel.getByRole("button", { name: "Next" }).click();
	await expect(panel.locator("#seq-output")).toContainText("unknown_sequence");
	await expect(panel.locator("#seq-output")).toContainText("PUT /sequences/");
});

test("retires a sequence after the browser's confirmation; then Next is refused", async ({
	page,
	allowFailedRequest,
}) => {
	const panel = page.locator("#sequences");
	const name = `retire-${Date.now()}`;
	allowFailedRequest(`/sequences/${name}/next`);
	await panel.getByLabel("Name").fill(name);
	await panel.getByRole("button", { name: "Create" }).click();
	await expect(panel.locator("#seq-status")).toHaveText(`Sequence "${name}" is ready.`);
	// Dismissed: nothing is sent.
	page.once("dialog", (dialog) => dialog.dismiss());
	await panel.getByRole("button", { name: "Retire" }).click();
	await panel.getByRole("button", { name: "Next" }).click();
	await expect(panel.locator("#seq-numbers li")).toHaveText(["1", "2", "3"]);

	page.once("dialog", async (dialog) => {
		expect(dialog.message()).toContain(`Retire "${name}" for good?`);
		await dialog.accept();
	});
	await panel.getByRole("button", { name: "Retire" }).click();
	await expect(panel.locator("#seq-status")).toHaveText(
		`Sequence "${name}" is retired: it issues nothing more.`,
	);
	await expect(panel.locator('[data-field="next"]')).toHaveText("4");
	await expect(panel.locator('[data-field="retiredAt"]')).toHaveText(/^20\d\d-/);
	await panel.getByRole("button", { name: "Next" }).click();
	await expect(panel.locator("#seq-output")).toContainText("(sequence_retired, HTTP 410)");
});
