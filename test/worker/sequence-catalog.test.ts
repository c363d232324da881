/**
 * The catalog of sequence names: `GET /sequences` lists every name created, in name
 * order, a page at a time by cursor; a name is written once per create (a create
 * found again writes the same row, a no-op), never by next, reserve, advance or status.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ErrorBody, SequenceList } from "../../src/api";
import { checkSequenceSettings } from "../../src/ids/sequences";
import { CATALOG_OBJECT_NAME } from "../../src/worker/object/sequence-catalog";
import { call, callJson } from "./helpers";
import { operations, sequenceName } from "./sequence-helpers";

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

/** The real namespace, counting the objects asked for by name. */
function countingEnv(): { env: Env; asked: string[] } {
	const asked: string[] = [];
	const namespace = env.SEQUENCES;
	const SEQUENCES = new Proxy(namespace, {
		get(target, key) {
			if (key === "idFromName") {
				return (name: string) => {
					asked.push(name);
					return target.idFromName(name);
				};
			}
			const value = Reflect.get(target, key);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
	return { env: { ...env, SEQUENCES }, asked };
}

describe("the sequence catalog", () => {
	it("lists every name created, in name order, across pages; a cursor after the last gives none", async () => {
		const prefix = sequenceName("catalog");
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

	it("is written by a create only: next, reserve, advance and status never ask for the catalog", async () => {
		const { ops, config } = await operations();
		const counting = countingEnv();
		const name = sequenceName("catalog-path");
		await ops.createSequence(counting.env, { name, settings: checkSequenceSettings({}) });
		expect(counting.asked.filter((asked) => asked === CATALOG_OBJECT_NAME)).toHaveLength(1);
		await ops.nextInSequence(counting.env, config, { name, count: 3 });
		await ops.reserveInSequence(counting.env, { name, count: 10 });
		await ops.advanceSequence(counting.env, { name, to: 100n });
		await ops.sequenceStatus(counting.env, { name });
		expect(counting.asked.filter((asked) => asked === CATALOG_OBJECT_NAME)).toHaveLength(1);
		expect(counting.asked.filter((asked) => asked === name)).toHaveLength(5);
	});

	it("refuses a limit outside [1, 1000] and a cursor that is no name", async () => {
		for (const [query, message] of [
			["limit=0", "limit must be an integer in [1, 1000]; got 0"],
			["limit=1001", "limit must be an integer in [1, 1000]; got 1001"],
			[
				"cursor=~catalog",
				'cursor must be the cursor a previous page answered (a sequence name); got "~catalog"',
			],
			["limt=5", 'unknown parameter "limt"; it takes limit, cursor'],
		]) {
			const { status, body } = await callJson<ErrorBody>(`/sequences?${query}`);
			expect([status, body.error]).toEqual([400, { code: "invalid_request", message }]);
		}
	});
});
