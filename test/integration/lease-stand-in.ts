/**
 * A stand-in for the service's `/leases` routes, over HTTP on a free loopback port:
 * the allocation rules of the lease simulation (test/core/lease-service-sim.ts) on
 * the real clock, for the holder processes to run against where the service's own
 * lease routes are not built in.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { IdError } from "../../src/ids/errors";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/layout";
import type { LeaseGrantFields } from "../../src/ids/lease-source";
import { SimService } from "../core/lease-service-sim";

const STATUS: Record<string, number> = {
	lease_lost: 409,
	no_free_worker_id: 409,
	invalid_worker_id: 400,
};

export async function startLeaseStandIn(workerIds: number[], spanMs: number, graceMs: number) {
	const layout = new SnowflakeLayout(TWITTER_LAYOUT);
	const service = new SimService({ layout, workerIds, spanMs, graceMs }, layout.toJSON());
	service.offsetMs = 0;
	let probes = 0;
	const answer = (grant: LeaseGrantFields) => ({
		...grant,
		fromMs: layout.msOf(grant.from),
		toMs: layout.msOf(grant.to),
	});
	const handle = async (request: IncomingMessage, response: ServerResponse) => {
		const parts = (request.url ?? "").split("/").filter(Boolean);
		let body = "";
		for await (const chunk of request) body += String(chunk);
		const now = Date.now();
		const send = (status: number, value?: unknown) => {
			response.writeHead(status, { "Content-Type": "application/json" });
			response.end(value === undefined ? undefined : JSON.stringify(value));
		};
		try {
			if (request.method === "POST" && parts.length === 1) {
				const { workerId } = (body ? JSON.parse(body) : {}) as { workerId?: number };
				return send(201, answer(service.acquire(now, probes++, workerId)));
			}
			const [, workerId = -1, leaseId = ""] = [parts[0], Number(parts[1]), parts[2]];
			if (request.method === "POST" && parts[3] === "renew") {
				return send(200, answer(service.renew(now, workerId, leaseId)));
			}
			if (request.method === "DELETE") {
				service.release(workerId, leaseId);
				return send(204);
			}
			send(404, { error: { code: "not_found", message: "no such route" } });
		} catch (error) {
			const { code, message } = error as IdError<string>;
			const retryAfter = error instanceof IdError ? error.retryAfterSeconds : undefined;
			if (retryAfter !== undefined) response.setHeader("Retry-After", String(retryAfter));
			send(STATUS[code] ?? 500, { error: { code, message } });
		}
	};
	const server = createServer((request, response) => void handle(request, response));
	await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		granted: service.granted,
		stop: () => new Promise((done) => server.close(done)),
	};
}
