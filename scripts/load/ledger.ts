/**
 * What a load run has seen and what it checks of every answer: IDs well-formed,
 * of the right worker ID, increasing within an answer, explicit answers above
 * every answer of their worker ID that completed before the request was sent,
 * auto answers fresh, time within the run, and no ID given twice.
 *
 * Snowflakes are kept as intervals per worker ID (./intervals.ts over the
 * positions of ./snowflake-runs.ts), so a repeat is counted the moment it
 * arrives and a billion IDs handed out in blocks fit in a few megabytes.
 * ULIDs and UUIDv7s are random, not ranges: every one is kept (./id-store.ts)
 * and sorted at the end.
 */
import { U128Store } from "./id-store";
import { IntervalSet } from "./intervals";
import { workerIdList } from "./options";
import { type Layout, type Run, SnowflakeReader } from "./snowflake-runs";

export type { Layout } from "./snowflake-runs";

const SNOWFLAKE_ROUTES = ["explicit", "explicit-blocks", "auto", "auto-blocks"] as const;
export type SnowflakeRoute = (typeof SNOWFLAKE_ROUTES)[number];
export const ROUTES = [...SNOWFLAKE_ROUTES, "ulid", "uuidv7"] as const;
export type Route = (typeof ROUTES)[number];

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CROCKFORD_VALUE = new Map([...CROCKFORD].map((c, i) => [c, BigInt(i)]));
const ULID_TEXT = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Positions count ticks from this long before the run began. */
const BASE_TICK_MARGIN_MS = 60_000;

function ulidValue(text: string): bigint {
	let value = 0n;
	for (const c of text) value = (value << 5n) | (CROCKFORD_VALUE.get(c) as bigint);
	return value;
}
function uuidValue(text: string): bigint {
	return BigInt(`0x${text.replaceAll("-", "")}`);
}

const perRoute = () => Object.fromEntries(ROUTES.map((r) => [r, 0])) as Record<Route, number>;

function newStats() {
	return {
		requests: 0,
		ok: 0,
		/** 200s per route. */
		answered: perRoute(),
		idsChecked: perRoute(),
		duplicates: { snowflake: 0, ulid: 0, uuidv7: 0 },
		outOfOrderInAnswer: 0,
		outOfOrderAcrossAnswers: 0,
		/** Auto IDs whose tick began more than POOL_MAX_AGE_MS before the request was sent. */
		staleAuto: 0,
		belowEarlierAfterRestart: 0,
		wrongWorkerId: 0,
		malformed: 0,
		timeOutOfRange: 0,
		layoutChanged: 0,
		status5xx: 0,
		otherStatus: 0,
		transportErrors: 0,
		cutByCrash: 0,
		/** 503s with Retry-After right after a restart: the designed answer while objects come back. */
		backPressure: 0,
		crashes: 0,
		restartMs: [] as number[],
		configChanges: [] as string[],
		/** Probes of every worker ID (after each restart and at the end) whose answer was checked. */
		postRestartProbes: 0,
		/** Probes that got no answer to check (refused, timed out, malformed). */
		unansweredProbes: 0,
		acrossAnswerChecks: 0,
		statusCounts: new Map<number, number>(),
		firstViolations: [] as string[],
		maxRssMb: 0,
	};
}
/** The counters that are violations. */
export type ViolationKind =
	| "outOfOrderInAnswer"
	| "outOfOrderAcrossAnswers"
	| "staleAuto"
	| "wrongWorkerId"
	| "malformed"
	| "timeOutOfRange"
	| "layoutChanged"
	| "status5xx"
	| "otherStatus"
	| "transportErrors";

/** What the server's settings promise about answers to requests sent now. */
export interface ServerRules {
	/** POOL_MAX_AGE_MS: how old an auto ID's tick may be when its request is sent. */
	poolMaxAgeMs: number;
	/** AUTO_WORKER_IDS when set: the only worker IDs the auto routes may name. */
	autoWorkerIds?: ReadonlySet<number>;
	/** How far ahead of this machine's clock an ID's time may be: the largest LEASE_MS + MAX_BORROW_MS so far, plus 1 s. */
	aheadMs: number;
}

/** One Snowflake answer and what it is checked against (captured when the request was sent). */
export interface SnowflakeAnswer {
	route: SnowflakeRoute;
	/** The worker ID in the path (explicit routes). */
	askedWorkerId?: number;
	/** The worker ID the JSON body names. */
	namedWorkerId?: number;
	/** Unix ms when the request was sent. */
	sentAt: number;
	/** Explicit routes: what the answer must be above (from `floorNow`). */
	floor?: number;
	rules: ServerRules;
}

