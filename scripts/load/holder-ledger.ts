/**
 * What lease holders issued, checked as one ledger: the output of the holder
 * commands (scripts/load/lease-holder.ts, examples/python-holder/holder.py), one
 * stream per process, read line by line as it arrives (or a whole text at once):
 *
 *   # edge-ids holder layout=<epoch>,<timeBits>,<workerBits>,<sequenceBits>,<timeUnitMs> pid=<pid>
 *   L <workerId> <from> <to>                        a span granted to this process
 *   T <wallMs - serverNowMs>                        its wall clock against the service's, at a grant
 *   R <workerId> <tick> <firstSequence> <count>     IDs it issued (consecutive sequences of one tick)
 *   X <code>                                        a call refused
 *
 * Every ID is checked: its run lies inside a span its process was granted (by a
 * line before it), it is above the process's previous ID, and no other process
 * issued it. Spans granted as different leases of one worker ID must not overlap.
 *
 * Memory stays flat however many IDs pass: per worker ID, an interval set of the
 * ID positions (`tick · 2^sequenceBits + sequence`) covered, where within one lease
 * of one process everything from its first ID to its last is covered (./intervals.ts
 * merges it into one interval). The positions between two of its IDs lie in the
 * process's own span, and below its later IDs: no other process may issue them
 * (its span would overlap), nor the process itself (it would go back). So an ID
 * landing on a covered position is a repeat or one of those violations, and is
 * counted as a repeat; none means no ID was issued twice. A billion IDs cost an
 * interval per lease, not one per tick.
 */
import { IntervalSet } from "./intervals";

export interface HolderLedgerReport {
	processes: number;
	ids: number;
	/** Distinct leases (process, worker ID, span start), and how many worker IDs they used. */
	leases: number;
	workerIds: number;
	/** Leases of a worker ID that had been leased before (to this or another process). */
	reLeases: number;
	refused: Record<string, number>;
	/** IDs on a position already covered: issued twice, or inside what another lease issued through. */
	repeats: number;
	/** Runs outside every span granted to their process before them. */
	outsideSpans: number;
	/** Runs not above the process's previous run. */
	notIncreasing: number;
	/** Grants whose span overlaps another lease's span of the same worker ID. */
	overlappingSpans: number;
	malformed: number;
	/** Last lines cut short by a SIGKILL (not counted as malformed; their IDs are not counted). */
	torn: number;
	/** Holders' wall clocks minus the service's clock at their grants, in ms (NaN: none seen). */
	wallClockMinMs: number;
	wallClockMaxMs: number;
	/** Times a holder's wall clock went back by more than `stepBackMs` (default a second) between two grants. */
	wallClockStepsBack: number;
	/** The intervals the ledger holds in all (its memory). */
	intervals: number;
	/** Milliseconds spent checking (does the ledger keep up with the holders?). */
	checkMs: number;
	/** The first few violations, for the report. */
	firstViolations: string[];
}

type Violation = "repeats" | "outsideSpans" | "notIncreasing" | "overlappingSpans" | "malformed";

/** A lease's span `[from, to)` as its process has seen it granted (`to` the largest). */
interface Span {
	from: number;
	to: number;
}

/** A span in the ledger of its worker ID, with the process it was granted to. */
interface OwnedSpan extends Span {
	owner: string;
}

/** One worker ID: its leases' spans (sorted by `from`) and the ID positions covered. */
interface WorkerRecord {
	spans: OwnedSpan[];
	covered: IntervalSet;
}

const HEADER = /layout=(-?\d+),(\d+),(\d+),(\d+),(\d+)/;

export class HolderLedger {
	/**
	 * `stepBackMs`: how far a holder's wall clock against the service's must go back
	 * between two grants to count as a step of its wall clock (an object clock stepped
	 * ahead moves it too, by a few spans).
	 */
	constructor(private readonly stepBackMs = 1_000) {}

	private readonly workers = new Map<number, WorkerRecord>();
	readonly report: HolderLedgerReport = {
		processes: 0,
		ids: 0,
		leases: 0,
		workerIds: 0,
		reLeases: 0,
		refused: {},
		repeats: 0,
		outsideSpans: 0,
		notIncreasing: 0,
		overlappingSpans: 0,
		malformed: 0,
		torn: 0,
		wallClockMinMs: Number.NaN,
		wallClockMaxMs: Number.NaN,
		wallClockStepsBack: 0,
		intervals: 0,
		checkMs: 0,
		firstViolations: [],
	};

