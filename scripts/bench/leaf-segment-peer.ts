/**
 * The Leaf-segment peer for `npm run bench:sequences`: numbers handed out as
 * Meituan Leaf's segment mode does it (SegmentIDGenImpl), over `node:sqlite`
 * instead of MySQL, so the benchmark compares sequences with what teams run today.
 *
 * - A table `leaf_alloc (biz_tag, max_id, step)`; a segment is one transaction:
 *   `UPDATE … SET max_id = max_id + step`, then the row read back: the segment is
 *   `[max_id - step, max_id)`.
 * - Per tag, two segments (Leaf's double buffer): once less than 90 % of the
 *   current one is left, the next is loaded off the request path (Leaf's update
 *   thread; here the next turn of the event loop); a request that runs out first
 *   loads it itself (Leaf's waiting thread).
 * - Leaf's dynamic step: doubled (up to 1,000,000) when the last segment lasted
 *   under 15 minutes, halved (not below the table's step) past 30.
 * - Tags are created on first use (Leaf needs the row inserted by hand).
 *
 *   GET /next?tag=orders&count=3  →  {"tag":"orders","numbers":[1,2,3]}
 *
 * Usage: tsx scripts/bench/leaf-segment-peer.ts --port 8790 [--db leaf.sqlite] [--step 1000]
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { pathToFileURL } from "node:url";

/** Leaf's bounds: the largest step, and how long a segment should last. */
const MAX_STEP = 1_000_000;
const SEGMENT_DURATION_MS = 15 * 60 * 1000;
const MAX_COUNT = 10_000;

export interface LeafPeerOptions {
	/** Loopback port; 0 lets the system choose. */
	port: number;
	/** SQLite file; ":memory:" (the default) forgets everything on close. */
	database?: string;
	/** The step a new tag's row gets (Leaf's `step` column). Default 1000. */
	step?: number;
}

export interface LeafPeer {
	port: number;
	url: string;
	close(): Promise<void>;
}

interface Segment {
	/** The next number to hand out. */
	value: number;
	/** The first number past the segment. */
	max: number;
	step: number;
}

interface SegmentBuffer {
	segments: [Segment, Segment];
	current: 0 | 1;
	nextReady: boolean;
	/** The next segment's load, scheduled and not yet run. */
	loading: NodeJS.Immediate | undefined;
	step: number;
	minStep: number;
	/** When the last segment was loaded (0: not since the first). */
	updatedAt: number;
	loaded: boolean;
}

/** Leaf's table and its two updates, each in a transaction. */
class LeafAllocTable {
	private readonly insert: StatementSync;
	private readonly byStep: StatementSync;
	private readonly byCustomStep: StatementSync;
	private readonly read: StatementSync;

	constructor(
		private readonly db: DatabaseSync,
		private readonly defaultStep: number,
	) {
		db.exec(
			"CREATE TABLE IF NOT EXISTS leaf_alloc (biz_tag TEXT PRIMARY KEY, max_id INTEGER NOT NULL DEFAULT 1, step INTEGER NOT NULL, update_time INTEGER NOT NULL DEFAULT 0)",
		);
		this.insert = db.prepare(
			"INSERT OR IGNORE INTO leaf_alloc (biz_tag, max_id, step) VALUES (?, 1, ?)",
		);
		this.byStep = db.prepare(
			"UPDATE leaf_alloc SET max_id = max_id + step, update_time = ? WHERE biz_tag = ?",
		);
		this.byCustomStep = db.prepare(
			"UPDATE leaf_alloc SET max_id = max_id + ?, update_time = ? WHERE biz_tag = ?",
		);
		this.read = db.prepare("SELECT max_id, step FROM leaf_alloc WHERE biz_tag = ?");
	}

	create(tag: string): void {
		this.insert.run(tag, this.defaultStep);
	}

	/** Moves max_id by the row's step (or `step`) and answers the row. */
	update(tag: string, step?: number): { maxId: number; step: number } {
		this.db.exec("BEGIN IMMEDIATE");
		try {
			if (step === undefined) this.byStep.run(Date.now(), tag);
			else this.byCustomStep.run(step, Date.now(), tag);
			const row = this.read.get(tag) as { max_id: number; step: number };
			this.db.exec("COMMIT");
			return { maxId: row.max_id, step: row.step };
		} catch (error) {
			this.db.exec("ROLLBACK");
			throw error;
		}
	}
}

/** Leaf's SegmentIDGenImpl: a double buffer of segments per tag. */
class SegmentIdGen {
	private readonly buffers = new Map<string, SegmentBuffer>();

	constructor(private readonly table: LeafAllocTable) {}

