import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type LeafPeer, startLeafSegmentPeer } from "../../scripts/bench/leaf-segment-peer";

const peers: LeafPeer[] = [];
const dirs: string[] = [];
afterEach(async () => {
	await Promise.all(peers.splice(0).map((peer) => peer.close()));
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(database?: string): Promise<LeafPeer> {
	const peer = await startLeafSegmentPeer({ port: 0, step: 10, database });
	peers.push(peer);
	return peer;
}

async function next(peer: LeafPeer, tag: string, count: number): Promise<number[]> {
	const response = await fetch(`${peer.url}/next?tag=${tag}&count=${count}`);
	expect(response.status).toBe(200);
	const body = (await response.json()) as { tag: string; numbers: number[] };
	expect(body.tag).toBe(tag);
	return body.numbers;
}

describe("the Leaf-segment peer", () => {
	it("hands out unique, increasing numbers across segments, one counter per tag", async () => {
		const peer = await start();
		const numbers: number[] = [];
		for (let i = 0; i < 12; i++) numbers.push(...(await next(peer, "orders", 7)));
		// Leaf's step doubles while segments last under 15 minutes: 10, 20, 40, … with no gaps.
		expect(numbers).toEqual(Array.from({ length: 84 }, (_, i) => i + 1));
		expect(await next(peer, "invoices", 3)).toEqual([1, 2, 3]);
	});

	it("starts above every segment it loaded after a restart on the same file (the rest is lost)", async () => {
		const dir = mkdtempSync(join(tmpdir(), "leaf-peer-"));
		dirs.push(dir);
		const database = join(dir, "leaf.sqlite");
		const first = await start(database);
		const before = await next(first, "orders", 5);
		await first.close();
		peers.splice(peers.indexOf(first), 1);
		const again = await start(database);
		const after = await next(again, "orders", 5);
		expect(before).toEqual([1, 2, 3, 4, 5]);
		// Two segments were loaded before (1..10, and 11..20 in the background): the restart starts at 21.
		expect(after).toEqual([21, 22, 23, 24, 25]);
	});

	it("refuses a request without a tag or with a bad count, and unknown paths", async () => {
		const peer = await start();
		for (const query of ["count=1", "tag=a&count=0", "tag=a&count=10001", "tag=a/b"]) {
			expect((await fetch(`${peer.url}/next?${query}`)).status).toBe(400);
		}
		expect((await fetch(`${peer.url}/other`)).status).toBe(404);
	});
});
