/**
 * docs/STORING.md, run: its schemas and snippets, taken from the doc, on real
 * databases — D1 in Miniflare (workerd's D1), Drizzle on that D1, node:sqlite and
 * Postgres (PGlite). For each: the rows of three adjacent windows go in, each
 * window's `/range` bounds select exactly its rows with every digit intact, on every
 * ID column of the doc's table; and the rounding the doc warns about happens.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { type PGlite, types } from "@electric-sql/pglite";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeBlocks, onlyBlock, repo, typeCheck, writeSnippets } from "./doc-snippets";
import {
	ALL_ORDERS,
	ID_COLUMNS,
	type IdColumn,
	ORDERS_BY_WINDOW,
	type Order,
	ROUNDED_EXAMPLE,
	WINDOWS,
} from "./storing-rows";

const blocks = codeBlocks(readFileSync(join(repo, "docs/STORING.md"), "utf8"));
const SQLITE_SCHEMA = onlyBlock(blocks, "SQLite and D1", "sql");
const POSTGRES_SCHEMA = onlyBlock(blocks, "Postgres", "sql");
const SNIPPETS = {
	"d1.ts": onlyBlock(blocks, "D1", "ts"),
	"drizzle-d1.ts": onlyBlock(blocks, "Drizzle on D1", "ts"),
	"node-sqlite.ts": onlyBlock(blocks, "node:sqlite", "ts"),
	"pglite.ts": onlyBlock(blocks, "Postgres", "ts"),
};

/** What every database snippet exports (its own `db` type). */
interface OrdersModule<Db> {
	insertOrder(db: Db, order: Order): unknown;
	ordersBetween(db: Db, bounds: { min: string; max: string }): Order[] | Promise<Order[]>;
}

let dir = "";
let mf: Miniflare | undefined;

beforeAll(async () => {
	dir = writeSnippets(SNIPPETS);
	mf = new Miniflare(
		convertV4MiniflareOptions({
			modules: true,
			script: "export default { fetch: () => new Response() }",
			compatibilityDate: "2026-11-24",
			d1Databases: ["PLAIN", "DRIZZLE"],
		}),
	);
	await mf.ready;
});