	next(tag: string): number {
		let buffer = this.buffers.get(tag);
		if (!buffer) {
			this.table.create(tag);
			buffer = newBuffer();
			this.buffers.set(tag, buffer);
		}
		if (!buffer.loaded) {
			this.load(tag, buffer, buffer.segments[buffer.current]);
			buffer.loaded = true;
		}
		for (;;) {
			const segment = buffer.segments[buffer.current];
			if (
				!buffer.nextReady &&
				!buffer.loading &&
				segment.max - segment.value < 0.9 * segment.step
			) {
				const ready = buffer;
				buffer.loading = setImmediate(() => this.loadNext(tag, ready));
			}
			if (segment.value < segment.max) return segment.value++;
			// The current segment is used up: wait for the next (here: load it now).
			if (buffer.loading) {
				clearImmediate(buffer.loading);
				this.loadNext(tag, buffer);
			}
			if (!buffer.nextReady) throw new Error(`both segments of ${tag} are empty`);
			buffer.current = buffer.current === 0 ? 1 : 0;
			buffer.nextReady = false;
		}
	}

	private loadNext(tag: string, buffer: SegmentBuffer): void {
		buffer.loading = undefined;
		this.load(tag, buffer, buffer.segments[buffer.current === 0 ? 1 : 0]);
		buffer.nextReady = true;
	}

	/** Leaf's updateSegmentFromDb: the step follows how long the last segment lasted. */
	private load(tag: string, buffer: SegmentBuffer, segment: Segment): void {
		let row: { maxId: number; step: number };
		if (!buffer.loaded || buffer.updatedAt === 0) {
			row = this.table.update(tag);
			if (buffer.loaded) buffer.updatedAt = Date.now();
			buffer.step = row.step;
			buffer.minStep = row.step;
		} else {
			const lasted = Date.now() - buffer.updatedAt;
			let step = buffer.step;
			if (lasted < SEGMENT_DURATION_MS) step = step * 2 > MAX_STEP ? step : step * 2;
			else if (lasted >= SEGMENT_DURATION_MS * 2)
				step = step / 2 >= buffer.minStep ? step / 2 : step;
			row = this.table.update(tag, step);
			buffer.updatedAt = Date.now();
			buffer.step = step;
			buffer.minStep = row.step;
		}
		segment.value = row.maxId - buffer.step;
		segment.max = row.maxId;
		segment.step = buffer.step;
	}
}

function newBuffer(): SegmentBuffer {
	const empty = (): Segment => ({ value: 0, max: 0, step: 0 });
	return {
		segments: [empty(), empty()],
		current: 0,
		nextReady: false,
		loading: undefined,
		step: 0,
		minStep: 0,
		updatedAt: 0,
		loaded: false,
	};
}

function answer(response: ServerResponse, status: number, body: unknown): void {
	response.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
	response.end(JSON.stringify(body));
}

function handler(gen: SegmentIdGen) {
	return (request: IncomingMessage, response: ServerResponse) => {
		const url = new URL(request.url ?? "/", "http://peer");
		if (url.pathname === "/health") return answer(response, 200, { status: "ok" });
		if (url.pathname !== "/next") {
			return answer(response, 404, {
				error: { code: "not_found", message: "GET /next?tag=…&count=N" },
			});
		}
		const tag = url.searchParams.get("tag") ?? "";
		const count = Number(url.searchParams.get("count") ?? 1);
		if (
			!/^[A-Za-z0-9._-]{1,64}$/.test(tag) ||
			!Number.isInteger(count) ||
			count < 1 ||
			count > MAX_COUNT
		) {
			return answer(response, 400, {
				error: {
					code: "invalid_request",
					message: `tag: 1-64 of A-Z a-z 0-9 . _ -; count in [1, ${MAX_COUNT}]`,
				},
			});
		}
		const numbers = new Array<number>(count);
		for (let i = 0; i < count; i++) numbers[i] = gen.next(tag);
		answer(response, 200, { tag, numbers });
	};
}

/** Starts the peer on 127.0.0.1:`port`. */
export function startLeafSegmentPeer(options: LeafPeerOptions): Promise<LeafPeer> {
	const db = new DatabaseSync(options.database ?? ":memory:");
	const gen = new SegmentIdGen(new LeafAllocTable(db, options.step ?? 1000));
	const server = createServer(handler(gen));
	return new Promise((resolve, reject) => {
		server.once("error", reject);
		server.listen(options.port, "127.0.0.1", () => {
			const { port } = server.address() as AddressInfo;
			resolve({
				port,
				url: `http://127.0.0.1:${port}`,
				close: () =>
					new Promise((done) => {
						server.close(() => {
							db.close();
							done();
						});
						server.closeAllConnections();
					}),
			});
		});
	});
}

/** `--name value` from the command line, if given. */
function option(name: string): string | undefined {
	const at = process.argv.indexOf(`--${name}`);
	return at < 0 ? undefined : process.argv[at + 1];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
	const port = Number(option("port") ?? 8790);
	const step = option("step");
	const peer = await startLeafSegmentPeer({
		port,
		database: option("db"),
		step: step === undefined ? undefined : Number(step),
	});
	console.log(`leaf-segment peer listening on ${peer.url}`);
	for (const signal of ["SIGINT", "SIGTERM"] as const) {
		process.once(signal, () => void peer.close().then(() => process.exit(0)));
	}
}
