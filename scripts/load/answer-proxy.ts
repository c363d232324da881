/**
 * A proxy between lease holders and the service that loses answers the way a
 * network does, after the service acted: each request is forwarded and answered
 * in full upstream, then its answer is dropped (the holder's connection is cut,
 * so it sees a network failure) at `dropRate`, or held back for `lateMs` at
 * `lateRate` (it arrives after later answers: late and reordered). While the
 * service is down (a crash, a restart) it answers 502, as a gateway would.
 *
 * Two faults aimed at a holder's renewals: at `hangRate` a renewal's answer is
 * held past the holder's renewal deadline (`hangMs`, or until the holder gives up
 * and closes the connection); and `stepClock` makes one worker ID's object look as
 * if its clock had stepped ahead for a while: the `serverNowMs` of its grants
 * reads `aheadMs` more (nothing else: `from`, `to`, `fromMs`, `toMs` carry the
 * safety and stay as the service wrote them), then the step ends, which is all a
 * holder can see of an object whose clock stepped ahead and back.
 *
 *   const proxy = await startAnswerProxy({ target: () => dev.url, dropRate: 0.05, random });
 *   holders talk to proxy.url; proxy.counts.dropped after the run
 *   proxy.stepClock(903, 10_000, 5_000);   // worker ID 903's grants read 10 s ahead for 5 s
 *
 * The target is read per request, so the service may come back on another port.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface AnswerProxyOptions {
	/** The service's base URL now (undefined while it is down). */
	target: () => string | undefined;
	/** Share of answers dropped after the service acted, in [0, 1]. */
	dropRate: number;
	/** Share of answers held back, in [0, 1]. */
	lateRate: number;
	/** How long a held-back answer waits: [min, max] ms. */
	lateMs: [number, number];
	/** Uniform in [0, 1) (seeded, so a run can be repeated). */
	random: () => number;
	/** Share of renewal answers held past the holder's renewal deadline, in [0, 1]. Default 0. */
	hangRate?: number | undefined;
	/** How long a hung answer is held at most, [min, max] ms; the holder giving up ends it sooner. */
	hangMs?: [number, number] | undefined;
	/** A grant (the lease of `workerId` starting at tick `from`) whose answer was stepped or hung. */
	onFault?: ((fault: "stepped" | "hung", grant: GrantKey) => void) | undefined;
	/** A request whose answer its caller never got, though the service may have acted on it. */
	onLost?: ((request: LostRequest, loss: LostAnswer) => void) | undefined;
}

/** The request of a lost answer, as the caller sent it. */
export interface LostRequest {
	method: string;
	/** The path and query. */
	url: string;
	body: Buffer;
	/** performance.now() when the proxy received it: the service cannot have acted on it before. */
	receivedMs: number;
}

/**
 * How an answer was lost: `dropped` after the service gave it (its status and body,
 * so a ledger can count what it held), or `cut`: the service failed while answering
 * (killed mid-request), so whether it acted is unknown.
 */
export type LostAnswer = { kind: "dropped"; status: number; payload: Buffer } | { kind: "cut" };

/** Which lease a grant belongs to, as the holders' L lines name it. */
export interface GrantKey {
	workerId: number;
	from: number;
}

export interface AnswerProxyCounts {
	forwarded: number;
	/** Answers the service gave that the holder never got. */
	dropped: number;
	late: number;
	/** Requests answered 502 because the service was down or cut the connection. */
	unavailable: number;
	/** Answers by the service's status. */
	statuses: Record<number, number>;
	/** Grants whose `serverNowMs` was stepped ahead. */
	stepped: number;
	/** Renewal answers held past the renewal deadline; of them, those the holder gave up on first. */
	hung: number;
	hungGivenUp: number;
	/** How long the service took to answer renewals, ms, in order (for their spread). */
	renewalAnswerMs: number[];
}

export interface AnswerProxy {
	readonly url: string;
	readonly counts: AnswerProxyCounts;
	/** `workerId`'s grants read `aheadMs` ahead for the next `forMs`. */
	stepClock(workerId: number, aheadMs: number, forMs: number): void;
	stop(): Promise<void>;
}

