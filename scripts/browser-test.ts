/**
 * The playground page in a real browser: starts `wrangler dev` (twice: open, and
 * with an API token), drives Debian's Chromium with playwright-core, and saves
 * screenshots to test-artifacts/. Run with `npm run test:browser`; needs
 * /usr/bin/chromium (`apt-get install -y chromium`). Exits non-zero on failure.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { freePort } from "./lib/ports";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ARTIFACTS = join(ROOT, "test-artifacts");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const TOKEN = "browser-test-token";
const STARTUP_TIMEOUT_MS = 90_000;
const OVERALL_TIMEOUT_MS = 240_000;

const SNOWFLAKE = /^[0-9]{1,19}$/;
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
const UUIDV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

// ---- wrangler dev ----------------------------------------------------------

interface Server {
	url: string;
	child: ChildProcess;
	output: string[];
	persistDir: string;
}
const servers: Server[] = [];

async function startWrangler(extraArgs: string[] = []): Promise<Server> {
	const port = await freePort();
	const inspectorPort = await freePort();
	// Its own state directory: never touches .wrangler/state or another run's objects.
	const persistDir = mkdtempSync(join(tmpdir(), "edge-ids-browser-"));
	const args = [
		"wrangler",
		"dev",
		"--port",
		String(port),
		"--ip",
		"127.0.0.1",
		"--inspector-port",
		String(inspectorPort),
		"--log-level",
		"warn",
		"--persist-to",
		persistDir,
		"--show-interactive-dev-session=false",
		...extraArgs,
	];
	const child = spawn("npx", args, {
		cwd: ROOT,
		detached: true, // its own process group, so the whole tree can be stopped
		stdio: ["ignore", "pipe", "pipe"],
		env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
	});
	const server: Server = { url: `http://127.0.0.1:${port}`, child, output: [], persistDir };
	servers.push(server);
	const keep = (chunk: Buffer) => {
		server.output.push(...chunk.toString().split("\n").filter(Boolean));
		if (server.output.length > 200) server.output.splice(0, server.output.length - 200);
	};
	child.stdout?.on("data", keep);
	child.stderr?.on("data", keep);

	const deadline = Date.now() + STARTUP_TIMEOUT_MS;
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null) {
			throw new Error(`wrangler dev exited early:\n${server.output.join("\n")}`);
		}
		try {
			const response = await fetch(`${server.url}/health`);
			if (response.ok) return server;
		} catch {
			// not listening yet
		}
		await sleep(250);
	}
	throw new Error(
		`wrangler dev did not answer within ${STARTUP_TIMEOUT_MS} ms:\n${server.output.join("\n")}`,
	);
}

function killGroup(server: Server, signal: NodeJS.Signals): void {
	const pid = server.child.pid;
	if (pid === undefined) return;
	try {
		process.kill(-pid, signal);
	} catch {
		// already gone
	}
}

async function stopAll(): Promise<void> {
	for (const server of servers) killGroup(server, "SIGTERM");
	const deadline = Date.now() + 5_000;
	for (const server of servers) {
		while (server.child.exitCode === null && server.child.signalCode === null) {
			if (Date.now() > deadline) break;
			await sleep(100);
		}
		killGroup(server, "SIGKILL"); // the group may outlive its leader
		rmSync(server.persistDir, { recursive: true, force: true });
	}
	servers.length = 0;
}

// Last resort if the script dies without reaching its own cleanup.
process.on("exit", () => {
	for (const server of servers) killGroup(server, "SIGKILL");
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
	process.on(signal, () => {
		for (const server of servers) killGroup(server, "SIGKILL");
		process.exit(130);
	});
}

// ---- a tiny test runner ----------------------------------------------------

let passed = 0;
let failed = 0;

async function test(name: string, body: () => Promise<void>): Promise<void> {
	try {
		await body();
		passed++;
		console.log(`  ok   ${name}`);
	} catch (error) {
		failed++;
		const message = error instanceof Error ? error.message : String(error);
		console.log(`  FAIL ${name}\n       ${message.split("\n").join("\n       ")}`);
	}
}

function assert(condition: unknown, message: string): asserts condition {
	if (!condition) throw new Error(message);
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

// ---- the page --------------------------------------------------------------

interface ConsoleWatch {
	errors: string[];
	/** Failed responses the test causes on purpose (e.g. a 400 for a bad ID) are not errors. */
	expect(urlPart: string): void;
}