	/** One process's output as a stream: `write` chunks as they come, then `end`. `name` says which in violations. */
	open(name: string): HolderOutput {
		this.report.processes++;
		return new HolderOutput(this, name);
	}

	/** One process's whole output. */
	add(name: string, text: string): void {
		const output = this.open(name);
		output.write(text);
		output.end(false);
	}

	/** True when no ID repeated, every run lay in its process's spans, each process went up, spans never overlapped. */
	clean(): boolean {
		const { repeats, outsideSpans, notIncreasing, overlappingSpans, malformed } = this.report;
		return repeats + outsideSpans + notIncreasing + overlappingSpans + malformed === 0;
	}

	/** The process granted the lease of `workerId` whose span starts at `from`; undefined before its L line. */
	ownerOf(workerId: number, from: number): string | undefined {
		return this.workers.get(workerId)?.spans.find((span) => span.from === from)?.owner;
	}

	/** How many leases of `workerId` the ledger has seen granted. */
	leasesOf(workerId: number): number {
		return this.workers.get(workerId)?.spans.length ?? 0;
	}

	/** @internal A grant to process `owner`: a new lease, or its lease's `to` moved on. */
	granted(owner: string, workerId: number, from: number, to: number, where: string): void {
		const record = this.worker(workerId);
		const { spans } = record;
		let i = spans.length - 1; // the last span starting at or before `from` (mostly the last one)
		while (i >= 0 && (spans[i] as OwnedSpan).from > from) i--;
		let span = spans[i];
		if (span?.from === from && span.owner === owner) {
			span.to = Math.max(span.to, to);
		} else {
			if (spans.length > 0) this.report.reLeases++;
			this.report.leases++;
			span = { from, to, owner };
			spans.splice(++i, 0, span);
		}
		const before = spans[i - 1];
		const after = spans[i + 1];
		if ((before && before.to > span.from) || (after && after.from < span.to)) {
			this.violation("overlappingSpans", `${where} (another lease of worker ID ${workerId})`);
		}
	}

	/** @internal IDs at positions [start, end] of a worker ID; returns how many were covered already. */
	cover(workerId: number, start: number, end: number): number {
		const record = this.worker(workerId);
		const before = record.covered.intervals;
		const repeated = record.covered.add(start, end);
		this.report.intervals += record.covered.intervals - before;
		return repeated;
	}

	/** @internal */
	clock(wallMinusServerMs: number, previous: number | undefined): void {
		const report = this.report;
		const first = Number.isNaN(report.wallClockMinMs);
		report.wallClockMinMs = first
			? wallMinusServerMs
			: Math.min(report.wallClockMinMs, wallMinusServerMs);
		report.wallClockMaxMs = first
			? wallMinusServerMs
			: Math.max(report.wallClockMaxMs, wallMinusServerMs);
		if (previous !== undefined && wallMinusServerMs < previous - this.stepBackMs) {
			report.wallClockStepsBack++;
		}
	}

	/** @internal */
	violation(kind: Violation, detail: string, count = 1): void {
		this.report[kind] += count;
		if (this.report.firstViolations.length < 20)
			this.report.firstViolations.push(`${kind}: ${detail}`);
	}

	private worker(workerId: number): WorkerRecord {
		let record = this.workers.get(workerId);
		if (!record) {
			record = { spans: [], covered: new IntervalSet() };
			this.workers.set(workerId, record);
			this.report.workerIds = this.workers.size;
		}
		return record;
	}
}

/** One process's output, checked line by line as it arrives. */
export class HolderOutput {
	/** Its spans per worker ID, in the order granted (their starts increase). */
	private readonly spans = new Map<number, Span[]>();
	private sequenceBits: number | undefined;
	/** The last ID issued, compared as IDs compare: tick, then worker ID, then sequence. */
	private last = { tick: Number.NEGATIVE_INFINITY, workerId: 0, sequence: 0 };
	/** The span of the last run, and the position of its last ID (what the next run's cover starts after). */
	private lastSpan: Span | undefined;
	private lastSpanWorkerId = -1;
	private lastPosition = Number.NEGATIVE_INFINITY;
	private lastClock: number | undefined;
	private partial = "";
	private lineNumber = 0;
	/** The worker ID of the last grant it wrote (-1 before one). */
	workerId = -1;
	/** IDs this process issued, and its calls refused by code. */
	ids = 0;
	readonly refused: Record<string, number> = {};

	constructor(
		private readonly ledger: HolderLedger,
		readonly name: string,
	) {}