const FORWARD_TIMEOUT_MS = 30_000;
/** Headers that belong to one hop (RFC 9110 7.6.1), not to the message. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "host", "upgrade"]);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const RENEWAL = /^\/leases\/\d+\/renew(\?|$)/;
const SERVER_NOW = /("serverNowMs"\s*:\s*)(\d+)/;

/** The lease a 200 answer grants, read from its body; undefined for any other answer. */
function grantOf(status: number, payload: Buffer): GrantKey | undefined {
	if (status !== 200) return undefined;
	try {
		const { workerId, from, serverNowMs } = JSON.parse(payload.toString("utf8"));
		const numbers = [workerId, from, serverNowMs].every((x) => Number.isSafeInteger(x));
		return numbers ? { workerId, from } : undefined;
	} catch {
		return undefined;
	}
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

export async function startAnswerProxy(options: AnswerProxyOptions): Promise<AnswerProxy> {
	const counts: AnswerProxyCounts = {
		forwarded: 0,
		dropped: 0,
		late: 0,
		unavailable: 0,
		statuses: {},
		stepped: 0,
		hung: 0,
		hungGivenUp: 0,
		renewalAnswerMs: [],
	};
	/** Worker IDs whose object's clock reads ahead now: by how much, until when (performance.now ms). */
	const steps = new Map<number, { aheadMs: number; untilMs: number }>();
	const server = createServer(async (request, response) => {
		const receivedMs = performance.now();
		const body = await bodyOf(request).catch(() => undefined);
		const target = options.target();
		let status = 502;
		let headers: [string, string][] = [["content-type", "application/json"]];
		let payload: Buffer = Buffer.from(
			JSON.stringify({
				error: { code: "unavailable", message: "the service behind this gateway is down" },
			}),
		);
		let answered = false;
		const sent = (): LostRequest => ({
			method: request.method ?? "GET",
			url: request.url ?? "/",
			body: body ?? Buffer.alloc(0),
			receivedMs,
		});
		if (target !== undefined && body !== undefined) {
			const sentAt = performance.now();
			try {
				const upstream = await fetch(target + (request.url ?? "/"), {
					method: request.method,
					headers: Object.entries(request.headers).flatMap(([name, value]) =>
						HOP_BY_HOP.has(name) || value === undefined ? [] : [[name, String(value)]],
					) as [string, string][],
					body: body.length > 0 ? body : undefined,
					signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
				});
				payload = Buffer.from(await upstream.arrayBuffer());
				status = upstream.status;
				headers = [...upstream.headers].filter(([name]) => !HOP_BY_HOP.has(name));
				answered = true;
				if (RENEWAL.test(request.url ?? "")) {
					counts.renewalAnswerMs.push(Math.round(performance.now() - sentAt));
				}
			} catch {
				// Down, restarting, or killed while it answered.
				options.onLost?.(sent(), { kind: "cut" });
			}
		}
		if (!answered) counts.unavailable++;
		else {
			counts.forwarded++;
			counts.statuses[status] = (counts.statuses[status] ?? 0) + 1;
			if (options.random() < options.dropRate) {
				counts.dropped++;
				options.onLost?.(sent(), { kind: "dropped", status, payload });
				request.socket.destroy();
				return;
			}
			const grant = grantOf(status, payload);
			const hangRate = options.hangRate ?? 0;
			if (grant && hangRate > 0 && RENEWAL.test(request.url ?? "") && options.random() < hangRate) {
				counts.hung++;
				options.onFault?.("hung", grant);
				const [min, max] = options.hangMs ?? [0, 0];
				if (await heldUntilGivenUp(response, min + options.random() * (max - min))) {
					counts.hungGivenUp++;
					options.onLost?.(sent(), { kind: "dropped", status, payload });
					return;
				}
			} else if (options.random() < options.lateRate) {
				counts.late++;
				const [min, max] = options.lateMs;
				await sleep(min + options.random() * (max - min));
			}
			const step = grant && steps.get(grant.workerId);
			if (grant && step && performance.now() < step.untilMs && !response.destroyed) {
				counts.stepped++;
				const text = payload
					.toString("utf8")
					.replace(SERVER_NOW, (_, key: string, ms: string) => key + (Number(ms) + step.aheadMs));
				payload = Buffer.from(text);
				options.onFault?.("stepped", grant);
			}
		}
		if (response.destroyed) {
			// The caller gave up (or was hung up on) before the answer could go out.
			if (answered) options.onLost?.(sent(), { kind: "dropped", status, payload });
			return;
		}
		// fetch decoded the body: its length and encoding are this proxy's to set.
		const kept = headers.filter(
			([name]) => name !== "content-length" && name !== "content-encoding",
		);
		response.writeHead(status, kept);
		response.end(payload);
	});
	await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		counts,
		stepClock(workerId, aheadMs, forMs) {
			steps.set(workerId, { aheadMs, untilMs: performance.now() + forMs });
		},
		stop: () =>
			new Promise<void>((done) => {
				server.closeAllConnections();
				server.close(() => done());
			}),
	};
}

/** Waits `ms`, or until the client closes the connection (true: it gave up first). */
function heldUntilGivenUp(response: ServerResponse, ms: number): Promise<boolean> {
	if (response.destroyed) return Promise.resolve(true);
	return new Promise((done) => {
		const timer = setTimeout(() => {
			response.off("close", gaveUp);
			done(false);
		}, ms);
		const gaveUp = () => {
			clearTimeout(timer);
			done(true);
		};
		response.once("close", gaveUp);
	});
}
