/**
 * docs/MIGRATING.md, run: its SQL on real tables (node:sqlite, shaped as Leaf's
 * `leaf_alloc` and Tinyid's `tiny_id_info`), its shell loops (bash and curl) against the
 * real bundle in Miniflare, and its wrangler vars as the service's config. Each recipe's
 * promise is then checked: numbers above every old one, a biz_tag that is no name moved
 * under the doc's mapping, the way back to Leaf; Leaf's, UidGenerator's and
 * MyBatis-Plus's IDs read by the layout the doc gives, and new IDs above the last old one.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeBlocks, onlyBlock, repo } from "../docs/doc-snippets";
import { startServiceAndConsumer } from "./setup";

const blocks = codeBlocks(readFileSync(join(repo, "docs/MIGRATING.md"), "utf8"));
const LEAF_EXPORT = onlyBlock(blocks, "Export the rows", "sql");
const LOOP = onlyBlock(blocks, "Create and advance each sequence", "bash");
const BACK = onlyBlock(blocks, "Going back to Leaf", "bash");
const TINYID_EXPORT = onlyBlock(blocks, "From Tinyid", "sql");
const LEAF_SNOWFLAKE_VARS = tomlVars(onlyBlock(blocks, "From Leaf snowflake", "toml"));
const UID_VARS = tomlVars(onlyBlock(blocks, "From UidGenerator", "toml"));

const TOKEN = "migrating-test-secret";

/** A `[vars]` block's `NAME = "value"` lines. */
function tomlVars(toml: string): Record<string, string> {
	const vars: Record<string, string> = {};
	for (const [, name, value] of toml.matchAll(/^(\w+) = "([^"]*)"$/gm)) {
		vars[name as string] = value as string;
	}
	return vars;
}

let dir = "";
const services: Miniflare[] = [];

async function service(vars: Record<string, string>) {
	const { mf, url } = await startServiceAndConsumer({ apiToken: TOKEN, vars });
	services.push(mf);
	const get = async (path: string, init: RequestInit = {}) => {
		const headers = { Authorization: `Bearer ${TOKEN}`, ...init.headers };
		return fetch(new URL(path, url), { ...init, headers });
	};
	return { url: url.href.replace(/\/$/, ""), get };
}

/** Runs a doc's shell block in the test's directory, as a user would in theirs. */
function bash(script: string, env: Record<string, string>): void {
	execFileSync("bash", ["-c", script], {
		cwd: dir,
		env: { ...process.env, ...env },
		stdio: ["ignore", "pipe", "pipe"],
	});
}

/** A query's rows as `mysql -N -B` prints them: tab-separated, one a line. */
function exportRows(db: DatabaseSync, sql: string, file: string): void {
	const statement = db.prepare(sql);
	statement.setReadBigInts(true);
	const rows = statement.all() as Record<string, unknown>[];
	writeFileSync(join(dir, file), rows.map((row) => `${Object.values(row).join("\t")}\n`).join(""));
}

const tsv = (file: string) =>
	readFileSync(join(dir, file), "utf8")
		.trimEnd()
		.split("\n")
		.map((line) => line.split("\t"));

const sha16 = (text: string) =>
	createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);

beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), "edge-ids-migrating-"));
});

