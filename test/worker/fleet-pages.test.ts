/**
 * `GET /stats` in pages: worker IDs, then sequences, at most `limit` rows a page (default
 * 100, at most 1,000), each row on exactly one page, the fleet's totals on every page; a
 * cursor no page answered is a 400 naming `cursor`; RPC and the client's query answer
 * the same pages.
 */
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { FleetStats } from "../../src/wire";
import { IdService } from "../../src/worker/rpc/id-service";
import { envWith } from "../shared/fetch-app";
import { rowName, writeSequences } from "./fleet-catalog-rows";
import { call, callJson } from "./helpers";

async function page(query: string): Promise<FleetStats> {
	const { status, body } = await callJson<FleetStats>(`/stats${query}`);
	expect(status).toBe(200);
	return body;
}

describe("GET /stats in pages", () => {
	it("lists every row once, at most `limit` a page, with the totals on each", {
		timeout: 60_000,
	}, async () => {
		await writeSequences("paged", 0, 250);
		// The default page: 100 rows at most (fewer when a sparse fleet spreads them over more
		// than the 32 shards a page reads; the cursor then goes on).
		const first = await page("");
		const rows = first.sequences.length + first.workerIds.length;
		expect(rows).toBeGreaterThan(25);
		expect(rows).toBeLessThanOrEqual(100);
		expect(first.cursor).not.toBeNull();
		const seen: string[] = [];
		let cursor: string | null = null;
		let pages = 0;
		do {
			const query: string =
				cursor === null ? "?limit=20" : `?limit=20&cursor=${encodeURIComponent(cursor)}`;
			const body = await page(query);
			expect(body.workerIds.length + body.sequences.length).toBeLessThanOrEqual(20);
			expect(body.totals).toEqual(first.totals);
			seen.push(...body.sequences.map((s) => s.name));
			cursor = body.cursor;
			pages++;
		} while (cursor !== null);
		const expected = Array.from({ length: 250 }, (_, i) => rowName("paged", i));
		expect([...seen].sort()).toEqual(expected);
		expect(new Set(seen).size).toBe(250);
		expect(pages).toBeGreaterThanOrEqual(13);
		expect(first.totals).toMatchObject({
			sequences: 250,
			sequencesIssued: String((250 * 251) / 2),
			sequenceRequests: (250 * 251) / 2,
		});
	});

	it("refuses a limit outside [1, 1000] and a cursor no page answered, naming the field", async () => {
		for (const [query, message] of [
			["?limit=0", "limit must be an integer in [1, 1000]"],
			["?limit=1001", "limit must be an integer in [1, 1000]"],
			["?cursor=orders", "cursor must be the cursor a previous page answered"],
			["?cursor=w%3A-1", "cursor must be the cursor a previous page answered"],
			["?cursor=s%3A", "cursor must be the cursor a previous page answered"],
		] as const) {
			const response = await call(`/stats${query}`);
			expect(response.status, query).toBe(400);
			const { error } = (await response.json()) as { error: { code: string; message: string } };
			expect(error.code).toBe("invalid_request");
			expect(error.message).toContain(message);
		}
	});

	it("answers the same pages over RPC, and refuses as HTTP does", { timeout: 30_000 }, async () => {
		await writeSequences("rpc-paged", 0, 30);
		const service = new IdService(createExecutionContext(), envWith({}));
		const rpc = await service.fleetStats({ limit: 10 });
		const http = await page("?limit=10");
		expect({ ...rpc, serverNowMs: 0 }).toEqual({ ...http, serverNowMs: 0 });
		const next = await service.fleetStats({ limit: 10, cursor: rpc.cursor ?? undefined });
		expect({ ...next, serverNowMs: 0 }).toEqual({
			...(await page(`?limit=10&cursor=${encodeURIComponent(rpc.cursor ?? "")}`)),
			serverNowMs: 0,
		});
		await expect(service.fleetStats({ cursor: "nope" })).rejects.toThrow(
			/^invalid_request: cursor must be the cursor a previous page answered/,
		);
	});
});