	write(chunk: string): void {
		const started = performance.now();
		const text = this.partial + chunk;
		let start = 0;
		for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
			this.line(text.slice(start, end));
			start = end + 1;
		}
		this.partial = text.slice(start);
		this.ledger.report.checkMs += performance.now() - started;
	}

	/** The output ended; `killed`: the process was SIGKILLed, so a last line cut short is no fault. */
	end(killed: boolean): void {
		if (this.partial !== "") {
			if (killed) this.ledger.report.torn++;
			else this.line(this.partial);
		}
		this.partial = "";
	}

	private line(line: string): void {
		this.lineNumber++;
		if (line === "") return;
		const report = this.ledger.report;
		const kind = line[0];
		const fields = line.slice(2).split(" ");
		if (kind === "#") {
			const layout = HEADER.exec(line);
			this.sequenceBits = layout ? Number(layout[4]) : undefined;
			return;
		}
		if (kind === "X" && line[1] === " ") {
			const code = fields[0] || "?";
			report.refused[code] = (report.refused[code] ?? 0) + 1;
			this.refused[code] = (this.refused[code] ?? 0) + 1;
			return;
		}
		const numbers = fields.map(Number);
		const where = `${this.name}:${this.lineNumber} ${line}`;
		if (
			line[1] !== " " ||
			!numbers.every(Number.isSafeInteger) ||
			this.sequenceBits === undefined
		) {
			this.ledger.violation("malformed", where);
			return;
		}
		if (kind === "R" && numbers.length === 4) {
			this.run(numbers as [number, number, number, number], where);
		} else if (kind === "L" && numbers.length === 3) {
			this.grant(numbers as [number, number, number], where);
		} else if (kind === "T" && numbers.length === 1) {
			const wallMinusServerMs = numbers[0] as number;
			this.ledger.clock(wallMinusServerMs, this.lastClock);
			this.lastClock = wallMinusServerMs;
		} else this.ledger.violation("malformed", where);
	}

	private grant([workerId, from, to]: [number, number, number], where: string): void {
		if (!(from < to)) {
			this.ledger.violation("malformed", `${where} (an empty span)`);
			return;
		}
		const spans = this.spans.get(workerId) ?? [];
		this.spans.set(workerId, spans);
		const span = spans.find((s) => s.from === from);
		if (span) span.to = Math.max(span.to, to);
		else spans.push({ from, to });
		this.workerId = workerId;
		this.ledger.granted(this.name, workerId, from, to, where);
	}

	private run([workerId, tick, first, count]: [number, number, number, number], where: string) {
		const ledger = this.ledger;
		const sequenceBits = this.sequenceBits as number;
		if (count < 1 || first < 0 || first + count > 2 ** sequenceBits) {
			ledger.violation("malformed", where);
			return;
		}
		const last = this.last;
		const above =
			tick > last.tick ||
			(tick === last.tick &&
				(workerId > last.workerId || (workerId === last.workerId && first > last.sequence)));
		if (!above) ledger.violation("notIncreasing", where);
		this.last = { tick, workerId, sequence: first + count - 1 };

		const span = this.spanOf(workerId, tick);
		if (!span) ledger.violation("outsideSpans", where);
		const position = tick * 2 ** sequenceBits + first;
		const end = position + count - 1;
		// Within one lease, what lies between this run and the last is the process's own.
		const start =
			span !== undefined && span === this.lastSpan && position > this.lastPosition
				? this.lastPosition + 1
				: position;
		const repeated = ledger.cover(workerId, start, end);
		if (repeated > 0) ledger.violation("repeats", `${where} (${repeated} IDs)`, repeated);
		this.lastPosition =
			span !== undefined && span === this.lastSpan ? Math.max(this.lastPosition, end) : end;
		this.lastSpan = span;
		this.lastSpanWorkerId = workerId;
		ledger.report.ids += count;
		this.ids += count;
	}

	/** The span of this process that holds `tick` of `workerId`; the last run's first (runs go up). */
	private spanOf(workerId: number, tick: number): Span | undefined {
		const last = this.lastSpan;
		if (last && this.lastSpanWorkerId === workerId && last.from <= tick && tick < last.to)
			return last;
		const spans = this.spans.get(workerId) ?? [];
		for (let i = spans.length - 1; i >= 0; i--) {
			const span = spans[i] as Span;
			if (span.from <= tick && tick < span.to) return span;
		}
		return undefined;
	}
}
