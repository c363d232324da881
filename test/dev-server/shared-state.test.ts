import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startWranglerDev } from "../../scripts/lib/wrangler-dev";
import type { ErrorBody } from "../../src/wire";

/**
 * Two dev servers on one state directory. `npm run dev` (scripts/dev/server.ts) holds a
 * lock on it, so a second one refuses to start; a bare `wrangler dev` does not ask,
 * and then each server runs a live instance of the same worker ID's object. Those
 * share the object's SQLite storage, which serializes their transactions: the
 * instance that started later took over, and the other one stops at its next mark.
 */
const state = mkdtempSync(join(tmpdir(), "edge-ids-shared-"));
let viaNpm: DevServer;
let bare: DevServer;
beforeAll(async () => {
	// One after the other: two workerd processes opening one new state directory at
	// once may find its files locked (SQLITE_BUSY) and exit.
	viaNpm = await startWranglerDev({ launcher: "scripts/dev/server.ts", persistTo: state });
	bare = await startWranglerDev({ persistTo: state });
});
afterAll(async () => {
	await Promise.all([viaNpm?.stop(), bare?.stop()]);
	rmSync(state, { recursive: true, force: true });
});

type Answer = { server: "npm" | "bare"; status: number; ids: string[]; message?: string };
async function ask(server: "npm" | "bare", count: number): Promise<Answer> {
	const { url } = server === "npm" ? viaNpm : bare;
	const response = await fetch(`${url}/snowflake/11?count=${count}`);
	const body = (await response.json()) as { ids?: string[] } & Partial<ErrorBody>;
	return { server, status: response.status, ids: body.ids ?? [], message: body.error?.message };
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("two dev servers on one state directory", () => {
	it("a second `npm run dev` refuses to start, saying why and how to run two", () => {
		const second = spawnSync(
			process.execPath,
			["node_modules/tsx/dist/cli.mjs", "scripts/dev/server.ts", "--persist-to", state],
			{ encoding: "utf8", timeout: 30_000 },
		);
		expect(second.status).toBe(1);
		expect(second.stderr).toContain("another dev server");
		expect(second.stderr).toContain(state);
		expect(second.stderr).toContain("could issue the same IDs");
		expect(second.stderr).toContain("--persist-to");
	});

	it("with a bare `wrangler dev` beside it, one instance issues and no ID is issued twice", async () => {
		const answers: Answer[] = [];
		// The npm server's instance starts; the bare server's starts later and takes over.
		answers.push(await ask("npm", 100), await ask("bare", 100));
		// Past the npm instance's lease (LEASE_MS, 1 s), its next ID needs a mark: it stops.
		await sleep(1_500);
		for (let i = 0; i < 10; i++) answers.push(await ask("npm", 100), await ask("bare", 100));
		const stopped = answers.filter((a) => a.server === "npm" && a.status === 503);
		expect(stopped.length).toBeGreaterThanOrEqual(10);
		expect(stopped[0]?.message).toContain("taken over by another live instance");
		expect(answers.filter((a) => a.server === "bare").every((a) => a.status === 200)).toBe(true);
		// Both at once, in the same ticks: whichever instance serves, IDs never repeat.
		for (let round = 0; round < 15; round++) {
			answers.push(
				...(await Promise.all([
					ask("npm", 1000),
					ask("bare", 1000),
					ask("npm", 1000),
					ask("bare", 1000),
				])),
			);
		}
		const ids = answers.flatMap((a) => a.ids);
		expect(ids.length).toBeGreaterThan(15_000);
		expect(new Set(ids).size).toBe(ids.length);
		for (const a of answers) expect([200, 503]).toContain(a.status);
	});
});
