/** The chaos run's proxy (scripts/load/answer-proxy.ts) loses answers only after the service acted. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type AnswerProxy, startAnswerProxy } from "../../scripts/load/answer-proxy";

let upstream: Server | undefined;
let proxy: AnswerProxy | undefined;
afterEach(async () => {
	await proxy?.stop();
	await new Promise((done) => (upstream ? upstream.close(done) : done(undefined)));
	upstream = proxy = undefined;
});

/** A service that counts what reached it and answers 201 with the body it got. */
async function service(): Promise<{ url: string; seen: string[] }> {
	const seen: string[] = [];
	upstream = createServer(async (request, response) => {
		let body = "";
		for await (const chunk of request) body += String(chunk);
		seen.push(`${request.method} ${request.url} ${request.headers.authorization} ${body}`);
		response.writeHead(201, { "Content-Type": "application/json", "Retry-After": "3" });
		response.end(JSON.stringify({ got: body }));
	});
	await new Promise<void>((ready) => upstream?.listen(0, "127.0.0.1", ready));
	return { url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, seen };
}

const post = (url: string) =>
	fetch(`${url}/leases`, {
		method: "POST",
		headers: { Authorization: "Bearer t", "Content-Type": "application/json" },
		body: '{"holder":"h"}',
	});

describe("the answer-dropping proxy", () => {
	it("passes requests and answers through unchanged when it drops nothing", async () => {
		const { url, seen } = await service();
		proxy = await startAnswerProxy({
			target: () => url,
			dropRate: 0,
			lateRate: 0,
			lateMs: [0, 0],
			random: Math.random,
		});
		const answer = await post(proxy.url);
		expect(answer.status).toBe(201);
		expect(answer.headers.get("retry-after")).toBe("3");
		expect(await answer.json()).toEqual({ got: '{"holder":"h"}' });
		expect(seen).toEqual(['POST /leases Bearer t {"holder":"h"}']);
		expect(proxy.counts).toMatchObject({ forwarded: 1, dropped: 0, statuses: { 201: 1 } });
	});

	it("drops the answer after the service acted: the caller sees a failed connection", async () => {
		const { url, seen } = await service();
		proxy = await startAnswerProxy({
			target: () => url,
			dropRate: 1,
			lateRate: 0,
			lateMs: [0, 0],
			random: Math.random,
		});
		await expect(post(proxy.url)).rejects.toThrow();
		expect(seen).toHaveLength(1);
		expect(proxy.counts).toMatchObject({ forwarded: 1, dropped: 1 });
	});

	it("holds an answer back, and answers 502 while the service is down", async () => {
		const { url } = await service();
		let up = true;
		proxy = await startAnswerProxy({
			target: () => (up ? url : undefined),
			dropRate: 0,
			lateRate: 1,
			lateMs: [150, 150],
			random: () => 0,
		});
		const started = performance.now();
		expect((await post(proxy.url)).status).toBe(201);
		expect(performance.now() - started).toBeGreaterThanOrEqual(140);
		up = false;
		const down = await post(proxy.url);
		expect(down.status).toBe(502);
		expect(await down.json()).toMatchObject({ error: { code: "unavailable" } });
		expect(proxy.counts).toMatchObject({ late: 1, unavailable: 1 });
	});
});