afterAll(async () => {
	await mf?.dispose();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

async function snippet<Db>(name: keyof typeof SNIPPETS): Promise<OrdersModule<Db>> {
	return (await import(join(dir, name))) as OrdersModule<Db>;
}

/** SQL statements one by one (D1 prepares one at a time). */
const statements = (schema: string) =>
	schema
		.split(";")
		.map((statement) => statement.trim())
		.filter(Boolean);

/**
 * Inserts every order with the snippet, then checks each window: the snippet's
 * `ordersBetween` answers exactly its orders, in ID order, and `idsOnColumn` (the
 * doc's `BETWEEN` on each ID column, as the test's own SQL) exactly its IDs.
 */
async function checkWindows<Db>(
	db: Db,
	orders: OrdersModule<Db>,
	idsOnColumn: (column: IdColumn, bounds: { min: string; max: string }) => Promise<string[]>,
) {
	for (const order of ALL_ORDERS) await orders.insertOrder(db, order);
	for (const [i, window] of WINDOWS.entries()) {
		const expected = ORDERS_BY_WINDOW[i] ?? [];
		const byId = ID_COLUMNS[0] as IdColumn;
		const found = await orders.ordersBetween(db, byId.bounds(window));
		expect(found.map((order) => ({ ...order }))).toEqual(expected);
		for (const column of ID_COLUMNS) {
			const ids = await idsOnColumn(column, column.bounds(window));
			expect([...ids].sort(), column.column).toEqual(expected.map((order) => order.id).sort());
		}
	}
}

describe("docs/STORING.md", () => {
	it("has snippets that type-check", () => {
		expect(() => typeCheck(dir)).not.toThrow();
	});

	it("D1: CAST(id AS TEXT) reads all 64 bits, SELECT id rounds as the doc shows", async () => {
		const db = await (mf as Miniflare).getD1Database("PLAIN");
		for (const statement of statements(SQLITE_SCHEMA)) await db.prepare(statement).run();
		const sql = (column: string) =>
			`SELECT CAST(id AS TEXT) AS id FROM orders WHERE ${column} BETWEEN ?1 AND ?2`;
		await checkWindows(db, await snippet<D1Database>("d1.ts"), async ({ column }, { min, max }) => {
			const { results } = await db.prepare(sql(column)).bind(min, max).all<{ id: string }>();
			return results.map((row) => row.id);
		});
		const { id, asNumber } = ROUNDED_EXAMPLE;
		await db.prepare("INSERT INTO orders VALUES (?1, '', '', '', '')").bind(id).run();
		const plain = await db.prepare("SELECT id FROM orders WHERE id = ?1").bind(id).first();
		expect(String(plain?.id)).toBe(asNumber);
	});

	it("Drizzle on D1: snowflakeText reads all 64 bits; a plain select refuses", async () => {
		const db = await (mf as Miniflare).getD1Database("DRIZZLE");
		for (const statement of statements(SQLITE_SCHEMA)) await db.prepare(statement).run();
		const drizzleOrders = await snippet<D1Database>("drizzle-d1.ts");
		await checkWindows(db, drizzleOrders, async ({ column }, { min, max }) => {
			const sql = `SELECT CAST(id AS TEXT) AS id FROM orders WHERE ${column} BETWEEN ?1 AND ?2`;
			const { results } = await db.prepare(sql).bind(min, max).all<{ id: string }>();
			return results.map((row) => row.id);
		});
		const { drizzle } = await import("drizzle-orm/d1");
		const { orders } = (await import(join(dir, "drizzle-d1.ts"))) as {
			orders: import("drizzle-orm/sqlite-core").SQLiteTable;
		};
		await expect(drizzle(db).select().from(orders)).rejects.toThrow(RangeError);
	});

	it("node:sqlite: setReadBigInts(true) reads all 64 bits; a number read throws", async () => {
		const db = new DatabaseSync(":memory:");
		db.exec(SQLITE_SCHEMA);
		await checkWindows(db, await snippet<DatabaseSync>("node-sqlite.ts"), async ({ column }, b) =>
			db
				.prepare(`SELECT CAST(id AS TEXT) AS id FROM orders WHERE ${column} BETWEEN ? AND ?`)
				.all(b.min, b.max)
				.map((row) => String(row.id)),
		);
		expect(() => db.prepare("SELECT id FROM orders").all()).toThrow(
			expect.objectContaining({ code: "ERR_OUT_OF_RANGE" }),
		);
		db.close();
	});

	it('Postgres (PGlite): bigint read as text, uuid and text COLLATE "C" ranges', async () => {
		const pg = (await import(join(dir, "pglite.ts"))) as OrdersModule<PGlite> & {
			openDatabase(): PGlite;
		};
		const db = pg.openDatabase();
		await db.exec(POSTGRES_SCHEMA);
		await checkWindows(db, pg, async ({ column }, { min, max }) => {
			const sql = `SELECT id::text AS id FROM orders WHERE ${column} BETWEEN $1 AND $2`;
			return (await db.query<{ id: string }>(sql, [min, max])).rows.map((row) => row.id);
		});
		// With PGlite's own INT8 parser, today's Snowflakes come back as BigInts (the doc's table).
		const { rows } = await db.query<{ id: unknown }>(
			"SELECT $1::bigint AS id",
			[ROUNDED_EXAMPLE.id],
			{ parsers: { [types.INT8]: types.parsers[types.INT8] as (value: string) => unknown } },
		);
		expect(rows[0]?.id).toBe(BigInt(ROUNDED_EXAMPLE.id));
		await db.close();
	});
});