export class Ledger {
	readonly stats = newStats();
	readonly reader: SnowflakeReader;
	private readonly given = new Map<number, IntervalSet>();
	private readonly ulids = new U128Store();
	private readonly uuids = new U128Store();
	/** Per worker ID, the largest position of any completed answer. */
	private readonly completedMax = new Map<number, number>();
	private rules: ServerRules = { poolMaxAgeMs: 1000, aheadMs: 1000 + 1000 + 5 };
	private largestLeaseMs = 1000;
	private largestBorrowMs = 5;

	constructor(
		readonly layout: Layout,
		/** Unix ms when the load began: no ID may carry an earlier time (less 5 s of slack). */
		readonly runStart: number,
	) {
		const baseTick = Math.floor(
			(runStart - BASE_TICK_MARGIN_MS - layout.epoch) / layout.timeUnitMs,
		);
		this.reader = new SnowflakeReader(layout, baseTick);
	}

	violation(kind: ViolationKind, detail: string) {
		this.stats[kind]++;
		this.note(`${kind}: ${detail}`);
	}
	private note(detail: string) {
		if (this.stats.firstViolations.length < 20) this.stats.firstViolations.push(detail);
	}

	/** The rules for a request sent now (a config change applies from the next restart on). */
	rulesNow(): ServerRules {
		return this.rules;
	}

	/**
	 * The server was restarted with these settings (cumulative, from wrangler.toml's
	 * defaults: POOL_MAX_AGE_MS 1000, LEASE_MS 1000, MAX_BORROW_MS 5, AUTO_WORKER_IDS
	 * the first 32). A lease written before still bounds the lead after this restart,
	 * so the largest lease and borrow so far count.
	 */
	applyConfig(vars: Record<string, string>) {
		const number = (name: string, fallback: number) =>
			vars[name] === undefined ? fallback : Number(vars[name]);
		this.largestLeaseMs = Math.max(this.largestLeaseMs, number("LEASE_MS", 1000));
		this.largestBorrowMs = Math.max(this.largestBorrowMs, number("MAX_BORROW_MS", 5));
		const auto = vars.AUTO_WORKER_IDS?.trim();
		this.rules = {
			poolMaxAgeMs: number("POOL_MAX_AGE_MS", 1000),
			autoWorkerIds: auto ? new Set(workerIdList(auto)) : undefined,
			aheadMs: 1000 + this.largestLeaseMs + this.largestBorrowMs,
		};
	}

	/** What an explicit answer to a request sent now must be above: every completed answer's IDs. */
	floorNow(workerId: number): number {
		return this.completedMax.get(workerId) ?? Number.NEGATIVE_INFINITY;
	}

	/** Intervals kept over all worker IDs (what the Snowflake ledger's memory grows with). */
	intervals(): number {
		let total = 0;
		for (const set of this.given.values()) total += set.intervals;
		return total;
	}

	private checkTime(ms: number, what: string, rules: ServerRules) {
		// IDs are made from the server's clock (this machine's); an ID may run ahead of
		// it by borrowed time or, after a restart, by the lease.
		if (ms < this.runStart - 5_000 || ms > Date.now() + rules.aheadMs) {
			this.violation("timeOutOfRange", `${what} carries time ${new Date(ms).toISOString()}`);
		}
	}

	/** An answer's Snowflakes as decimal texts (explicit or auto, JSON or text/plain). */
	checkSnowflakeIds(ids: string[], answer: SnowflakeAnswer) {
		const runs = this.reader.runsOfIds(ids);
		if ("malformed" in runs) this.violation("malformed", `snowflake ${runs.malformed}`);
		else this.checkRuns(runs, ids.length, answer);
	}

	/** An answer's blocks `{first, count}`. */
	checkSnowflakeBlocks(blocks: unknown[], answer: SnowflakeAnswer) {
		const runs = this.reader.runsOfBlocks(blocks);
		if ("malformed" in runs) this.violation("malformed", runs.malformed);
		else
			this.checkRuns(
				runs,
				runs.reduce((n, r) => n + r.end - r.start + 1, 0),
				answer,
			);
	}