function watchConsole(page: Page): ConsoleWatch {
	const expected: string[] = [];
	const errors: string[] = [];
	page.on("console", (message) => {
		if (message.type() !== "error") return;
		const url = message.location().url ?? "";
		const text = message.text();
		if (text.startsWith("Failed to load resource") && expected.some((part) => url.includes(part))) {
			return;
		}
		errors.push(`${text}${url ? ` (${url})` : ""}`);
	});
	page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
	return { errors, expect: (part) => expected.push(part) };
}

async function openPage(
	context: BrowserContext,
	url: string,
): Promise<{ page: Page; console: ConsoleWatch }> {
	const page = await context.newPage();
	const console = watchConsole(page);
	await page.goto(url);
	return { page, console };
}

async function generate(page: Page, kind: string, count: number, workerId = ""): Promise<string[]> {
	await page.getByRole("radio", { name: kind }).check();
	if (kind === "Snowflake") await page.getByLabel("Worker ID").fill(workerId);
	await page.getByLabel("Count").fill(String(count));
	await page.getByRole("button", { name: "Generate", exact: true }).click();
	await page
		.locator("#gen-status")
		.filter({ hasText: `${count} ${kind} ID` })
		.waitFor();
	return page.locator("#ids button.id").allTextContents();
}

async function decode(page: Page, id: string): Promise<void> {
	const input = page.getByLabel("Snowflake, ULID or UUID");
	await input.fill(id);
	await input.press("Enter"); // the keyboard path
	await page.locator("#decoded-id").filter({ hasText: id }).waitFor();
}

async function text(page: Page, selector: string): Promise<string> {
	return (await page.locator(selector).first().textContent()) ?? "";
}

async function bitString(page: Page): Promise<string> {
	return (await page.locator("#bits .bit").allTextContents()).join("");
}