afterAll(async () => {
	for (const mf of services) await mf.dispose();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("docs/MIGRATING.md: Leaf segment", () => {
	const BIG = 9_007_199_254_740_993n; // above 2^53: every digit must survive
	const ROWS: [string, bigint, number][] = [
		["leaf-segment-test", 2001n, 2000],
		["orders.eu", BIG, 1000],
		["订单", 1500n, 500],
		["order:refund's", 30001n, 1000],
	];

	it("moves every leaf_alloc row above its max_id, maps tags that are no names, and goes back", async () => {
		const ids = await service(LEAF_SNOWFLAKE_VARS);
		const leaf = new DatabaseSync(":memory:");
		leaf.exec(`CREATE TABLE leaf_alloc (
			biz_tag VARCHAR(128) NOT NULL PRIMARY KEY, max_id BIGINT NOT NULL DEFAULT 1,
			step INT NOT NULL, description VARCHAR(256), update_time TIMESTAMP DEFAULT CURRENT_TIMESTAMP)`);
		const insert = leaf.prepare("INSERT INTO leaf_alloc (biz_tag, max_id, step) VALUES (?, ?, ?)");
		for (const row of ROWS) insert.run(...row);

		exportRows(leaf, LEAF_EXPORT, "rows.tsv");
		const env = { EDGE_IDS: ids.url, IDS_TOKEN: TOKEN };
		bash(LOOP, env);
		const moved = tsv("moved.tsv");
		const nameOf = (tag: string) => moved.find(([t]) => t === tag)?.[1] as string;
		expect(moved.map(([tag]) => tag).sort()).toEqual(ROWS.map(([tag]) => tag).sort());
		expect(nameOf("orders.eu")).toBe("orders.eu");
		expect(nameOf("订单")).toBe(`leaf-${sha16("订单")}`);
		expect(nameOf("订单")).toBe("leaf-3d5436ea23d2e9a2"); // the doc's example
		expect(nameOf("order:refund's")).toBe(`leaf-${sha16("order:refund's")}`);

		// Leaf issued only numbers below max_id; edge-ids goes on from max_id itself.
		const segment = async (name: string) => {
			const answer = await ids.get(`/api/segment/get/${name}`);
			expect(answer.status).toBe(200);
			return BigInt(await answer.text());
		};
		for (const [tag, maxId] of ROWS) expect(await segment(nameOf(tag))).toBe(maxId);
		// Run again (it is safe to): nothing moves back.
		bash(LOOP, env);
		for (const [tag, maxId] of ROWS) expect(await segment(nameOf(tag))).toBe(maxId + 1n);
		const refused = await ids.get(`/api/segment/get/${encodeURIComponent("订单")}`);
		expect(refused.status).toBe(400);
		expect(await refused.text()).toContain("docs/MIGRATING.md");

		// Back to Leaf: each row's max_id is its sequence's next; Leaf's next segment starts there.
		bash(BACK, env);
		leaf.exec(readFileSync(join(dir, "back.sql"), "utf8"));
		const read = leaf.prepare("SELECT max_id FROM leaf_alloc WHERE biz_tag = ?");
		read.setReadBigInts(true);
		for (const [tag, maxId] of ROWS) {
			const row = read.get(tag) as { max_id: bigint };
			expect(row.max_id).toBe(maxId + 2n);
			const status = await ids.get(`/sequences/${nameOf(tag)}`);
			expect(((await status.json()) as { next: string }).next).toBe(`${row.max_id}`);
			// Leaf's next fetch raises max_id by step and hands out [old max_id, new max_id):
			// its first number is above the last edge-ids issued (maxId + 1).
			expect(row.max_id > maxId + 1n).toBe(true);
		}
	});
});

describe("docs/MIGRATING.md: Tinyid", () => {
	it("moves each biz_type above the largest max_id of its rows, here into pooled sequences", async () => {
		const ids = await service({});
		const tinyid = new DatabaseSync(":memory:");
		tinyid.exec(`CREATE TABLE tiny_id_info (id INTEGER PRIMARY KEY, biz_type VARCHAR(63) NOT NULL,
			begin_id BIGINT, max_id BIGINT, step INT, delta INT, remainder INT)`);
		const insert = tinyid.prepare(
			"INSERT INTO tiny_id_info (biz_type, begin_id, max_id, step, delta, remainder) VALUES (?, 1, ?, 100, 2, ?)",
		);
		// Two databases share "tinyid-orders" (delta 2, remainders 0 and 1).
		insert.run("tinyid-orders", 5000, 0);
		insert.run("tinyid-orders", 5100, 1);
		insert.run("tinyid-users", 77, 0);
		exportRows(tinyid, TINYID_EXPORT, "rows.tsv");
		bash(LOOP, { EDGE_IDS: ids.url, IDS_TOKEN: TOKEN, SEQUENCE_MODE: "pooled" });
		for (const [name, first] of [
			["tinyid-orders", "5101"],
			["tinyid-users", "78"],
		]) {
			const answer = await ids.get(`/api/segment/get/${name}`, { method: "POST" });
			expect(await answer.text()).toBe(first);
			const status = await ids.get(`/sequences/${name}`);
			expect(((await status.json()) as { settings: { mode: string } }).settings.mode).toBe(
				"pooled",
			);
		}
	});
});

/** A Snowflake of a layout: time, worker and sequence fields, top to bottom. */
function snowflake(
	tick: bigint,
	workerId: bigint,
	sequence: bigint,
	workerBits: number,
	sequenceBits: number,
) {
	return (
		(tick << BigInt(workerBits + sequenceBits)) | (workerId << BigInt(sequenceBits)) | sequence
	);
}

describe("docs/MIGRATING.md: Leaf snowflake and MyBatis-Plus", () => {
	const LEAF_EPOCH = 1288834974657n;

	it("keeps Leaf's layout, reads its IDs, and issues under worker IDs ZooKeeper never handed out", async () => {
		const ids = await service(LEAF_SNOWFLAKE_VARS);
		const layout = (await (await ids.get("/layout")).json()) as Record<string, number>;
		expect(layout).toMatchObject({
			epoch: 1288834974657,
			timeBits: 41,
			workerBits: 10,
			sequenceBits: 12,
		});
		// An ID as Leaf's SnowflakeIDGenImpl builds it (worker 37, the doc's last ZooKeeper ID).
		const now = BigInt(Date.now());
		const leafId = snowflake(now - LEAF_EPOCH, 37n, 5n, 10, 12);
		const decoded = await (await ids.get(`/decodeSnowflakeId?snowflakeId=${leafId}`)).json();
		expect(decoded).toMatchObject({ workerId: "37", sequenceId: "5" });
		expect((decoded as { timestamp: string }).timestamp.startsWith(`${now}(`)).toBe(true);
		for (let i = 0; i < 5; i++) {
			const id = await (await ids.get("/api/snowflake/get/any")).text();
			const { workerId } = (await (await ids.get(`/decode/${id}`)).json()) as { workerId: number };
			expect(workerId).toBeGreaterThanOrEqual(64);
			expect(workerId).toBeLessThanOrEqual(95);
			expect(BigInt(id) > leafId).toBe(true);
		}
		const lease = await ids.get("/leases", {
			method: "POST",
			headers: { "Content-Type": "application/json" },
			body: JSON.stringify({ holder: "migrating-test" }),
		});
		expect(lease.status).toBe(201);
		const { workerId } = (await lease.json()) as { workerId: number };
		expect(workerId).toBeGreaterThanOrEqual(512);
		// MyBatis-Plus's Sequence: datacenter 17 and worker 25 are edge-ids' worker ID 17 × 32 + 25.
		const mybatis = snowflake(now - LEAF_EPOCH, (17n << 5n) | 25n, 9n, 10, 12);
		const parts = await (await ids.get(`/decode/${mybatis}`)).json();
		expect(parts).toMatchObject({ workerId: 569, datacenterId: 17, machineId: 25, sequence: 9 });
	});
});

describe("docs/MIGRATING.md: UidGenerator", () => {
	const EPOCH_S = 1474300800n; // 2016-09-20 in UTC+8, the doc's SNOWFLAKE_EPOCH

	it("reads UidGenerator's IDs by the doc's vars, and issues above the last one, borrowed seconds included", async () => {
		const ids = await service(UID_VARS);
		const layout = (await (await ids.get("/layout")).json()) as Record<string, number>;
		expect(layout).toMatchObject({
			epoch: 1474300800000,
			timeBits: 29,
			workerBits: 21,
			sequenceBits: 13,
			timeUnitMs: 1000,
		});
		// An ID as UidGenerator builds it: seconds since epochStr, WORKER_NODE's ID, the sequence.
		const nowS = BigInt(Math.floor(Date.now() / 1000));
		const uid = snowflake(nowS - EPOCH_S, 4317n, 42n, 21, 13);
		const decoded = (await (await ids.get(`/decode/${uid}`)).json()) as Record<string, number>;
		expect(decoded).toMatchObject({
			workerId: 4317,
			sequence: 42,
			timestamp: Number(nowS * 1000n),
		});
		// The last ID CachedUidGenerator issued ran a second ahead of the clock.
		const last = snowflake(nowS + 1n - EPOCH_S, 4317n, 8191n, 21, 13);
		const { timestamp } = (await (await ids.get(`/decode/${last}`)).json()) as {
			timestamp: number;
		};
		while (Date.now() <= timestamp + 1000) await new Promise((done) => setTimeout(done, 100));
		const answer = (await (await ids.get("/snowflake?count=3")).json()) as {
			workerId: number;
			ids: string[];
		};
		expect(answer.workerId).toBeGreaterThanOrEqual(100_000);
		for (const id of answer.ids) expect(BigInt(id) > last).toBe(true);
	}, 20_000);

	it("refuses the default 28/22/13 layout, which ran out on 2024-11-20", async () => {
		const ids = await service({
			SNOWFLAKE_EPOCH: "1463673600000", // 2016-05-20 in UTC+8
			SNOWFLAKE_TIME_BITS: "28",
			SNOWFLAKE_WORKER_BITS: "22",
			SNOWFLAKE_SEQUENCE_BITS: "13",
			SNOWFLAKE_TIME_UNIT_MS: "1000",
		});
		const layout = (await (await ids.get("/layout")).json()) as { exhaustsAt: string };
		expect(layout.exhaustsAt).toBe("2024-11-20T13:24:16.000Z");
		const refused = await ids.get("/snowflake/1");
		expect(refused.status).toBe(500);
		expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
			"layout_exhausted",
		);
	});
});