	/**
	 * One answer's runs, in answer order. An explicit answer must be above every
	 * earlier completed answer of its worker ID; an auto answer comes from a pool or
	 * an auto worker ID's object and is k-sorted instead: its oldest ID's tick began
	 * at most POOL_MAX_AGE_MS before it was sent. Every run is recorded; IDs given
	 * before are counted as duplicates.
	 */
	checkRuns(runs: Run[], count: number, answer: SnowflakeAnswer) {
		const first = runs[0];
		const last = runs.at(-1);
		this.stats.idsChecked[answer.route] += count;
		if (!first || !last) return;
		const { reader } = this;
		const workerId = answer.askedWorkerId ?? answer.namedWorkerId ?? first.workerId;
		const explicit = answer.route === "explicit" || answer.route === "explicit-blocks";
		let previousEnd = Number.NEGATIVE_INFINITY;
		for (const run of runs) {
			if (run.workerId !== workerId) {
				const id = reader.idAt(run.workerId, run.start);
				this.violation("wrongWorkerId", `${id} has worker ${run.workerId}, not ${workerId}`);
				return;
			}
			if (run.start <= previousEnd) {
				const id = reader.idAt(workerId, run.start);
				this.violation(
					"outOfOrderInAnswer",
					`snowflake ${id} after ${reader.idAt(workerId, previousEnd)}`,
				);
			}
			previousEnd = run.end;
		}
		const { rules } = answer;
		if (!explicit && rules.autoWorkerIds && !rules.autoWorkerIds.has(workerId)) {
			this.violation(
				"wrongWorkerId",
				`${answer.route} answer from worker ${workerId}, outside AUTO_WORKER_IDS`,
			);
		}
		const minMs = reader.timeOf(first.start);
		this.checkTime(minMs, `snowflake ${reader.idAt(workerId, first.start)}`, rules);
		if (last.end !== first.start) {
			this.checkTime(
				reader.timeOf(last.end),
				`snowflake ${reader.idAt(workerId, last.end)}`,
				rules,
			);
		}
		if (!explicit && minMs < answer.sentAt - rules.poolMaxAgeMs) {
			this.violation(
				"staleAuto",
				`${answer.route} ${reader.idAt(workerId, first.start)} carries ${new Date(minMs).toISOString()}, over ${rules.poolMaxAgeMs} ms before its request was sent`,
			);
		}
		if (explicit) {
			const floor = answer.floor ?? Number.NEGATIVE_INFINITY;
			this.stats.acrossAnswerChecks++;
			if (first.start <= floor) {
				this.violation(
					"outOfOrderAcrossAnswers",
					`worker ${workerId}: ${reader.idAt(workerId, first.start)} is not above ${reader.idAt(workerId, floor)}, completed before this request was sent`,
				);
			}
		}
		if (last.end > this.floorNow(workerId)) this.completedMax.set(workerId, last.end);
		this.record(runs);
	}

	/** Adds runs to the intervals of their worker IDs; counts what was there already. */
	private record(runs: Run[]) {
		for (const run of runs) {
			let set = this.given.get(run.workerId);
			if (!set) {
				set = new IntervalSet();
				this.given.set(run.workerId, set);
			}
			const repeats = set.add(run.start, run.end);
			if (repeats > 0) {
				this.stats.duplicates.snowflake += repeats;
				const from = this.reader.idAt(run.workerId, run.start);
				this.note(`duplicates: ${repeats} of ${from} (+${run.end - run.start + 1}) given before`);
			}
		}
	}

	/** One answer's ULIDs (as ULIDs or as UUIDs) or UUIDv7s. */
	check128(kind: "ulid" | "uuidv7", ids: string[], format: "ulid" | "uuid", rules: ServerRules) {
		let previous = -1n;
		const store = kind === "ulid" ? this.ulids : this.uuids;
		for (const text of ids) {
			const asUlid = format === "ulid";
			const wellFormed = asUlid ? ULID_TEXT.test(text) : UUID_TEXT.test(text);
			if (
				!wellFormed ||
				(kind === "uuidv7" && (text[14] !== "7" || !"89ab".includes(text[19] ?? "")))
			) {
				this.violation("malformed", `${kind} ${text}`);
				return;
			}
			const value = asUlid ? ulidValue(text) : uuidValue(text);
			if (value <= previous) this.violation("outOfOrderInAnswer", `${kind} ${text}`);
			previous = value;
			store.push(value);
		}
		this.stats.idsChecked[kind] += ids.length;
		if (previous >= 0n) this.checkTime(Number(previous >> 80n), `${kind} ${ids.at(-1)}`, rules);
	}

	/** Sorts the ULIDs and UUIDv7s kept and counts their duplicates; returns the seconds it took. */
	countDuplicates128(): number {
		const started = Date.now();
		this.stats.duplicates.ulid = this.ulids.duplicates();
		this.stats.duplicates.uuidv7 = this.uuids.duplicates();
		return (Date.now() - started) / 1000;
	}

	/** Every ID checked so far. */
	idsChecked(): number {
		return ROUTES.reduce((total, route) => total + this.stats.idsChecked[route], 0);
	}

	/** Every violation counted so far, duplicates included. */
	violations(): number {
		const s = this.stats;
		return (
			s.duplicates.snowflake +
			s.duplicates.ulid +
			s.duplicates.uuidv7 +
			s.outOfOrderInAnswer +
			s.outOfOrderAcrossAnswers +
			s.staleAuto +
			s.wrongWorkerId +
			s.malformed +
			s.timeOutOfRange +
			s.layoutChanged +
			s.status5xx +
			s.otherStatus +
			s.transportErrors
		);
	}
}
