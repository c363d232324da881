/**
 * What a user might run instead of edge-ids: a plain Node http server handing out
 * Snowflakes from @sapphire/snowflake (the fastest npm peer in `npm run bench`),
 * as decimal strings in the same JSON shape. For `npm run bench:http` only.
 * Usage: tsx scripts/bench/peer-server.ts <port>   (0: the system picks one; the line it prints names it)
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Snowflake } from "@sapphire/snowflake";

const TWITTER_EPOCH = 1288834974657n;
const snowflake = new Snowflake(TWITTER_EPOCH);
const port = Number(process.argv[2] ?? 8788);

const server = createServer((request, response) => {
	const url = new URL(request.url ?? "/", "http://peer");
	if (url.pathname === "/health") {
		response.writeHead(200, { "Content-Type": "application/json" });
		response.end('{"status":"ok"}');
		return;
	}
	if (url.pathname === "/snowflake") {
		const count = Number(url.searchParams.get("count") ?? 1);
		if (!Number.isInteger(count) || count < 1 || count > 10_000) {
			response.writeHead(400, { "Content-Type": "application/json" });
			response.end('{"error":{"code":"invalid_count","message":"count in [1, 10000]"}}');
			return;
		}
		const ids = new Array<string>(count);
		for (let i = 0; i < count; i++) ids[i] = snowflake.generate({ workerId: 1n }).toString();
		response.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "no-store" });
		response.end(JSON.stringify({ type: "snowflake", workerId: 1, ids }));
		return;
	}
	response.writeHead(404, { "Content-Type": "application/json" });
	response.end('{"error":{"code":"not_found","message":"no such route"}}');
}).listen(port, "127.0.0.1", () => {
	console.log(`peer listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
