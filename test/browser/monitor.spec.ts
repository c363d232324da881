/**
 * The monitor page (/monitor) against the real service: the fleet table once the
 * worker ID's object has pushed its minute (its alarm fires just past the minute's
 * end: this test waits for it), the sequences table once the sequence's object has
 * reported its counts (the same way), the leases table, the charts (the fleet, a
 * worker ID, a sequence), the layout's end;
 * screenshots at desktop and phone widths; and the token asked for where API_TOKEN is set.
 */
import { join } from "node:path";
import { API_TOKEN, expect, SCREENSHOTS, test } from "./fixtures";

const region = (page: import("@playwright/test").Page, name: string) =>
	page.getByRole("region", { name });

test.describe("open service", () => {
	test("lists worker IDs and leases, draws the charts, refreshes on its own", async ({
		page,
		request,
	}) => {
		test.setTimeout(150_000); // a worker ID's counts reach the catalog at its minute's end
		// Worker ID 900 is this test's alone (the playground's tests use others on this server).
		expect((await request.get("/snowflake/900?count=5000")).status()).toBe(200);
		const sequence = `monitor-${Date.now()}`;
		const made = await request.put(`/sequences/${sequence}`, { data: { start: 1000 } });
		expect(made.status()).toBe(201);
		for (let i = 0; i < 2; i++) {
			expect((await request.post(`/sequences/${sequence}/next?count=3`)).status()).toBe(200);
		}
		type Stats = {
			workerIds: { workerId: number }[];
			sequences: { name: string; issued: string }[];
		};
		const reported = (stats: Stats) =>
			stats.workerIds.some((w) => w.workerId === 900) &&
			stats.sequences.some((s) => s.name === sequence && s.issued === "6");
		await expect
			.poll(async () => reported(await (await request.get("/stats")).json()), {
				timeout: 100_000,
				intervals: [2_000],
			})
			.toBe(true);

		// Acquired only now: unrenewed, the lease is free 32 s later (span and grace).
		const lease = await request.post("/leases", {
			data: { workerId: 1001, holder: "browser-pod" },
		});
		expect(lease.status()).toBe(201);
		await expect // the catalog hears of it in the background, just after the answer
			.poll(async () => JSON.stringify(await (await request.get("/leases")).json()))
			.toContain("browser-pod");
		await page.goto("/monitor");
		const workers = region(page, "Worker IDs");
		const row = workers
			.getByRole("row")
			.filter({ has: page.getByRole("rowheader", { name: "900", exact: true }) });
		await expect(row).toContainText("5,000");
		const leases = region(page, "Leases");
		await expect(leases.getByRole("row").filter({ hasText: "browser-pod" })).toContainText("held");
		await expect(leases).toContainText("30 s");
		const sequenceRow = region(page, "Sequences")
			.getByRole("row")
			.filter({ has: page.getByRole("rowheader", { name: sequence, exact: true }) });
		// Next, issued, requests, last issued, period (none without a reset).
		await expect(sequenceRow.getByRole("cell").nth(0)).toHaveText("1006");
		await expect(sequenceRow.getByRole("cell").nth(1)).toHaveText("6");
		await expect(sequenceRow.getByRole("cell").nth(2)).toHaveText("2");
		await expect(sequenceRow.getByRole("cell").nth(4)).toHaveText("—");
		await expect(region(page, "Overview")).toContainText("2080-07-10");
		await expect(page.getByRole("status")).toContainText("refreshes every 15 s");
		// The busiest worker ID is charted by default; another is one click away.
		await expect(page.getByLabel("Worker ID", { exact: true })).toHaveValue(/^[0-9]+$/);
		await page.getByLabel("Worker ID", { exact: true }).fill("900");
		const show = (form: string) =>
			page.getByRole("form", { name: form }).getByRole("button", { name: "Show" }).click();
		await show("Worker ID chart");
		await expect(region(page, "Worker ID 900, per minute")).toBeVisible();
		await expect(page.locator("#fleet-chart canvas")).toHaveCount(1);
		await expect(page.locator("#worker-chart canvas")).toHaveCount(1);
		// The busiest sequence is charted by default, any other by its name.
		await expect(page.getByLabel("Sequence", { exact: true })).not.toHaveValue("");
		await page.getByLabel("Sequence", { exact: true }).fill(sequence);
		await show("Sequence chart");
		const sequenceChart = region(page, `Sequence ${sequence}, per minute`);
		await expect(sequenceChart).toBeVisible();
		await expect(sequenceChart.locator("canvas")).toHaveCount(1);
		await expect(sequenceChart).toContainText("Numbers issued");
		type History = { name: string; history: { issued: number; requests: number }[] };
		const charted: History = await (await request.get(`/sequences/${sequence}/history`)).json();
		const sum = (key: "issued" | "requests") =>
			charted.history.reduce((n, minute) => n + minute[key], 0);
		expect([charted.name, sum("issued"), sum("requests")]).toEqual([sequence, 6, 2]);
		// Found by the start of its name, and charted from the result.
		await page.getByLabel("Names starting with").fill(sequence.slice(0, -2));
		await page.getByRole("form", { name: "Find sequences by name" }).getByRole("button").click();
		const found = region(page, "Sequences").getByRole("button", { name: sequence, exact: true });
		await found.click();
		await expect(page.getByLabel("Sequence", { exact: true })).toHaveValue(sequence);
		await expect(
			page.getByRole("navigation", { name: "Pages of worker IDs and sequences" }),
		).toContainText("Page 1");
		await page.getByRole("radio", { name: "Last day" }).check();
		await expect(page.getByRole("status")).toContainText("Updated");

		await page.screenshot({ path: join(SCREENSHOTS, "monitor-desktop.png"), fullPage: true });
		await page.setViewportSize({ width: 390, height: 844 });
		await page.reload();
		await expect(row).toContainText("5,000");
		const width = await page.evaluate(() => document.documentElement.scrollWidth);
		expect(width).toBeLessThanOrEqual(390); // tables scroll inside their cards, not the page
		await page.screenshot({ path: join(SCREENSHOTS, "monitor-phone.png"), fullPage: true });
	});
});

test.describe("service with API_TOKEN", () => {
	test.use({ server: "locked" });

	test("asks for the token, then shows the view (leases off there)", async ({
		page,
		allowFailedRequest,
	}) => {
		for (const path of ["/stats", "/leases", "/stats/history"]) allowFailedRequest(path);
		await page.goto("/monitor");
		await expect(region(page, "Authorization")).toContainText("needs a token");
		await page.getByLabel("API token").fill(API_TOKEN);
		await page.getByRole("button", { name: "Use token" }).click();
		await expect(region(page, "Leases")).toContainText("Leases are off");
		await expect(region(page, "Overview")).toContainText("years left");
		await expect(page.getByRole("status")).toContainText("Updated");
	});
});
