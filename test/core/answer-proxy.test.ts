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

/** A service answering 200 with `body(url)`, and a proxy in front of it that records its faults. */
async function faultingProxy(
	body: (url: string) => string,
	options: Partial<Parameters<typeof startAnswerProxy>[0]>,
): Promise<{ proxy: AnswerProxy; faults: string[] }> {
	upstream = createServer((request, response) => {
		response.writeHead(200, { "Content-Type": "application/json" });
		response.end(body(request.url ?? ""));
	});
	await new Promise<void>((ready) => upstream?.listen(0, "127.0.0.1", ready));
	const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
	const faults: string[] = [];
	const started = await startAnswerProxy({
		target: () => url,
		dropRate: 0,
		lateRate: 0,
		lateMs: [0, 0],
		random: () => 0.5,
		onFault: (fault, { workerId, from }) => faults.push(`${fault} ${workerId} ${from}`),
		...options,
	});
	proxy = started;
	return { proxy: started, faults };
}

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

	it("steps one worker ID's serverNowMs ahead for a while, and nothing else of its grants", async () => {
		const grant = (workerId: number) =>
			`{"workerId":${workerId},"leaseId":"k","from":100,"to":200,"fromMs":1100,"toMs":1200,"serverNowMs":1150,"layout":{"epoch":1000}}`;
		const { proxy, faults } = await faultingProxy((url) => grant(Number(url.split("/")[2])), {});
		proxy.stepClock(901, 7_500, 200);
		const renew = async (workerId: number) =>
			(await fetch(`${proxy.url}/leases/${workerId}/renew`, { method: "POST" })).text();
		expect(await renew(901)).toBe(grant(901).replace('"serverNowMs":1150', '"serverNowMs":8650'));
		expect(await renew(902)).toBe(grant(902));
		await new Promise((done) => setTimeout(done, 250));
		expect(await renew(901)).toBe(grant(901));
		expect(faults).toEqual(["stepped 901 100"]);
		expect(proxy.counts.stepped).toBe(1);
	});

	it("hangs a renewal's answer until the holder gives up; other requests pass", async () => {
		const { proxy, faults } = await faultingProxy(
			() => '{"workerId":900,"from":5,"to":9,"serverNowMs":1}',
			{ hangRate: 1, hangMs: [60_000, 60_000], random: () => 0 },
		);
		const started = performance.now();
		const hung = fetch(`${proxy.url}/leases/900/renew`, {
			method: "POST",
			signal: AbortSignal.timeout(150),
		});
		await expect(hung).rejects.toThrow();
		expect((await fetch(`${proxy.url}/leases`, { method: "POST" })).status).toBe(200);
		await new Promise((done) => setTimeout(done, 50)); // the proxy sees the connection close
		expect(performance.now() - started).toBeLessThan(5_000);
		expect(faults).toEqual(["hung 900 5"]);
		expect(proxy.counts).toMatchObject({ hung: 1, hungGivenUp: 1 });
	});

	it("tells what it lost: a dropped answer with its request and body, a request cut by the service", async () => {
		const lost: string[] = [];
		const onLost: Parameters<typeof startAnswerProxy>[0]["onLost"] = (request, loss) =>
			lost.push(
				`${request.method} ${request.url} ${request.body} ${loss.kind === "dropped" ? `${loss.status} ${loss.payload}` : "cut"}`,
			);
		const { proxy } = await faultingProxy((url) => `{"url":"${url}"}`, { dropRate: 1, onLost });
		await expect(post(proxy.url)).rejects.toThrow();
		expect(lost).toEqual(['POST /leases {"holder":"h"} 200 {"url":"/leases"}']);
		const cut = await startAnswerProxy({
			target: () => "http://127.0.0.1:9", // nothing listens: the forward fails
			dropRate: 0,
			lateRate: 0,
			lateMs: [0, 0],
			random: () => 0.5,
			onLost,
		});
		expect((await post(cut.url)).status).toBe(502);
		await cut.stop();
		expect(lost[1]).toBe('POST /leases {"holder":"h"} cut');
	});
});
