/**
 * Load and crash test against a real `wrangler dev` (workerd, SQLite-backed
 * Durable Objects on disk). Black box: it talks HTTP to 127.0.0.1 only and checks
 * every ID it is given.
 *
 *   npm run test:load                                  20 s, 16 clients, no crashes
 *   npm run test:load -- --duration 90 --crashes 4     kill -9 the server 4 times
 *   npm run test:load -- --help
 *
 * It starts `wrangler dev` itself (its own process group, a fresh persist
 * directory, free ports), waits for /health, then runs N clients for T seconds,
 * mixing /snowflake/:workerId (single and batches), /snowflake (auto), /ulid
 * (both formats) and /uuidv7, GET and POST, JSON and text/plain. With --crashes K
 * it SIGKILLs the server's whole process group K times mid-load and restarts it on
 * the same persist directory. Checked, for every answer:
 *
 *   - no 5xx, no other unexpected status, no failed request except those cut by a crash;
 *   - every answer's IDs well-formed, of the asked number, strictly increasing;
 *   - Snowflake: the worker ID bits are the worker ID asked for (or named); each
 *     answer's smallest ID is above the largest ID of every answer for that worker
 *     ID that completed before this request was sent (answers to concurrent
 *     requests may complete out of order, so only completed-before-sent counts);
 *   - after each restart, a probe of every worker ID is above everything before it;
 *   - no duplicate ID, per kind, over the whole run (all IDs kept, 8 bytes per
 *     Snowflake and 16 per ULID/UUID, sorted at the end);
 *   - the time in each ID is within the run.
 *
 * Prints a summary and exits 1 on any violation (2 on a setup failure). Bounded:
 * loops end by count or deadline, a watchdog ends the run, and whatever it started
 * is killed on exit, error, SIGINT and SIGTERM.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { freePort } from "./lib/ports";

const HELP = `usage: npm run test:load -- [options]
  --duration S         seconds of load (default 20, at most 3600)
  --clients N          concurrent clients (default 16, at most 256)
  --crashes K          SIGKILL + restart the server K times mid-load (default 0)
  --worker-ids LIST    worker IDs the clients name, e.g. 0-7 or 1,5,9 (default 0-7)
  --max-batch N        largest count asked for (default 1000)
  --seed N             seed of the request mix (default: random, printed)
  --startup-timeout S  seconds to wait for /health after each start (default 90)
  --request-timeout S  seconds before a request counts as failed (default 20)
  --json               also print the summary as one JSON line
  --keep               keep the persist directory
  --verbose            stream wrangler's output`;

// ---------------------------------------------------------------- options

const { values: opts } = parseArgs({
	options: {
		duration: { type: "string", default: "20" },
		clients: { type: "string", default: "16" },
		crashes: { type: "string", default: "0" },
		"worker-ids": { type: "string", default: "0-7" },
		"max-batch": { type: "string", default: "1000" },
		seed: { type: "string" },
		"startup-timeout": { type: "string", default: "90" },
		"request-timeout": { type: "string", default: "20" },
		json: { type: "boolean", default: false },
		keep: { type: "boolean", default: false },
		verbose: { type: "boolean", default: false },
		help: { type: "boolean", default: false },
	},
	strict: true,
});

if (opts.help) {
	console.log(HELP);
	process.exit(0);
}

function intOption(name: keyof typeof opts, min: number, max: number): number {
	const raw = String(opts[name]);
	const value = Number(raw);
	if (!/^[0-9]+$/.test(raw) || value < min || value > max) {
		console.error(`--${name} must be an integer in [${min}, ${max}], got ${raw}\n\n${HELP}`);
		process.exit(2);
	}
	return value;
}

function workerIdList(raw: string): number[] {
	const ids = new Set<number>();
	for (const part of raw.split(",")) {
		const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
		const from = Number(match?.[1]);
		const to = match?.[2] === undefined ? from : Number(match[2]);
		if (!match || from > to || to > 1023) {
			console.error(`--worker-ids must be IDs and ranges in [0, 1023], got ${raw}`);
			process.exit(2);
		}
		for (let id = from; id <= to; id++) ids.add(id);
	}
	return [...ids];
}

const DURATION_S = intOption("duration", 1, 3600);
const CLIENTS = intOption("clients", 1, 256);
const CRASHES = intOption("crashes", 0, 50);
const MAX_BATCH = intOption("max-batch", 1, 10_000);
const STARTUP_TIMEOUT_S = intOption("startup-timeout", 5, 600);
const REQUEST_TIMEOUT_S = intOption("request-timeout", 1, 600);
const WORKER_IDS = workerIdList(String(opts["worker-ids"]));
const SEED =
	opts.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : intOption("seed", 0, 2 ** 31);

const REPO = fileURLToPath(new URL("..", import.meta.url));
const WRANGLER = join(REPO, "node_modules", "wrangler", "bin", "wrangler.js");

// ---------------------------------------------------------------- small tools

/** mulberry32: a small seeded PRNG, so a request mix can be replayed with --seed. */
function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
const random = prng(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** IDs kept compactly: 64-bit values in chunks of 1 M (8 MB). */
class U64Store {
	private chunks: BigUint64Array[] = [];
	private used = 0;
	length = 0;
	push(value: bigint) {
		let chunk = this.chunks.at(-1);
		if (!chunk || this.used === chunk.length) {
			chunk = new BigUint64Array(1 << 20);
			this.chunks.push(chunk);
			this.used = 0;
		}
		chunk[this.used++] = value;
		this.length++;
	}
	/** All values, in insertion order, in one new array. */
	toArray(): BigUint64Array {
		const all = new BigUint64Array(this.length);
		let offset = 0;
		for (const chunk of this.chunks) {
			const n = Math.min(chunk.length, this.length - offset);
			all.set(chunk.subarray(0, n), offset);
			offset += n;
		}
		return all;
	}
}

/** Values that occur more than once in a sorted copy of `values`, with their extra counts. */
function repeatedValues(values: BigUint64Array): Map<bigint, number> {
	const sorted = values.slice().sort();
	const repeated = new Map<bigint, number>();
	for (let i = 1; i < sorted.length; i++) {
		if (sorted[i] === sorted[i - 1]) {
			const v = sorted[i] as bigint;
			repeated.set(v, (repeated.get(v) ?? 0) + 1);
		}
	}
	return repeated;
}

/** 128-bit IDs as two 64-bit halves; duplicates are found on the low half, then confirmed. */
class U128Store {
	readonly hi = new U64Store();
	readonly lo = new U64Store();
	get length() {
		return this.lo.length;
	}
	push(value: bigint) {
		this.hi.push(value >> 64n);
		this.lo.push(value & 0xffff_ffff_ffff_ffffn);
	}
	duplicates(): number {
		const los = this.lo.toArray();
		const candidates = repeatedValues(los);
		if (candidates.size === 0) return 0;
		const his = this.hi.toArray();
		const seen = new Set<string>();
		let duplicates = 0;
		for (let i = 0; i < los.length; i++) {
			if (!candidates.has(los[i] as bigint)) continue;
			const key = `${his[i]}:${los[i]}`;
			if (seen.has(key)) duplicates++;
			else seen.add(key);
		}
		return duplicates;
	}
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CROCKFORD_VALUE = new Map([...CROCKFORD].map((c, i) => [c, BigInt(i)]));
const ULID_TEXT = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SNOWFLAKE_TEXT = /^[0-9]{1,19}$/;

function ulidValue(text: string): bigint {
	let value = 0n;
	for (const c of text) value = (value << 5n) | (CROCKFORD_VALUE.get(c) as bigint);
	return value;
}
function uuidValue(text: string): bigint {
	return BigInt(`0x${text.replaceAll("-", "")}`);
}

// ---------------------------------------------------------------- the dev server

class DevServer {
	child: ChildProcess | undefined;
	pid: number | undefined;
	port = 0;
	/** Incremented at every kill: a request sent in an earlier generation may be cut. */
	generation = 0;
	up = false;
	private readyPromise: Promise<void> = Promise.resolve();
	private release: () => void = () => {};
	private log: string[] = [];
	starts = 0;

	constructor(private readonly persistDir: string) {}

	/** Resolves while the server is up; clients wait on it during a restart. */
	ready(): Promise<void> {
		return this.readyPromise;
	}

	url(path: string): string {
		return `http://127.0.0.1:${this.port}${path}`;
	}

	recentLog(): string {
		return this.log.slice(-40).join("");
	}

	async start(): Promise<number> {
		const started = Date.now();
		this.port = await freePort();
		const inspectorPort = await freePort();
		const args = [
			WRANGLER,
			"dev",
			"--port",
			String(this.port),
			"--ip",
			"127.0.0.1",
			"--inspector-port",
			String(inspectorPort),
			"--persist-to",
			this.persistDir,
			"--log-level",
			"warn",
			"--show-interactive-dev-session=false",
		];
		const child = spawn(process.execPath, args, {
			cwd: REPO,
			detached: true, // its own process group, so the whole tree can be killed by PID
			stdio: ["ignore", "pipe", "pipe"],
			env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
		});
		this.child = child;
		this.pid = child.pid;
		this.starts++;
		const keep = (chunk: Buffer) => {
			const text = chunk.toString();
			if (opts.verbose) process.stderr.write(text);
			this.log.push(text);
			if (this.log.length > 200) this.log.splice(0, 100);
		};
		child.stdout?.on("data", keep);
		child.stderr?.on("data", keep);

		const deadline = Date.now() + STARTUP_TIMEOUT_S * 1000;
		while (Date.now() < deadline) {
			if (child.exitCode !== null || child.signalCode !== null) {
				throw new Error(`wrangler dev exited during startup:\n${this.recentLog()}`);
			}
			try {
				const response = await fetch(this.url("/health"), { signal: AbortSignal.timeout(2_000) });
				const body = (await response.json()) as { status?: string };
				if (response.status === 200 && body.status === "ok") {
					this.up = true;
					this.release();
					return Date.now() - started;
				}
			} catch {
				// not listening yet
			}
			await sleep(200);
		}
		throw new Error(
			`wrangler dev did not answer /health within ${STARTUP_TIMEOUT_S} s:\n${this.recentLog()}`,
		);
	}

	/** Kills the whole process group and waits until every process in it is gone. */
	async kill(signal: NodeJS.Signals): Promise<void> {
		const pid = this.pid;
		if (pid === undefined) return;
		this.generation++;
		this.up = false;
		this.readyPromise = new Promise((resolve) => {
			this.release = resolve;
		});
		const alive = () => {
			try {
				process.kill(-pid, 0);
				return true;
			} catch {
				return false;
			}
		};
		try {
			process.kill(-pid, signal);
		} catch {
			// already gone
		}
		const deadline = Date.now() + (signal === "SIGKILL" ? 10_000 : 5_000);
		while (alive() && Date.now() < deadline) await sleep(50);
		if (alive()) {
			try {
				process.kill(-pid, "SIGKILL");
			} catch {
				// gone meanwhile
			}
			const hard = Date.now() + 10_000;
			while (alive() && Date.now() < hard) await sleep(50);
		}
		if (alive()) throw new Error(`process group ${pid} survived SIGKILL`);
		this.pid = undefined;
		this.child = undefined;
	}

	/** Last resort on exit: synchronous, best effort. */
	killNow() {
		if (this.pid === undefined) return;
		try {
			process.kill(-this.pid, "SIGKILL");
		} catch {
			// gone
		}
	}

	/** Lets waiting clients go (used when the run ends while the server is down). */
	releaseWaiters() {
		this.release();
	}
}

// ---------------------------------------------------------------- the checks

interface Layout {
	epoch: number;
	workerBits: number;
	sequenceBits: number;
	timeUnitMs: number;
	maxWorkerId: number;
}

const stats = {
	requests: 0,
	ok: 0,
	idsChecked: { snowflake: 0, ulid: 0, uuidv7: 0 },
	duplicates: { snowflake: 0, ulid: 0, uuidv7: 0 },
	outOfOrderInAnswer: 0,
	outOfOrderAcrossAnswers: 0,
	belowEarlierAfterRestart: 0,
	wrongWorkerId: 0,
	malformed: 0,
	timeOutOfRange: 0,
	status5xx: 0,
	otherStatus: 0,
	transportErrors: 0,
	cutByCrash: 0,
	crashes: 0,
	restartMs: [] as number[],
	postRestartProbes: 0,
	acrossAnswerChecks: 0,
	statusCounts: new Map<number, number>(),
	firstViolations: [] as string[],
	maxRssMb: 0,
};

function violation(kind: keyof typeof stats, detail: string) {
	(stats[kind] as number)++;
	if (stats.firstViolations.length < 20) stats.firstViolations.push(`${kind}: ${detail}`);
}

const snowflakes = new U64Store();
const ulids = new U128Store();
const uuids = new U128Store();
/** Per worker ID, the largest Snowflake of any completed answer (-1: none yet). */
let completedMax: bigint[] = [];

let layout: Layout;
let runStart = 0;
let inFlight = 0;

type Kind = "snowflake" | "auto" | "ulid" | "uuidv7";
interface Op {
	kind: Kind;
	workerId?: number;
	count: number;
	method: "GET" | "POST";
	text: boolean;
	format?: "ulid" | "uuid";
}

function nextOp(): Op {
	const r = random();
	const kind: Kind = r < 0.45 ? "snowflake" : r < 0.55 ? "auto" : r < 0.77 ? "ulid" : "uuidv7";
	const c = random();
	const count =
		c < 0.4
			? 1
			: c < 0.8
				? 2 + Math.floor(random() * Math.min(99, MAX_BATCH))
				: 1 + Math.floor(random() * MAX_BATCH);
	const op: Op = {
		kind,
		count: Math.min(count, MAX_BATCH),
		method: random() < 0.5 ? "GET" : "POST",
		text: random() < 0.15,
	};
	if (kind === "snowflake") op.workerId = pick(WORKER_IDS);
	if (kind === "ulid") op.format = random() < 0.3 ? "uuid" : "ulid";
	return op;
}

function pathOf(op: Op): string {
	const count = `count=${op.count}`;
	switch (op.kind) {
		case "snowflake":
			return `/snowflake/${op.workerId}?${count}`;
		case "auto":
			return `/snowflake?${count}`;
		case "ulid":
			return `/ulid?${count}&format=${op.format}`;
		case "uuidv7":
			return `/uuidv7?${count}`;
	}
}

function checkTime(ms: number, what: string) {
	// IDs are made from the server's clock (this machine's); a restarted object may
	// wait out its lease, never issue ahead of the clock by more than a tick.
	if (ms < runStart - 5_000 || ms > Date.now() + 1_000) {
		violation("timeOutOfRange", `${what} carries time ${new Date(ms).toISOString()}`);
	}
}

function checkSnowflakes(
	op: Op,
	ids: string[],
	namedWorkerId: number | undefined,
	floorOf: (workerId: number) => bigint,
) {
	const sequenceShift = BigInt(layout.sequenceBits);
	const timeShift = BigInt(layout.workerBits + layout.sequenceBits);
	const workerMask = BigInt(layout.maxWorkerId);
	let previous = -1n;
	let workerId = op.workerId ?? namedWorkerId;
	let max = -1n;
	let min = -1n;
	for (const text of ids) {
		if (!SNOWFLAKE_TEXT.test(text) || BigInt(text) >= 2n ** 63n) {
			violation("malformed", `snowflake ${text}`);
			return;
		}
		const id = BigInt(text);
		const idWorker = Number((id >> sequenceShift) & workerMask);
		workerId ??= idWorker; // text/plain answers of the auto route name no worker ID
		if (idWorker !== workerId)
			violation("wrongWorkerId", `${text} has worker ${idWorker}, not ${workerId}`);
		if (id <= previous) violation("outOfOrderInAnswer", `snowflake ${text} after ${previous}`);
		previous = id;
		if (min < 0n) min = id;
		max = id;
		snowflakes.push(id);
	}
	stats.idsChecked.snowflake += ids.length;
	if (min < 0n || workerId === undefined) return;
	checkTime(layout.epoch + Number(min >> timeShift) * layout.timeUnitMs, `snowflake ${min}`);
	const floor = floorOf(workerId);
	stats.acrossAnswerChecks++;
	if (min <= floor) {
		violation(
			"outOfOrderAcrossAnswers",
			`worker ${workerId}: ${min} is not above ${floor}, completed before this request was sent`,
		);
	}
	if (max > (completedMax[workerId] ?? -1n)) completedMax[workerId] = max;
}

function check128(kind: "ulid" | "uuidv7", ids: string[], format: "ulid" | "uuid") {
	let previous = -1n;
	const store = kind === "ulid" ? ulids : uuids;
	for (const text of ids) {
		const asUlid = format === "ulid";
		const wellFormed = asUlid ? ULID_TEXT.test(text) : UUID_TEXT.test(text);
		if (
			!wellFormed ||
			(kind === "uuidv7" && (text[14] !== "7" || !"89ab".includes(text[19] ?? "")))
		) {
			violation("malformed", `${kind} ${text}`);
			return;
		}
		const value = asUlid ? ulidValue(text) : uuidValue(text);
		if (value <= previous) violation("outOfOrderInAnswer", `${kind} ${text}`);
		previous = value;
		store.push(value);
	}
	stats.idsChecked[kind] += ids.length;
	if (previous >= 0n) checkTime(Number(previous >> 80n), `${kind} ${ids.at(-1)}`);
}

async function send(server: DevServer, op: Op): Promise<void> {
	const path = pathOf(op);
	const generation = server.generation;
	// What this answer must be above: the answers that completed before it was sent.
	let floorOf: (workerId: number) => bigint;
	if (op.workerId === undefined) {
		const snapshot = completedMax.slice(); // the auto route may pick any worker ID
		floorOf = (workerId) => snapshot[workerId] ?? -1n;
	} else {
		const floor = completedMax[op.workerId] ?? -1n;
		floorOf = () => floor;
	}
	stats.requests++;
	inFlight++;
	let status = 0;
	let body = "";
	let type = "";
	try {
		const response = await fetch(server.url(path), {
			method: op.method,
			headers: op.text ? { Accept: "text/plain" } : {},
			signal: AbortSignal.timeout(REQUEST_TIMEOUT_S * 1000),
		});
		status = response.status;
		type = response.headers.get("Content-Type") ?? "";
		body = await response.text();
	} catch (error) {
		if (server.generation !== generation || !server.up) stats.cutByCrash++;
		else violation("transportErrors", `${op.method} ${path}: ${(error as Error).message}`);
		return;
	} finally {
		inFlight--;
	}
	stats.statusCounts.set(status, (stats.statusCounts.get(status) ?? 0) + 1);
	if (status >= 500) {
		violation("status5xx", `${op.method} ${path} → ${status} ${body.slice(0, 200)}`);
		return;
	}
	if (status !== 200) {
		violation("otherStatus", `${op.method} ${path} → ${status} ${body.slice(0, 200)}`);
		return;
	}
	stats.ok++;
	let ids: string[];
	let named: number | undefined;
	try {
		if (type.startsWith("text/plain")) {
			ids = body.endsWith("\n") ? body.slice(0, -1).split("\n") : [body];
		} else {
			const json = JSON.parse(body) as { type: string; ids: string[]; workerId?: number };
			const expected = op.kind === "auto" ? "snowflake" : op.kind;
			if (json.type !== expected) throw new Error(`type ${json.type}`);
			ids = json.ids;
			named = json.workerId;
		}
	} catch (error) {
		violation("malformed", `${path}: ${(error as Error).message}`);
		return;
	}
	if (ids.length !== op.count) {
		violation("malformed", `${path}: ${ids.length} IDs`);
		return;
	}
	if (op.kind === "snowflake" || op.kind === "auto") {
		checkSnowflakes(op, ids, named, floorOf);
	} else {
		check128(op.kind, ids, op.kind === "ulid" ? (op.format ?? "ulid") : "uuid");
	}
}

// ---------------------------------------------------------------- the run

let server: DevServer | undefined;
let persistDir: string | undefined;
let cleaningUp: Promise<void> | undefined;

function cleanup(): Promise<void> {
	cleaningUp ??= (async () => {
		server?.releaseWaiters();
		try {
			await server?.kill("SIGTERM");
		} catch (error) {
			console.error(`could not stop wrangler dev: ${(error as Error).message}`);
			server?.killNow();
		}
		if (persistDir && !opts.keep) rmSync(persistDir, { recursive: true, force: true });
	})();
	return cleaningUp;
}

process.on("exit", () => server?.killNow());
for (const signal of ["SIGINT", "SIGTERM"] as const) {
	process.on(signal, () => {
		console.error(`\n${signal}: stopping`);
		void cleanup().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
	});
}
process.on("unhandledRejection", (error) => {
	console.error("unhandled rejection:", error);
	void cleanup().finally(() => process.exit(2));
});

async function probeEveryWorkerId(target: DevServer) {
	for (const workerId of WORKER_IDS) {
		stats.postRestartProbes++;
		const before = stats.outOfOrderAcrossAnswers;
		await send(target, { kind: "snowflake", workerId, count: 1, method: "GET", text: false });
		if (stats.outOfOrderAcrossAnswers > before) stats.belowEarlierAfterRestart++;
	}
}

async function main() {
	if (!existsSync(WRANGLER)) {
		console.error(`wrangler not found at ${WRANGLER}; run npm install`);
		process.exit(2);
	}
	persistDir = mkdtempSync(join(tmpdir(), "edge-ids-load-"));
	const dev = new DevServer(persistDir);
	server = dev;
	console.log(
		`load test: ${DURATION_S} s, ${CLIENTS} clients, ${CRASHES} crashes, worker IDs ${WORKER_IDS.join(",")}, batches up to ${MAX_BATCH}, seed ${SEED}`,
	);
	const firstStartMs = await dev.start();
	console.log(
		`wrangler dev up on 127.0.0.1:${dev.port} in ${(firstStartMs / 1000).toFixed(1)} s (persist ${persistDir})`,
	);
	layout = (await (await fetch(dev.url("/layout"))).json()) as Layout;
	completedMax = new Array<bigint>(layout.maxWorkerId + 1).fill(-1n);
	if (WORKER_IDS.some((id) => id > layout.maxWorkerId)) {
		throw new Error(`--worker-ids must be at most ${layout.maxWorkerId} under this layout`);
	}
	runStart = Date.now();

	const loadEnd = runStart + DURATION_S * 1000;
	const watchdog = setTimeout(
		() => {
			console.error("watchdog: the run overran its time bound; stopping");
			void cleanup().finally(() => process.exit(2));
		},
		(DURATION_S + (CRASHES + 2) * (STARTUP_TIMEOUT_S + 30) + 60) * 1000,
	);
	watchdog.unref();

	let stopping = false;
	const memory = setInterval(() => {
		stats.maxRssMb = Math.max(stats.maxRssMb, process.memoryUsage.rss() / 2 ** 20);
	}, 1000);
	memory.unref();

	const clients = Array.from({ length: CLIENTS }, async () => {
		while (!stopping && Date.now() < loadEnd) {
			await dev.ready();
			if (stopping || Date.now() >= loadEnd) break;
			await send(dev, nextOp());
		}
	});

	// Crashes at evenly spaced moments, each jittered within its slot.
	for (let i = 1; i <= CRASHES && !stopping; i++) {
		const slot = (DURATION_S * 1000) / (CRASHES + 1);
		const at = runStart + slot * i + (random() - 0.5) * slot * 0.4;
		while (Date.now() < at && !stopping) await sleep(Math.min(100, at - Date.now()));
		if (Date.now() >= loadEnd) break;
		const cutOff = inFlight;
		await dev.kill("SIGKILL");
		stats.crashes++;
		console.log(
			`crash ${i}: SIGKILLed the server's process group at ${((Date.now() - runStart) / 1000).toFixed(1)} s (${stats.requests} requests so far, ${cutOff} in flight)`,
		);
		try {
			const ms = await dev.start();
			stats.restartMs.push(ms);
			console.log(
				`  restarted on the same persist directory in ${(ms / 1000).toFixed(1)} s; probing every worker ID`,
			);
			await probeEveryWorkerId(dev);
		} catch (error) {
			violation("transportErrors", `restart ${i} failed: ${(error as Error).message}`);
			stopping = true;
			dev.releaseWaiters();
		}
	}
	await Promise.all(clients);
	stopping = true;
	clearInterval(memory);
	if (dev.up) await probeEveryWorkerId(dev); // the final state, too
	stats.maxRssMb = Math.max(stats.maxRssMb, process.memoryUsage.rss() / 2 ** 20);
	const loadSeconds = (Date.now() - runStart) / 1000;

	const sortStart = Date.now();
	stats.duplicates.snowflake = [...repeatedValues(snowflakes.toArray()).values()].reduce(
		(a, b) => a + b,
		0,
	);
	stats.duplicates.ulid = ulids.duplicates();
	stats.duplicates.uuidv7 = uuids.duplicates();
	const sortSeconds = (Date.now() - sortStart) / 1000;
	clearTimeout(watchdog);
	await cleanup();
	report(loadSeconds, sortSeconds);
}

function report(loadSeconds: number, sortSeconds: number) {
	const ids = stats.idsChecked.snowflake + stats.idsChecked.ulid + stats.idsChecked.uuidv7;
	const duplicates = stats.duplicates.snowflake + stats.duplicates.ulid + stats.duplicates.uuidv7;
	const violations =
		duplicates +
		stats.outOfOrderInAnswer +
		stats.outOfOrderAcrossAnswers +
		stats.wrongWorkerId +
		stats.malformed +
		stats.timeOutOfRange +
		stats.status5xx +
		stats.otherStatus +
		stats.transportErrors;
	const n = (x: number) => x.toLocaleString("en-US");
	const statuses = [...stats.statusCounts]
		.sort(([a], [b]) => a - b)
		.map(([s, c]) => `${s}: ${n(c)}`);
	const lines = [
		"",
		"summary",
		`  requests sent            ${n(stats.requests)} (${n(Math.round(stats.requests / loadSeconds))}/s over ${loadSeconds.toFixed(1)} s; answers ${statuses.join(", ") || "none"})`,
		`  IDs checked              ${n(ids)} (snowflake ${n(stats.idsChecked.snowflake)}, ulid ${n(stats.idsChecked.ulid)}, uuidv7 ${n(stats.idsChecked.uuidv7)}; ${n(Math.round(ids / loadSeconds))}/s)`,
		`  duplicates               ${n(duplicates)} (snowflake ${stats.duplicates.snowflake}, ulid ${stats.duplicates.ulid}, uuidv7 ${stats.duplicates.uuidv7}; sorted in ${sortSeconds.toFixed(1)} s)`,
		`  out of order in answer   ${n(stats.outOfOrderInAnswer)}`,
		`  out of order across      ${n(stats.outOfOrderAcrossAnswers)} of ${n(stats.acrossAnswerChecks)} answers checked against earlier ones`,
		`  wrong worker ID          ${n(stats.wrongWorkerId)}`,
		`  malformed / bad time     ${n(stats.malformed)} / ${n(stats.timeOutOfRange)}`,
		`  5xx                      ${n(stats.status5xx)}`,
		`  other unexpected status  ${n(stats.otherStatus)}`,
		`  failed requests          ${n(stats.transportErrors)} (plus ${n(stats.cutByCrash)} cut by a crash, expected)`,
		`  crashes survived         ${stats.crashes} of ${CRASHES} (restarts ${stats.restartMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(", ") || "-"}; ${stats.postRestartProbes} probes after restarts and at the end, ${stats.belowEarlierAfterRestart} below an earlier ID)`,
		`  client memory            ${stats.maxRssMb.toFixed(0)} MB RSS at most`,
		`  seed                     ${SEED}`,
		"",
		violations === 0 && stats.crashes === CRASHES
			? "PASS: no duplicates, no reordering, no 5xx"
			: `FAIL: ${violations} violations${stats.crashes < CRASHES ? `, ${CRASHES - stats.crashes} crashes not done` : ""}`,
	];
	for (const detail of stats.firstViolations) lines.push(`  ${detail}`);
	console.log(lines.join("\n"));
	if (opts.json) {
		console.log(
			JSON.stringify({
				...stats,
				statusCounts: Object.fromEntries(stats.statusCounts),
				loadSeconds,
				idsChecked: { ...stats.idsChecked, total: ids },
				violations,
				seed: SEED,
				duration: DURATION_S,
				clients: CLIENTS,
			}),
		);
	}
	process.exitCode = violations === 0 && stats.crashes === CRASHES ? 0 : 1;
}

main().catch(async (error) => {
	console.error(`load test could not run: ${(error as Error).message}`);
	await cleanup();
	process.exit(2);
});
