/**
 * A proxy between lease holders and the service that loses answers the way a
 * network does, after the service acted: each request is forwarded and answered
 * in full upstream, then its answer is dropped (the holder's connection is cut,
 * so it sees a network failure) at `dropRate`, or held back for `lateMs` at
 * `lateRate` (it arrives after later answers: late and reordered). While the
 * service is down (a crash, a restart) it answers 502, as a gateway would.
 *
 *   const proxy = await startAnswerProxy({ target: () => dev.url, dropRate: 0.05, random });
 *   holders talk to proxy.url; proxy.counts.dropped after the run
 *
 * The target is read per request, so the service may come back on another port.
 */
import { createServer, type IncomingMessage } from "node:http";
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
}

export interface AnswerProxy {
	readonly url: string;
	readonly counts: AnswerProxyCounts;
	stop(): Promise<void>;
}

const FORWARD_TIMEOUT_MS = 30_000;
/** Headers that belong to one hop (RFC 9110 7.6.1), not to the message. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "host", "upgrade"]);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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
	};
	const server = createServer(async (request, response) => {
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
		if (target !== undefined && body !== undefined) {
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
			} catch {
				// Down, restarting, or killed while it answered.
			}
		}
		if (!answered) counts.unavailable++;
		else {
			counts.forwarded++;
			counts.statuses[status] = (counts.statuses[status] ?? 0) + 1;
			if (options.random() < options.dropRate) {
				counts.dropped++;
				request.socket.destroy();
				return;
			}
			if (options.random() < options.lateRate) {
				counts.late++;
				const [min, max] = options.lateMs;
				await sleep(min + options.random() * (max - min));
			}
		}
		if (response.destroyed) return;
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
		stop: () =>
			new Promise<void>((done) => {
				server.closeAllConnections();
				server.close(() => done());
			}),
	};
}
