/**
 * What a load run has seen and what it checks of every answer: IDs well-formed,
 * of the right worker ID, increasing within an answer and above every answer
 * for that worker ID that completed before the request was sent, time within
 * the run, and (at the end) no duplicate per kind. The ID texts are parsed here
 * on purpose, not with src/ids: the run is a black box checked by an independent
 * reading.
 */
import { U64Store, U128Store } from "./id-store";

/** The `/layout` fields the checks need. */
export interface Layout {
	epoch: number;
	workerBits: number;
	sequenceBits: number;
	timeUnitMs: number;
	maxWorkerId: number;
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CROCKFORD_VALUE = new Map([...CROCKFORD].map((c, i) => [c, BigInt(i)]));
const ULID_TEXT = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SNOWFLAKE_TEXT = /^[0-9]{1,19}$/;
/** The server's POOL_MAX_AGE_MS (wrangler.toml's default). */
const POOL_MAX_AGE_MS = 1000;

function ulidValue(text: string): bigint {
	let value = 0n;
	for (const c of text) value = (value << 5n) | (CROCKFORD_VALUE.get(c) as bigint);
	return value;
}
function uuidValue(text: string): bigint {
	return BigInt(`0x${text.replaceAll("-", "")}`);
}

export function newStats() {
	return {
		requests: 0,
		ok: 0,
		idsChecked: { snowflake: 0, ulid: 0, uuidv7: 0 },
		duplicates: { snowflake: 0, ulid: 0, uuidv7: 0 },
		outOfOrderInAnswer: 0,
		outOfOrderAcrossAnswers: 0,
		/** Auto (pooled) IDs whose tick began more than POOL_MAX_AGE_MS before the request was sent. */
		staleAuto: 0,
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
}
export type Stats = ReturnType<typeof newStats>;
/** The counters that are violations. */
export type ViolationKind =
	| "outOfOrderInAnswer"
	| "outOfOrderAcrossAnswers"
	| "staleAuto"
	| "wrongWorkerId"
	| "malformed"
	| "timeOutOfRange"
	| "status5xx"
	| "otherStatus"
	| "transportErrors";

export class Ledger {
	readonly stats = newStats();
	private readonly snowflakes = new U64Store();
	private readonly ulids = new U128Store();
	private readonly uuids = new U128Store();
	/** Per worker ID, the largest Snowflake of any completed answer (-1: none yet). */
	private readonly completedMax: bigint[];

	constructor(
		readonly layout: Layout,
		/** Unix ms when the load began: no ID may carry an earlier time (less 5 s of slack). */
		readonly runStart: number,
	) {
		this.completedMax = new Array<bigint>(layout.maxWorkerId + 1).fill(-1n);
	}

	violation(kind: ViolationKind, detail: string) {
		this.stats[kind]++;
		if (this.stats.firstViolations.length < 20) {
			this.stats.firstViolations.push(`${kind}: ${detail}`);
		}
	}

	/**
	 * What an answer to a request sent now must be above, per worker ID: the answers
	 * that have completed so far (a snapshot for the auto route, which may pick any).
	 */
	floorNow(workerId: number | undefined): (workerId: number) => bigint {
		if (workerId === undefined) {
			const snapshot = this.completedMax.slice();
			return (id) => snapshot[id] ?? -1n;
		}
		const floor = this.completedMax[workerId] ?? -1n;
		return () => floor;
	}

	private checkTime(ms: number, what: string) {
		// IDs are made from the server's clock (this machine's); a restarted object may
		// wait out its lease, never issue ahead of the clock by more than a tick.
		if (ms < this.runStart - 5_000 || ms > Date.now() + 1_000) {
			this.violation("timeOutOfRange", `${what} carries time ${new Date(ms).toISOString()}`);
		}
	}

	/**
	 * One answer's Snowflakes: `askedWorkerId` from the path, `namedWorkerId` from the body.
	 * An explicit answer must be above every earlier answer of its worker ID; an auto
	 * answer (`pooledSince`: when it was sent) comes from a pool and is k-sorted
	 * instead: its oldest ID's tick began at most POOL_MAX_AGE_MS before it was sent.
	 */
	checkSnowflakes(
		ids: string[],
		askedWorkerId: number | undefined,
		namedWorkerId: number | undefined,
		floorOf: (workerId: number) => bigint,
		pooledSince?: number,
	) {
		const { layout } = this;
		const sequenceShift = BigInt(layout.sequenceBits);
		const timeShift = BigInt(layout.workerBits + layout.sequenceBits);
		const workerMask = BigInt(layout.maxWorkerId);
		let previous = -1n;
		let workerId = askedWorkerId ?? namedWorkerId;
		let max = -1n;
		let min = -1n;
		for (const text of ids) {
			if (!SNOWFLAKE_TEXT.test(text) || BigInt(text) >= 2n ** 63n) {
				this.violation("malformed", `snowflake ${text}`);
				return;
			}
			const id = BigInt(text);
			const idWorker = Number((id >> sequenceShift) & workerMask);
			workerId ??= idWorker; // text/plain answers of the auto route name no worker ID
			if (idWorker !== workerId)
				this.violation("wrongWorkerId", `${text} has worker ${idWorker}, not ${workerId}`);
			if (id <= previous)
				this.violation("outOfOrderInAnswer", `snowflake ${text} after ${previous}`);
			previous = id;
			if (min < 0n) min = id;
			max = id;
			this.snowflakes.push(id);
		}
		this.stats.idsChecked.snowflake += ids.length;
		if (min < 0n || workerId === undefined) return;
		const minMs = layout.epoch + Number(min >> timeShift) * layout.timeUnitMs;
		this.checkTime(minMs, `snowflake ${min}`);
		if (pooledSince !== undefined) {
			if (minMs < pooledSince - POOL_MAX_AGE_MS) {
				this.violation(
					"staleAuto",
					`auto ${min} carries ${new Date(minMs).toISOString()}, over ${POOL_MAX_AGE_MS} ms before its request was sent`,
				);
			}
			if (max > (this.completedMax[workerId] ?? -1n)) this.completedMax[workerId] = max;
			return;
		}
		const floor = floorOf(workerId);
		this.stats.acrossAnswerChecks++;
		if (min <= floor) {
			this.violation(
				"outOfOrderAcrossAnswers",
				`worker ${workerId}: ${min} is not above ${floor}, completed before this request was sent`,
			);
		}
		if (max > (this.completedMax[workerId] ?? -1n)) this.completedMax[workerId] = max;
	}

	/** One answer's ULIDs (as ULIDs or as UUIDs) or UUIDv7s. */
	check128(kind: "ulid" | "uuidv7", ids: string[], format: "ulid" | "uuid") {
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
		if (previous >= 0n) this.checkTime(Number(previous >> 80n), `${kind} ${ids.at(-1)}`);
	}

	/** Sorts everything kept and counts duplicates per kind; returns the seconds it took. */
	countDuplicates(): number {
		const started = Date.now();
		this.stats.duplicates.snowflake = this.snowflakes.duplicates();
		this.stats.duplicates.ulid = this.ulids.duplicates();
		this.stats.duplicates.uuidv7 = this.uuids.duplicates();
		return (Date.now() - started) / 1000;
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
			s.status5xx +
			s.otherStatus +
			s.transportErrors
		);
	}
}