async function noHorizontalScroll(page: Page): Promise<void> {
	const overflow = await page.evaluate<number>(
		"document.documentElement.scrollWidth - document.documentElement.clientWidth",
	);
	assert(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
}

async function openSuite(browser: Browser, base: string): Promise<void> {
	const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
	await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
	const { page, console: watch } = await openPage(context, `${base}/`);

	await test("shows the active layout and its exhaustion date", async () => {
		await page.locator('#layout-output [data-field="exhaustsAt"]').waitFor();
		const layout = await text(page, "#layout-output");
		assert(layout.includes("2080-07-10T17:30:30.209Z"), `layout says: ${layout}`);
		assert(layout.includes("41 time") && layout.includes("12 sequence"), `layout says: ${layout}`);
		assert(layout.includes("0–1023"), `layout says: ${layout}`);
		assert(/in \d+ years/.test(layout), `no relative exhaustion date in: ${layout}`);
	});

	await test("generates Snowflakes from an automatic worker ID", async () => {
		const ids = await generate(page, "Snowflake", 5);
		assert(ids.length === 5, `expected 5 IDs, got ${ids.length}`);
		assert(
			ids.every((id) => SNOWFLAKE.test(id)),
			`not Snowflakes: ${ids.join(", ")}`,
		);
		for (let i = 1; i < ids.length; i++) {
			assert(BigInt(ids[i] ?? 0) > BigInt(ids[i - 1] ?? 0), `not increasing: ${ids.join(", ")}`);
		}
		const status = await text(page, "#gen-status");
		assert(/from worker ID \d+/.test(status), `status: ${status}`);
	});

	await test("generates Snowflakes from a chosen worker ID", async () => {
		const ids = await generate(page, "Snowflake", 3, "7");
		assert(ids.length === 3, `expected 3 IDs, got ${ids.length}`);
		for (const id of ids) {
			assert(SNOWFLAKE.test(id), `not a Snowflake: ${id}`);
			assert(((BigInt(id) >> 12n) & 1023n) === 7n, `${id} is not from worker 7`);
		}
	});

	await test("generates ULIDs", async () => {
		const ids = await generate(page, "ULID", 4);
		assert(ids.length === 4, `expected 4 IDs, got ${ids.length}`);
		assert(
			ids.every((id) => ULID.test(id)),
			`not ULIDs: ${ids.join(", ")}`,
		);
		const worker = page.getByLabel("Worker ID");
		assert(await worker.isDisabled(), "the worker ID field should be disabled for ULIDs");
	});

	await test("generates UUIDv7s, up to 1000 at once", async () => {
		const ids = await generate(page, "UUIDv7", 1000);
		assert(ids.length === 1000, `expected 1000 IDs, got ${ids.length}`);
		assert(
			ids.every((id) => UUIDV7.test(id)),
			`not UUIDv7s: ${ids.find((id) => !UUIDV7.test(id))}`,
		);
		assert(new Set(ids).size === 1000, "duplicate UUIDv7s");
	});

	await test("refuses a count over 1000 before calling the API", async () => {
		await page.getByLabel("Count").fill("1001");
		await page.getByRole("button", { name: "Generate", exact: true }).click();
		const error = await text(page, "#gen-output .error");
		assert(error.includes("1 to 1000"), `error: ${error}`);
	});

	await test("shows an API error readably (worker ID out of range)", async () => {
		watch.expect("/snowflake/5000");
		await page.getByRole("radio", { name: "Snowflake" }).check();
		await page.getByLabel("Worker ID").fill("5000");
		await page.getByLabel("Count").fill("1");
		await page.getByRole("button", { name: "Generate", exact: true }).click();
		await page.locator("#gen-output .error").waitFor();
		const error = await text(page, "#gen-output .error");
		assert(error.includes("Invalid worker id"), `error: ${error}`);
		assert(error.includes("invalid_worker_id, HTTP 400"), `error: ${error}`);
		assert(error.includes("1023"), `error does not carry the API's message: ${error}`);
		await page.getByLabel("Worker ID").fill("");
	});

	await test("decodes 910499571847892992: time, datacenter 17, machine 25, 64 bits", async () => {
		await decode(page, "910499571847892992");
		const result = await text(page, "#decode-output");
		assert(result.includes("1505914988849"), "no timestamp 1505914988849");
		assert(result.includes("2017-09-20T13:43:08.849Z"), "no time 2017-09-20T13:43:08.849Z");
		assert(/\(\d+ years ago\)/.test(result), "no relative time");
		assert((await text(page, '[data-field="datacenterId"]')) === "17", "datacenter is not 17");
		assert((await text(page, '[data-field="machineId"]')) === "25", "machine is not 25");
		assert((await text(page, '[data-field="workerId"]')) === "569", "worker is not 569");
		assert((await text(page, '[data-segment="datacenter"] .value')) === "17", "segment: dc");
		assert((await text(page, '[data-segment="machine"] .value')) === "25", "segment: machine");
		const bits = await bitString(page);
		assert(bits.length === 64, `expected 64 bit cells, got ${bits.length}`);
		assert(bits === 910499571847892992n.toString(2).padStart(64, "0"), `the cells spell ${bits}`);
		for (const [field, width] of [
			["sign", 1],
			["time", 41],
			["datacenter", 5],
			["machine", 5],
			["sequence", 12],
		] as const) {
			const cells = await page.locator(`#bits .bit.f-${field}`).count();
			assert(cells === width, `${field} has ${cells} cells, expected ${width}`);
		}
		const status = await text(page, "#decode-status");
		assert(status.includes("Snowflake"), `live status: ${status}`);
	});

	await test("clicking a generated ULID decodes it into 128 bits", async () => {
		const [id] = await generate(page, "ULID", 2);
		assert(id, "no ULID");
		await page.locator("#ids button.id").first().click();
		await page.locator("#decoded-id").filter({ hasText: id }).waitFor();
		assert((await text(page, '[data-field="type"]')) === "ULID", "kind is not ULID");
		const bits = await page.locator("#bits .bit").count();
		assert(bits === 128, `expected 128 bit cells, got ${bits}`);
		assert((await page.locator("#bits .bit.f-time").count()) === 48, "time is not 48 bits");
		assert((await page.locator("#bits .bit.f-random").count()) === 80, "random is not 80 bits");
		assert(
			(await page.getByLabel("Snowflake, ULID or UUID").inputValue()) === id,
			"the decode field does not hold the clicked ID",
		);
	});

	await test("decodes a UUIDv7: time, version, counter, variant, random", async () => {
		await decode(page, "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
		const result = await text(page, "#decode-output");
		assert(result.includes("2022-02-22T19:22:22.000Z"), `no RFC 9562 example time in ${result}`);
		assert((await page.locator("#bits .bit").count()) === 128, "not 128 cells");
		for (const [field, width] of [
			["time", 48],
			["version", 4],
			["counter", 42],
			["variant", 2],
			["random", 32],
		] as const) {
			const cells = await page.locator(`#bits .bit.f-${field}`).count();
			assert(cells === width, `${field} has ${cells} cells, expected ${width}`);
		}
		assert((await text(page, '[data-segment="version"] .value')) === "7", "version is not 7");
	});

	await test("shows a bad ID's error readably", async () => {
		watch.expect("/decode/not-an-id");
		const input = page.getByLabel("Snowflake, ULID or UUID");
		await input.fill("not-an-id");
		await input.press("Enter");
		await page.locator("#decode-output .error").waitFor();
		const error = await text(page, "#decode-output .error");
		assert(error.startsWith("Invalid id"), `error: ${error}`);
		assert(error.includes("1-19 decimal digits"), `error: ${error}`);
	});

	await test("copies an ID to the clipboard", async () => {
		const [id] = await generate(page, "Snowflake", 1);
		await page.locator("#ids button.copy").first().click();
		await page.locator("#gen-status").filter({ hasText: "Copied" }).waitFor();
		const copied = await page.evaluate<string>("navigator.clipboard.readText()");
		assert(copied === id, `clipboard holds ${JSON.stringify(copied)}, expected ${id}`);
	});

	await test("keyboard focus is visible", async () => {
		await page.getByLabel("Count").focus();
		await page.keyboard.press("Tab");
		const outline = await page.evaluate<string>(
			"(() => { const s = getComputedStyle(document.activeElement); return s.outlineStyle + ' ' + s.outlineWidth; })()",
		);
		assert(outline.startsWith("solid") && outline !== "solid 0px", `focus outline: ${outline}`);
	});

	await test("desktop screenshot (1280x800), no sideways scroll", async () => {
		await decode(page, "910499571847892992");
		await page.evaluate("window.scrollTo(0, 0)");
		await noHorizontalScroll(page);
		await page.screenshot({ path: join(ARTIFACTS, "playground-desktop.png"), fullPage: true });
		await page.screenshot({ path: join(ARTIFACTS, "playground-desktop-viewport.png") });
	});

	await test("phone width (390x844): usable, no sideways scroll, screenshots", async () => {
		await page.setViewportSize({ width: 390, height: 844 });
		await generate(page, "Snowflake", 3);
		await decode(page, "910499571847892992");
		await noHorizontalScroll(page);
		await page.screenshot({ path: join(ARTIFACTS, "playground-phone.png"), fullPage: true });
		await decode(page, "01ARYZ6S41TSV4RRFFQ69G5FAV");
		await noHorizontalScroll(page);
		await page
			.locator("#decode")
			.screenshot({ path: join(ARTIFACTS, "playground-phone-ulid.png") });
	});

	await test("dark colour scheme screenshot", async () => {
		await page.setViewportSize({ width: 1280, height: 800 });
		await page.emulateMedia({ colorScheme: "dark" });
		await decode(page, "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
		await page.evaluate("window.scrollTo(0, 0)");
		await page.screenshot({ path: join(ARTIFACTS, "playground-desktop-dark.png"), fullPage: true });
		await page.emulateMedia({ colorScheme: "light" });
	});

	await test("no console errors", async () => {
		assert(watch.errors.length === 0, watch.errors.join("\n"));
	});
	await context.close();
}

async function tokenSuite(browser: Browser, base: string): Promise<void> {
	const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
	const { page, console: watch } = await openPage(context, `${base}/`);
	// Every call before the token is given is a 401 on purpose.
	watch.expect(`${base}/layout`);
	watch.expect(`${base}/snowflake`);

	await test("with API_TOKEN: the page is public and asks for the token", async () => {
		await page.locator("#auth-form").waitFor();
		const message = await text(page, "#auth-message");
		assert(message.includes("needs a token"), `auth message: ${message}`);
		const layout = await text(page, "#layout-output");
		assert(layout.includes("(unauthorized, HTTP 401)"), `layout shows: ${layout}`);
		const focused = await page.evaluate<string>(
			"document.activeElement && document.activeElement.id",
		);
		assert(focused === "token", `focus is on ${focused}, not the token field`);
		await page.screenshot({ path: join(ARTIFACTS, "playground-token.png") });
	});

	await test("with API_TOKEN: a wrong token is refused, the right one is used", async () => {
		await page.getByLabel("API token").fill("wrong");
		await page.getByRole("button", { name: "Use token" }).click();
		await page.locator("#auth-message").filter({ hasText: "did not accept" }).waitFor();
		await page.getByLabel("API token").fill(TOKEN);
		await page.getByRole("button", { name: "Use token" }).click();
		await page.locator('#layout-output [data-field="exhaustsAt"]').waitFor();
		assert(await page.locator("#auth-saved").isVisible(), "no 'token saved' line");
		const ids = await generate(page, "UUIDv7", 2);
		assert(ids.length === 2 && ids.every((id) => UUIDV7.test(id)), `ids: ${ids.join(", ")}`);
	});

	await test("with API_TOKEN: the token survives a reload (sessionStorage), and can be forgotten", async () => {
		await page.reload();
		await page.locator('#layout-output [data-field="exhaustsAt"]').waitFor();
		assert(await page.locator("#auth-form").isHidden(), "asked for the token again");
		await page.getByRole("button", { name: "Forget token" }).click();
		await page.locator("#auth-form").waitFor();
	});

	await test("with API_TOKEN: no console errors besides the expected 401s", async () => {
		assert(watch.errors.length === 0, watch.errors.join("\n"));
	});
	await context.close();
}

async function main(): Promise<void> {
	mkdirSync(ARTIFACTS, { recursive: true });
	let browser: Browser | undefined;
	try {
		const [open, locked] = await Promise.all([
			startWrangler(),
			startWrangler(["--var", `API_TOKEN:${TOKEN}`]),
		]);
		browser = await chromium.launch({
			executablePath: CHROMIUM,
			args: [
				"--headless",
				"--no-sandbox",
				"--disable-gpu",
				"--disable-quic",
				"--no-first-run",
				"--disable-background-networking",
				"--disable-component-update",
				"--disable-sync",
			],
		});
		await openSuite(browser, open.url);
		await tokenSuite(browser, locked.url);
	} catch (error) {
		failed++;
		console.log(`  FAIL setup: ${error instanceof Error ? error.message : String(error)}`);
	} finally {
		await browser?.close().catch(() => {});
		await stopAll();
	}
	console.log(`browser: ${passed} passed, ${failed} failed (screenshots in test-artifacts/)`);
	process.exitCode = failed === 0 ? 0 : 1;
}

const watchdog = setTimeout(() => {
	console.log(`browser: gave up after ${OVERALL_TIMEOUT_MS} ms`);
	for (const server of servers) killGroup(server, "SIGKILL");
	process.exit(1);
}, OVERALL_TIMEOUT_MS);
watchdog.unref();

await main();
