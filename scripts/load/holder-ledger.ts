/**
 * What lease holders issued, checked as one ledger: the output of the holder
 * commands (scripts/lease-holder.ts, examples/python-holder/holder.py), one text
 * per process, read line by line:
 *
 *   # edge-ids holder layout=<epoch>,<timeBits>,<workerBits>,<sequenceBits>,<timeUnitMs> pid=<pid>
 *   L <workerId> <from> <to>                        a span granted to this process
 *   R <workerId> <tick> <firstSequence> <count>     IDs it issued (consecutive sequences of one tick)
 *   X <code>                                        a call refused
 *
 * Every run must lie inside a span this process was granted (by a line before
 * it), each process's IDs must strictly increase, and no ID may be issued twice
 * across all processes: IDs are kept as intervals per worker ID (./intervals.ts),
 * so a billion IDs cost a few intervals.
 */
import { IntervalSet } from "./intervals";

export interface HolderLedgerReport {
	processes: number;
	ids: number;
	/** Distinct leases (worker ID and span start) granted, and how many worker IDs they used. */
	leases: number;
	workerIds: number;
	refused: Record<string, number>;
	/** IDs issued twice (across processes or within one). */
	repeats: number;
	/** Runs outside every span granted to their process before them. */
	outsideSpans: number;
	/** Runs not above the process's previous run. */
	notIncreasing: number;
	malformed: number;
	/** The first few violations, for the report. */
	firstViolations: string[];
}

export class HolderLedger {
	private readonly given = new Map<number, IntervalSet>();
	private readonly leases = new Set<string>();
	readonly report: HolderLedgerReport = {
		processes: 0,
		ids: 0,
		leases: 0,
		workerIds: 0,
		refused: {},
		repeats: 0,
		outsideSpans: 0,
		notIncreasing: 0,
		malformed: 0,
		firstViolations: [],
	};

	/** One process's output. `name` says which in violations. */
	add(name: string, text: string): void {
		this.report.processes++;
		const spans = new Map<number, [number, number][]>();
		let sequenceBits: number | undefined;
		// The last ID issued, compared as the ID compares: tick, then worker ID, then sequence.
		let last = { tick: Number.NEGATIVE_INFINITY, workerId: 0, sequence: 0 };
		let lineNumber = 0;
		for (const line of text.split("\n")) {
			lineNumber++;
			if (line === "") continue;
			const [kind, ...fields] = line.split(" ");
			if (kind === "#") {
				const layout = /layout=(-?\d+),(\d+),(\d+),(\d+),(\d+)/.exec(line);
				sequenceBits = layout ? Number(layout[4]) : undefined;
				continue;
			}
			if (kind === "X") {
				const code = fields[0] ?? "?";
				this.report.refused[code] = (this.report.refused[code] ?? 0) + 1;
				continue;
			}
			const numbers = fields.map(Number);
			if (!numbers.every(Number.isSafeInteger) || sequenceBits === undefined) {
				this.violation("malformed", `${name}:${lineNumber} ${line}`);
				continue;
			}
			if (kind === "L" && numbers.length === 3) {
				const [workerId, from, to] = numbers as [number, number, number];
				spans.set(workerId, [...(spans.get(workerId) ?? []), [from, to]]);
				this.leases.add(`${workerId}/${from}`);
			} else if (kind === "R" && numbers.length === 4) {
				const [workerId, tick, first, count] = numbers as [number, number, number, number];
				const inside = (spans.get(workerId) ?? []).some(([from, to]) => from <= tick && tick < to);
				if (!inside) this.violation("outsideSpans", `${name}:${lineNumber} ${line}`);
				const above =
					tick > last.tick ||
					(tick === last.tick &&
						(workerId > last.workerId || (workerId === last.workerId && first > last.sequence)));
				if (!above) this.violation("notIncreasing", `${name}:${lineNumber} ${line}`);
				last = { tick, workerId, sequence: first + count - 1 };
				const position = tick * 2 ** sequenceBits + first;
				const set = this.given.get(workerId) ?? new IntervalSet();
				this.given.set(workerId, set);
				const repeated = set.add(position, position + count - 1);
				if (repeated > 0)
					this.violation("repeats", `${name}:${lineNumber} ${line} (${repeated} IDs)`, repeated);
				this.report.ids += count;
			} else this.violation("malformed", `${name}:${lineNumber} ${line}`);
		}
		this.report.leases = this.leases.size;
		this.report.workerIds = this.given.size;
	}

	/** True when no ID repeated, every run lay in its process's spans and each process went up. */
	clean(): boolean {
		const { repeats, outsideSpans, notIncreasing, malformed } = this.report;
		return repeats + outsideSpans + notIncreasing + malformed === 0;
	}

	private violation(
		kind: "repeats" | "outsideSpans" | "notIncreasing" | "malformed",
		detail: string,
		count = 1,
	): void {
		this.report[kind] += count;
		if (this.report.firstViolations.length < 20)
			this.report.firstViolations.push(`${kind}: ${detail}`);
	}
}
