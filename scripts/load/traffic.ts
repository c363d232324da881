/**
 * The load itself: a seeded mix of requests (explicit and auto Snowflakes, explicit
 * blocks, ULIDs in both formats, UUIDv7s; GET and POST; JSON and text/plain) and
 * the client that sends one and hands its answer to the ledger.
 */
import { expandBlocks, type SnowflakeBlock } from "../../src/ids/blocks";
import type { ServerUnderCrashes } from "./crash-loop";
import type { Ledger } from "./ledger";

/** mulberry32: a small seeded PRNG, so a request mix can be replayed with --seed. */
export function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

type Kind = "snowflake" | "blocks" | "auto" | "ulid" | "uuidv7";
export interface Op {
	kind: Kind;
	workerId?: number;
	count: number;
	method: "GET" | "POST";
	text: boolean;
	format?: "ulid" | "uuid";
}

/**
 * The next request of the mix: 27% explicit Snowflake, 8% explicit blocks, 25% auto
 * (pooled), 20% ULID, 20% UUIDv7.
 */
export function nextOp(random: () => number, workerIds: number[], maxBatch: number): Op {
	const r = random();
	const kind: Kind =
		r < 0.27 ? "snowflake" : r < 0.35 ? "blocks" : r < 0.6 ? "auto" : r < 0.8 ? "ulid" : "uuidv7";
	const c = random();
	const count =
		c < 0.4
			? 1
			: c < 0.8
				? 2 + Math.floor(random() * Math.min(99, maxBatch))
				: 1 + Math.floor(random() * maxBatch);
	const op: Op = {
		kind,
		count: Math.min(count, maxBatch),
		method: random() < 0.5 ? "GET" : "POST",
		text: random() < 0.15 && kind !== "blocks",
	};
	if (kind === "snowflake" || kind === "blocks") {
		op.workerId = workerIds[Math.floor(random() * workerIds.length)] as number;
	}
	if (kind === "ulid") op.format = random() < 0.3 ? "uuid" : "ulid";
	return op;
}

function pathOf(op: Op): string {
	const count = `count=${op.count}`;
	switch (op.kind) {
		case "snowflake":
			return `/snowflake/${op.workerId}?${count}`;
		case "blocks":
			return `/snowflake/${op.workerId}/blocks?${count}`;
		case "auto":
			return `/snowflake?${count}`;
		case "ulid":
			return `/ulid?${count}&format=${op.format}`;
		case "uuidv7":
			return `/uuidv7?${count}`;
	}
}

let inFlight = 0;
/** Requests in flight right now (how many a crash cuts). */
export const requestsInFlight = () => inFlight;

/** Sends one request and checks its answer; a request cut by a crash is counted, not a violation. */
export async function send(
	server: ServerUnderCrashes,
	ledger: Ledger,
	op: Op,
	timeoutS: number,
): Promise<void> {
	const { stats } = ledger;
	const path = pathOf(op);
	const generation = server.generation;
	const floorOf = ledger.floorNow(op.workerId);
	const sentAt = Date.now();
	stats.requests++;
	inFlight++;
	let status = 0;
	let body = "";
	let type = "";
	try {
		const response = await fetch(server.url(path), {
			method: op.method,
			headers: op.text ? { Accept: "text/plain" } : {},
			signal: AbortSignal.timeout(timeoutS * 1000),
		});
		status = response.status;
		type = response.headers.get("Content-Type") ?? "";
		body = await response.text();
	} catch (error) {
		if (server.generation !== generation || !server.up) stats.cutByCrash++;
		else ledger.violation("transportErrors", `${op.method} ${path}: ${(error as Error).message}`);
		return;
	} finally {
		inFlight--;
	}
	stats.statusCounts.set(status, (stats.statusCounts.get(status) ?? 0) + 1);
	if (status >= 500) {
		ledger.violation("status5xx", `${op.method} ${path} → ${status} ${body.slice(0, 200)}`);
		return;
	}
	if (status !== 200) {
		ledger.violation("otherStatus", `${op.method} ${path} → ${status} ${body.slice(0, 200)}`);
		return;
	}
	stats.ok++;
	let ids: string[];
	let named: number | undefined;
	try {
		if (type.startsWith("text/plain")) {
			ids = body.endsWith("\n") ? body.slice(0, -1).split("\n") : [body];
		} else {
			const json = JSON.parse(body) as {
				type: string;
				ids?: string[];
				blocks?: SnowflakeBlock[];
				workerId?: number;
			};
			const expected =
				op.kind === "auto" ? "snowflake" : op.kind === "blocks" ? "snowflake-blocks" : op.kind;
			if (json.type !== expected) throw new Error(`type ${json.type}`);
			// Blocks are checked as the IDs they stand for.
			ids = json.blocks ? [...expandBlocks(json.blocks)] : (json.ids ?? []);
			named = json.workerId;
		}
	} catch (error) {
		ledger.violation("malformed", `${path}: ${(error as Error).message}`);
		return;
	}
	if (ids.length !== op.count) {
		ledger.violation("malformed", `${path}: ${ids.length} IDs`);
		return;
	}
	if (op.kind === "snowflake" || op.kind === "blocks" || op.kind === "auto") {
		ledger.checkSnowflakes(
			ids,
			op.workerId,
			named,
			floorOf,
			op.kind === "auto" ? sentAt : undefined,
		);
	} else {
		ledger.check128(op.kind, ids, op.kind === "ulid" ? (op.format ?? "ulid") : "uuid");
	}
}
