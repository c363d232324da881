/**
 * The load itself: a seeded mix of requests (explicit and auto Snowflakes,
 * explicit and auto blocks, ULIDs in both formats, UUIDv7s; GET and POST; JSON and
 * text/plain), the large blocks of the block clients, and the client that sends
 * one request and hands its answer to the ledger.
 */

import type { Ledger, SnowflakeAnswer } from "./ledger";
import { ROUTE_SHARES, type RouteName } from "./options";
import type { ServerUnderCrashes } from "./server-under-crashes";

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

export interface Op {
	kind: RouteName;
	workerId?: number;
	count: number;
	method: "GET" | "POST";
	text: boolean;
	format?: "ulid" | "uuid";
}

/** The next request of the mix: a route by its share (ROUTE_SHARES) among `routes`. */
export function nextOp(
	random: () => number,
	routes: RouteName[],
	workerIds: number[],
	maxBatch: number,
): Op {
	const total = routes.reduce((sum, route) => sum + ROUTE_SHARES[route], 0);
	let below = random() * total;
	let kind = routes.at(-1) as RouteName;
	for (const route of routes) {
		below -= ROUTE_SHARES[route];
		if (below < 0) {
			kind = route;
			break;
		}
	}
	const c = random();
	const count =
		c < 0.4
			? 1
			: c < 0.8
				? 2 + Math.floor(random() * Math.min(99, maxBatch))
				: 1 + Math.floor(random() * maxBatch);
	const blocks = kind === "explicit-blocks" || kind === "auto-blocks";
	const op: Op = {
		kind,
		count: Math.min(count, maxBatch),
		method: random() < 0.5 ? "GET" : "POST",
		text: random() < 0.15 && !blocks,
	};
	if (kind === "explicit" || kind === "explicit-blocks") {
		op.workerId = workerIds[Math.floor(random() * workerIds.length)] as number;
	}
	if (kind === "ulid") op.format = random() < 0.3 ? "uuid" : "ulid";
	return op;
}

/** A block client's next request: `maxBlock`/2 to `maxBlock` IDs, three times in four from a named worker ID. */
export function nextBlockOp(random: () => number, workerIds: number[], maxBlock: number): Op {
	const explicit = random() < 0.75;
	const half = Math.ceil(maxBlock / 2);
	const op: Op = {
		kind: explicit ? "explicit-blocks" : "auto-blocks",
		count: half + Math.floor(random() * (maxBlock - half + 1)),
		method: random() < 0.5 ? "GET" : "POST",
		text: false,
	};
	if (explicit) op.workerId = workerIds[Math.floor(random() * workerIds.length)] as number;
	return op;
}

function pathOf(op: Op): string {
	const count = `count=${op.count}`;
	switch (op.kind) {
		case "explicit":
			return `/snowflake/${op.workerId}?${count}`;
		case "explicit-blocks":
			return `/snowflake/${op.workerId}/blocks?${count}`;
		case "auto":
			return `/snowflake?${count}`;
		case "auto-blocks":
			return `/snowflake/blocks?${count}`;
		case "ulid":
			return `/ulid?${count}&format=${op.format}`;
		case "uuidv7":
			return `/uuidv7?${count}`;
	}
}

let inFlight = 0;
/** Requests in flight right now (how many a crash cuts). */
export const requestsInFlight = () => inFlight;

/**
 * How long after a restart a 503 with Retry-After is the designed answer (objects
 * coming back, waiting out the lease they borrow), not a failure.
 */
const RESTART_SETTLE_MS = 10_000;

/** The body of a 200 from an ID route. */
interface IdsBody {
	type: string;
	ids?: string[];
	blocks?: unknown[];
	workerId?: number;
}

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
	const explicit = op.kind === "explicit" || op.kind === "explicit-blocks";
	const floor = explicit ? ledger.floorNow(op.workerId as number) : undefined;
	const rules = ledger.rulesNow();
	const sentAt = Date.now();
	stats.requests++;
	inFlight++;
	let response: Response;
	let body = "";
	try {
		response = await fetch(server.url(path), {
			method: op.method,
			headers: op.text ? { Accept: "text/plain" } : {},
			signal: AbortSignal.timeout(timeoutS * 1000),
		});
		body = await response.text();
	} catch (error) {
		if (server.generation !== generation || !server.up) stats.cutByCrash++;
		else ledger.violation("transportErrors", `${op.method} ${path}: ${(error as Error).message}`);
		return;
	} finally {
		inFlight--;
	}
	const { status } = response;
	stats.statusCounts.set(status, (stats.statusCounts.get(status) ?? 0) + 1);
	if (status !== 200) {
		const settling = sentAt - server.upSince < RESTART_SETTLE_MS && server.restarts > 0;
		if (status === 503 && response.headers.has("Retry-After") && settling) stats.backPressure++;
		else
			ledger.violation(
				status >= 500 ? "status5xx" : "otherStatus",
				`${op.method} ${path} → ${status} ${body.slice(0, 200)}`,
			);
		return;
	}
	stats.ok++;
	stats.answered[op.kind]++;
	let answer: IdsBody;
	try {
		answer = (response.headers.get("Content-Type") ?? "").startsWith("text/plain")
			? { type: "text", ids: body.endsWith("\n") ? body.slice(0, -1).split("\n") : [body] }
			: (JSON.parse(body) as IdsBody);
		const expected = op.kind.endsWith("blocks")
			? "snowflake-blocks"
			: op.kind === "explicit" || op.kind === "auto"
				? "snowflake"
				: op.kind;
		if (answer.type !== expected && answer.type !== "text") throw new Error(`type ${answer.type}`);
		const given = answer.blocks
			? answer.blocks.reduce<number>((n, b) => n + Number((b as { count?: unknown }).count), 0)
			: (answer.ids?.length ?? 0);
		if (given !== op.count) throw new Error(`${given} IDs, asked for ${op.count}`);
	} catch (error) {
		ledger.violation("malformed", `${path}: ${(error as Error).message}`);
		return;
	}
	if (op.kind === "ulid" || op.kind === "uuidv7") {
		const format = op.kind === "ulid" ? (op.format ?? "ulid") : "uuid";
		ledger.check128(op.kind, answer.ids ?? [], format, rules);
		return;
	}
	const checked: SnowflakeAnswer = {
		route: op.kind,
		askedWorkerId: op.workerId,
		namedWorkerId: answer.workerId,
		sentAt,
		floor,
		rules,
	};
	if (answer.blocks) ledger.checkSnowflakeBlocks(answer.blocks, checked);
	else ledger.checkSnowflakeIds(answer.ids ?? [], checked);
}
