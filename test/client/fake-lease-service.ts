/**
 * A stand-in for the service's lease routes in a Node `http` server on a loopback
 * port, scripted per test, for running a holder process against it:
 *
 *     const service = await startFakeLeaseService({ spanMs: 1500, renew: (n) => (n < 3 ? "hang" : "grant") });
 *     // … run a holder against service.url …
 *     expect(service.requests.filter((r) => r.route === "renew")).toHaveLength(4);
 *     await service.close();
 *
 * It keeps one worker ID's mark and lease as the object does (a grant starts above
 * the mark, a renewal moves `to` only forward, a release keeps the mark) on the
 * real clock, and answers what the script says: a grant (with the object's clock
 * stepped by `stepMs`), a refusal (with `Retry-After`), an empty 200, or nothing.
 * It also answers the 0.2.0 renew and release forms (the lease ID in the path), so
 * that each test checks its own behaviour on an older holder too.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { twitterLayout } from "../shared/lease-grants";

export const FAKE_WORKER_ID = 900;

/** What the service does with one request. */
export type FakeAnswer =
	| "grant"
	| "hang"
	| "empty"
	| { stepMs: number }
	| { status: number; code: string; retryAfter?: number };

export interface SeenRequest {
	/** ms since the service started */
	t: number;
	route: "acquire" | "renew" | "release" | "other";
	method: string;
	url: string;
	body: string;
	/** the lease ID the request named (in its body or, 0.2.0, its path) */
	leaseId: string | undefined;
}

export interface FakeLeaseScript {
	spanMs: number;
	/** the answer to the `n`th acquire (from 0); default a grant */
	acquire?: (n: number) => FakeAnswer;
	/** the answer to the `n`th renewal (from 0); default a grant */
	renew?: (n: number, since: SeenRequest[]) => FakeAnswer;
}

export interface FakeLeaseService {
	url: string;
	requests: SeenRequest[];
	/** every lease ID granted, in order */
	leaseIds: string[];
	close(): Promise<void>;
}

export async function startFakeLeaseService(script: FakeLeaseScript): Promise<FakeLeaseService> {
	const started = performance.now();
	const requests: SeenRequest[] = [];
	const leaseIds: string[] = [];
	let mark = -1;
	let lease: { leaseId: string; from: number; to: number } | undefined;
	let acquires = 0;
	let renewals = 0;

	const grantOf = (held: { leaseId: string; from: number; to: number }, serverNowMs: number) => ({
		workerId: FAKE_WORKER_ID,
		leaseId: held.leaseId,
		from: held.from,
		to: held.to,
		fromMs: twitterLayout.msOf(held.from),
		toMs: twitterLayout.msOf(held.to),
		serverNowMs,
		layout: twitterLayout.toJSON(),
	});

	/** Answers `answer`; true when it is a grant for the route to make. */
	function scripted(answer: FakeAnswer, res: ServerResponse): number | undefined {
		if (answer === "hang") return undefined; // never answered: the holder's deadline ends it
		if (answer === "empty") {
			res.writeHead(200, { "Content-Type": "application/json" }).end();
			return undefined;
		}
		if (answer === "grant") return Date.now();
		if ("stepMs" in answer) return Date.now() + answer.stepMs;
		const headers: Record<string, string> = { "Content-Type": "application/json" };
		if (answer.retryAfter !== undefined) headers["Retry-After"] = String(answer.retryAfter);
		const error = { code: answer.code, message: `scripted ${answer.code}` };
		res.writeHead(answer.status, headers).end(JSON.stringify({ error }));
		return undefined;
	}

	function handle(req: IncomingMessage, res: ServerResponse, seen: SeenRequest) {
		const json = (status: number, body?: unknown) =>
			res
				.writeHead(status, { "Content-Type": "application/json" })
				.end(body === undefined ? undefined : JSON.stringify(body));
		if (seen.route === "acquire") {
			const now = scripted(script.acquire?.(acquires++) ?? "grant", res);
			if (now === undefined) return;
			const from = Math.max(mark + 1, twitterLayout.tickOf(now));
			const to = Math.max(twitterLayout.tickOf(now + script.spanMs), from + 1);
			lease = { leaseId: randomBytes(24).toString("base64url"), from, to };
			leaseIds.push(lease.leaseId);
			mark = to - 1;
			return json(201, grantOf(lease, now));
		}
		if (seen.route === "renew") {
			const n = renewals++;
			const now = scripted(script.renew?.(n, requests) ?? "grant", res);
			if (now === undefined) return;
			if (!lease || seen.leaseId !== lease.leaseId) {
				return json(409, { error: { code: "lease_lost", message: "not the lease held" } });
			}
			lease.to = Math.max(lease.to, twitterLayout.tickOf(now + script.spanMs));
			mark = lease.to - 1;
			return json(200, grantOf(lease, now));
		}
		if (seen.route === "release") {
			if (lease && seen.leaseId === lease.leaseId) lease = undefined;
			return json(204);
		}
		json(404, { error: { code: "not_found", message: `no route ${req.method} ${req.url}` } });
	}

	const server = createServer((req, res) => {
		let body = "";
		req.setEncoding("utf8");
		req.on("data", (chunk: string) => {
			body += chunk;
		});
		req.on("end", () => {
			const seen = classify(req.method ?? "", req.url ?? "", body);
			seen.t = performance.now() - started;
			requests.push(seen);
			handle(req, res, seen);
		});
	});
	await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		leaseIds,
		close: () =>
			new Promise<void>((done) => {
				server.closeAllConnections(); // hung answers included
				server.close(() => done());
			}),
	};
}

/** Which route a request is, and the lease ID it names (the current forms and 0.2.0's). */
function classify(method: string, url: string, body: string): SeenRequest {
	const seen: SeenRequest = { t: 0, route: "other", method, url, body, leaseId: undefined };
	const bodyLeaseId = () => {
		try {
			return (JSON.parse(body) as { leaseId?: string }).leaseId;
		} catch {
			return undefined;
		}
	};
	const current = /^\/leases\/\d+\/(renew|release)$/.exec(url);
	const oldRenew = /^\/leases\/\d+\/([\w-]+)\/renew$/.exec(url);
	const oldRelease = /^\/leases\/\d+\/([\w-]+)$/.exec(url);
	if (method === "POST" && url === "/leases") seen.route = "acquire";
	else if (method === "POST" && current) {
		seen.route = current[1] as "renew" | "release";
		seen.leaseId = bodyLeaseId();
	} else if (method === "POST" && oldRenew) {
		seen.route = "renew";
		seen.leaseId = oldRenew[1];
	} else if (method === "DELETE" && oldRelease) {
		seen.route = "release";
		seen.leaseId = oldRelease[1];
	}
	return seen;
}
