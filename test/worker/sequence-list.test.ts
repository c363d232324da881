/**
 * `GET /sequences`: every name created, from the fleet catalog's table, in name order,
 * a page at a time by cursor; a create found again lists the name once; a limit or
 * cursor out of its rule is refused. (Which calls write the catalog:
 * ./sequence-catalog-writes.test.ts.)
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ErrorBody, SequenceList } from "../../src/wire";
import { directoryStub } from "../../src/worker/object/catalog-calls";
import { call, callJson } from "./helpers";
import { sequenceName } from "./sequence-helpers";

/** Every name listed, page by page of `limit`. */
async function allNames(limit: number): Promise<{ names: string[]; pages: number }> {
	const names: string[] = [];
	let cursor: string | null = null;
	let pages = 0;
	do {
		const query: string = `?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`;
		const page: { status: number; body: SequenceList } = await callJson<SequenceList>(
			`/sequences${query}`,
		);
		expect(page.status).toBe(200);
		expect(page.body.type).toBe("sequence-list");
		expect(page.body.names.length).toBeLessThanOrEqual(limit);
		names.push(...page.body.names);
		cursor = page.body.cursor;
		pages++;
	} while (cursor !== null);
	return { names, pages };
}

describe("GET /sequences", () => {
	it("lists every name created, in name order, across pages; a cursor after the last gives none", async () => {
		const prefix = sequenceName("list");
		const made = ["b", "a", "c", "a.1", "B"].map((tail) => `${prefix}-${tail}`);
		for (const name of made)
			expect((await call(`/sequences/${name}`, { method: "PUT" })).status).toBe(201);
		// A create found again (200) lists the name once.
		expect((await call(`/sequences/${made[0]}`, { method: "PUT" })).status).toBe(200);
		const { names, pages } = await allNames(2);
		const mine = names.filter((name) => name.startsWith(`${prefix}-`));
		expect(mine).toEqual([...made].sort());
		expect(names).toEqual([...names].sort());
		expect(new Set(names).size).toBe(names.length);
		expect(pages).toBe(Math.max(1, Math.ceil(names.length / 2)));
		const last = names.at(-1) as string;
		expect((await callJson<SequenceList>(`/sequences?cursor=${last}`)).body).toEqual({
			type: "sequence-list",
			names: [],
			cursor: null,
		});
	});

	it("pages through the fleet catalog's table: the same names, page for page", async () => {
		const prefix = sequenceName("list-table");
		for (const tail of ["x", "y", "z"])
			expect((await call(`/sequences/${prefix}-${tail}`, { method: "PUT" })).status).toBe(201);
		const after = `${prefix}-`;
		const table = await directoryStub(env).sequenceNames(after, 2);
		expect(table).toEqual({ names: [`${prefix}-x`, `${prefix}-y`], more: true });
		const page = await callJson<SequenceList>(`/sequences?limit=2&cursor=${after}`);
		expect(page.body).toEqual({
			type: "sequence-list",
			names: table.names,
			cursor: `${prefix}-y`,
		});
		const next = await callJson<SequenceList>(`/sequences?limit=1&cursor=${prefix}-y`);
		expect(next.body.names).toEqual([`${prefix}-z`]);
	});

	it("refuses a limit outside [1, 1000] and a cursor that is no name", async () => {
		for (const [query, message] of [
			["limit=0", "limit must be an integer in [1, 1000]; got 0"],
			["limit=1001", "limit must be an integer in [1, 1000]; got 1001"],
			[
				"cursor=~catalog",
				'cursor must be the cursor a previous page answered (a sequence name); got "~catalog"',
			],
			["limt=5", 'unknown parameter "limt"; it takes limit, cursor, prefix'],
		]) {
			const { status, body } = await callJson<ErrorBody>(`/sequences?${query}`);
			expect([status, body.error]).toEqual([400, { code: "invalid_request", message }]);
		}
	});
});
