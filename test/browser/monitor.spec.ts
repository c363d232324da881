/**
 * The monitor page (/monitor) against the real service: the fleet table once the
 * worker ID's object has pushed its minute (its alarm fires just past the minute's
 * end: this test waits for it), the sequences table once the sequence's object has
 * reported its counts (the same way), the leases table, the charts (the fleet, a
 * worker ID, a sequence), the layout's end, the auto route's worker IDs marked and
 * explained; screenshots at desktop and phone widths, where wide tables scroll inside
 * their cards and say so; the token asked for where API_TOKEN is set; leases off
 * (there) told without asking a lease route, on (the open one) listed, neither with a
 * console error; and the playground's link here.
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
		// The auto route: its isolate's pool takes a block, more than these 300.
		expect((await request.get("/snowflake?count=300")).status()).toBe(200);
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
			stats.workerIds.some((w) => w.workerId < 32) && // AUTO_WORKER_IDS: 0-31
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
		await expect(row.getByText("auto", { exact: true })).toHaveCount(0);
		const autoRow = workers
			.getByRole("row")
			.filter({ has: page.getByText("auto", { exact: true }) });
		await expect(autoRow.first()).toBeVisible();
		await expect(workers).toContainText("takes its IDs in blocks for a pool");
		const leases = region(page, "Leases");
		await expect(leases.getByRole("row").filter({ hasText: "browser-pod" })).toContainText("held");
		await expect(leases).toContainText("30 s");
		const sequenceRow = region(page, "Sequences")
			.getByRole("row")
			.filter({ has: page.getByRole("rowheader", { name: sequence, exact: true }) });
		// Next, issued, requests, last issued, period (none without a reset).
		await expect(sequenceRow.getByRole("cell").nth(0)).toHaveText("1,006"); // grouped as Issued is
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
		// The right axis ("calls / min") draws requests, besides waits and refusals.
		await expect(region(page, "The fleet, per minute")).toContainText("Requests");
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
		await expect(workers.getByText("Scroll sideways for more columns")).toBeVisible();
		await page.screenshot({ path: join(SCREENSHOTS, "monitor-phone.png"), fullPage: true });
	});
});

test.describe("open service, quickly", () => {
	test("lists the leases (on here) with no console error", async ({ page }) => {
		const asked: string[] = [];
		page.on("request", (r) => asked.push(new URL(r.url()).pathname));
		await page.goto("/monitor");
		await expect(page.getByRole("status")).toContainText("Updated");
		expect(asked).toContain("/leases");
		await expect(region(page, "Leases")).not.toContainText("Leases are off");
	});

	test("on a phone, a wide table scrolls inside its card and says so", async ({
		page,
		request,
	}) => {
		const sequence = `phone-${Date.now()}`;
		expect((await request.put(`/sequences/${sequence}`)).status()).toBe(201); // listed at once
		await page.setViewportSize({ width: 390, height: 844 });
		await page.goto("/monitor");
		const sequences = region(page, "Sequences");
		await expect(sequences.getByRole("table")).toBeVisible();
		await expect(sequences.getByText("Scroll sideways for more columns")).toBeVisible();
		const scroller = sequences.locator(".table-scroll");
		const sizes = await scroller.evaluate((box) => ({
			overflowX: getComputedStyle(box).overflowX,
			scrollWidth: box.scrollWidth,
			clientWidth: box.clientWidth,
		}));
		expect(sizes.overflowX).toBe("auto");
		expect(sizes.scrollWidth).toBeGreaterThan(sizes.clientWidth);
		await scroller.evaluate((box) => box.scrollBy({ left: 200 }));
		await expect.poll(() => scroller.evaluate((box) => box.scrollLeft)).toBeGreaterThan(0);
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
			390,
		);
		// Wide enough: no hint.
		await page.setViewportSize({ width: 1280, height: 800 });
		await expect(sequences.getByText("Scroll sideways for more columns")).toBeHidden();
	});

	test("the playground links here", async ({ page }) => {
		await page.goto("/");
		await page.getByRole("link", { name: "Monitor" }).click();
		await expect(page).toHaveURL(/\/monitor$/);
		await expect(page.getByRole("heading", { level: 1 })).toContainText("monitor");
	});
});

test.describe("service with API_TOKEN", () => {
	test.use({ server: "locked" });

	test("says leases are off without asking a lease route: no failed request, no console error", async ({
		page,
	}) => {
		await page.addInitScript(
			(token) => sessionStorage.setItem("edge-ids.apiToken", token),
			API_TOKEN,
		);
		const asked: string[] = [];
		page.on("request", (r) => asked.push(new URL(r.url()).pathname));
		await page.goto("/monitor");
		await expect(page.getByRole("status")).toContainText("Updated");
		await expect(region(page, "Leases")).toContainText("Leases are off on this deployment");
		expect(asked).toContain("/regions");
		expect(asked).not.toContain("/leases");
	});

	test("asks for the token, then shows the view (leases off there)", async ({
		page,
		allowFailedRequest,
	}) => {
		// Before the token, the first call is refused (401); with it, no lease route is asked.
		allowFailedRequest("/regions");
		await page.goto("/monitor");
		await expect(region(page, "Authorization")).toContainText("needs a token");
		await page.getByLabel("API token").fill(API_TOKEN);
		await page.getByRole("button", { name: "Use token" }).click();
		await expect(region(page, "Leases")).toContainText("Leases are off");
		await expect(region(page, "Overview")).toContainText("years left");
		await expect(page.getByRole("status")).toContainText("Updated");
	});
});
