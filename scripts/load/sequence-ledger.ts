/**
 * What the named sequences' chaos run (./sequence-chaos.ts) checks of every number
 * it learns of: answers it got, answers the proxy dropped after the service gave
 * them, ranges its process-side buffers reserved and what they handed out.
 *
 *   const ledger = new SequenceLedger([{ name: "orders", mode: "ordered" }], { poolMaxAgeMs: 1000 });
 *   ledger.answered({ name: "orders", via: "http-next", startMs, endMs, first: 1, count: 2, period: null });
 *   ledger.dropped("orders", 3, 1, null);   // the proxy dropped an answer holding 3
 *   ledger.unknown("orders", 5);            // a call cut by a restart: up to 5 numbers lost
 *   ledger.account("orders", { issued: "4", requests: 3 }, 4096); // the service's count vs what was seen
 *   ledger.checkOrder(); ledger.report.violations === 0
 *
 * - no number twice per (sequence, period): intervals per period (./intervals.ts);
 * - ordered sequences are linearizable: a call that ended before another began
 *   holds smaller numbers, or a later period (never an earlier one); pooled ones: a
 *   call that began POOL_MAX_AGE_MS (and a slack) after another ended holds larger numbers;
 * - each period starts again at the sequence's `start` (./sequence-periods.ts);
 * - each buffer hands out numbers only from ranges it reserved, never twice, increasing;
 * - every number the service counts as issued is seen, in a dropped answer, in a
 *   buffer's unused range, or within what lost calls and pooled segments explain.
 */
import { IntervalSet } from "./intervals";
import { type PeriodRow, SequencePeriods } from "./sequence-periods";

export type SequenceMode = "ordered" | "pooled";
/** How a call reached the service. */
export type CallVia = "http-next" | "rpc-next" | "rpc-reserve" | "http-reserve" | "buffer-reserve";

export interface AnsweredCall {
	name: string;
	via: CallVia;
	/** performance.now() when the call was sent and when its answer was read. */
	startMs: number;
	endMs: number;
	first: number;
	count: number;
	period: string | null;
}

interface OrderedCall {
	startMs: number;
	endMs: number;
	min: number;
	max: number;
	period: string;
}

export interface SequenceAccount {
	name: string;
	mode: SequenceMode;
	/** What the service says it issued (`issued` of its status), all periods. */
	issued: number;
	/** Numbers seen in answers, in dropped answers and in buffers' ranges. */
	known: number;
	/** issued − known: numbers of lost calls and unused pooled segments. */
	remainder: number;
	/** What may explain the remainder: lost calls' counts, plus segments × POOL_MAX_SIZE (pooled). */
	bound: number;
	periods: string[];
}

function newReport() {
	return {
		numbers: 0,
		calls: 0,
		byVia: {} as Record<string, { calls: number; numbers: number }>,
		droppedCalls: 0,
		droppedNumbers: 0,
		unknownCalls: 0,
		unknownNumbers: 0,
		bufferHanded: 0,
		bufferUnused: 0,
		orderChecks: 0,
		duplicates: 0,
		outOfOrder: 0,
		bufferOutside: 0,
		bufferOutOfOrder: 0,
		malformed: 0,
		unaccounted: 0,
		periodBack: 0,
		periodStart: 0,
		accounts: [] as SequenceAccount[],
		/** Each period of the sequences with a reset: numbers, first number, when first seen. */
		periods: [] as PeriodRow[],
		firstViolations: [] as string[],
		violations: 0,
	};
}
export type SequenceLedgerReport = ReturnType<typeof newReport>;
type ViolationKind =
	| "duplicates"
	| "outOfOrder"
	| "periodBack"
	| "periodStart"
	| "bufferOutside"
	| "bufferOutOfOrder"
	| "malformed"
	| "unaccounted";

interface BufferBook {
	reserved: Map<string, IntervalSet>;
	handed: Map<string, IntervalSet>;
	lastHanded: Map<string, number>;
}

const periodKey = (period: string | null) => period ?? "";

export class SequenceLedger {
	readonly report = newReport();
	private readonly modes: Map<string, SequenceMode>;
	private readonly starts: Map<string, number>;
	/** What was seen of each period of sequences with a reset. */
	readonly periods = new SequencePeriods();
	private readonly issued = new Map<string, Map<string, IntervalSet>>();
	private readonly calls = new Map<string, OrderedCall[]>();
	private readonly unknownBy = new Map<string, number>();
	private readonly buffers = new Map<string, BufferBook>();

	constructor(
		sequences: { name: string; mode: SequenceMode; start?: number }[],
		private readonly rules: { poolMaxAgeMs: number; slackMs?: number },
	) {
		this.modes = new Map(sequences.map(({ name, mode }) => [name, mode]));
		this.starts = new Map(sequences.map(({ name, start }) => [name, start ?? 0]));
		for (const { name } of sequences) {
			this.issued.set(name, new Map());
			this.calls.set(name, []);
		}
	}

	violation(kind: ViolationKind, detail: string): void {
		this.report[kind]++;
		this.report.violations++;
		if (this.report.firstViolations.length < 20) this.report.firstViolations.push(detail);
	}

	/** An answer a client read: its numbers are recorded and it joins the order check. */
	answered(call: AnsweredCall): void {
		const { name, via, first, count, period } = call;
		const tally = this.report.byVia[via] ?? { calls: 0, numbers: 0 };
		this.report.byVia[via] = tally;
		tally.calls++;
		tally.numbers += count;
		this.report.calls++;
		this.record(name, first, count, period, `${via} call`);
		if (period !== null) this.periods.answered({ ...call, period });
		this.calls.get(name)?.push({
			startMs: call.startMs,
			endMs: call.endMs,
			min: first,
			max: first + count - 1,
			period: periodKey(period),
		});
	}

	/** An answer the proxy dropped after the service gave it: its numbers were issued, never seen. */
	dropped(name: string, first: number, count: number, period: string | null): void {
		this.report.droppedCalls++;
		this.report.droppedNumbers += count;
		this.record(name, first, count, period, "dropped answer");
		if (period !== null) this.periods.dropped(name, period, first, count, performance.now());
	}

	/**
	 * A call whose outcome is unknown (cut by a restart, a 5xx, a timeout): up to `count`
	 * numbers lost. `when` (performance.now() ms): the service acted on it, if at all,
	 * after `startMs` and before `lostMs`; without it, at any time.
	 */
	unknown(name: string, count: number, when?: { startMs: number; lostMs: number }): void {
		this.report.unknownCalls++;
		this.report.unknownNumbers += count;
		this.unknownBy.set(name, (this.unknownBy.get(name) ?? 0) + count);
		this.periods.lost(name, count, when ?? { startMs: -Infinity, lostMs: Infinity });
	}

	/** A range buffer `buffer` reserved (its reserve is also an `answered` call of via `buffer-reserve`). */
	bufferReserved(buffer: string, first: number, last: number, period: string | null): void {
		const book = this.bufferBook(buffer);
		const key = periodKey(period);
		let set = book.reserved.get(key);
		if (!set) {
			set = new IntervalSet();
			book.reserved.set(key, set);
		}
		set.add(first, last);
	}

	/** Numbers a buffer handed out: inside its ranges, never twice, above what it handed before. */
	bufferHanded(buffer: string, first: number, count: number, period: string | null): void {
		const book = this.bufferBook(buffer);
		const key = periodKey(period);
		const last = first + count - 1;
		this.report.bufferHanded += count;
		const reserved = book.reserved.get(key);
		// Adding a range the set holds whole leaves it as it was.
		if (!reserved || reserved.add(first, last) !== count) {
			this.violation(
				"bufferOutside",
				`buffer ${buffer} handed ${first}..${last} (${key || "no period"}), not all in a range it reserved`,
			);
		}
		let handed = book.handed.get(key);
		if (!handed) {
			handed = new IntervalSet();
			book.handed.set(key, handed);
		}
		const repeats = handed.add(first, last);
		if (repeats > 0) {
			this.violation("duplicates", `buffer ${buffer} handed ${repeats} of ${first}..${last} twice`);
		}
		const before = book.lastHanded.get(key) ?? Number.NEGATIVE_INFINITY;
		if (first <= before) {
			this.violation("bufferOutOfOrder", `buffer ${buffer} handed ${first} after ${before}`);
		}
		book.lastHanded.set(key, last);
	}

	private bufferBook(buffer: string): BufferBook {
		let book = this.buffers.get(buffer);
		if (!book) {
			book = { reserved: new Map(), handed: new Map(), lastHanded: new Map() };
			this.buffers.set(buffer, book);
		}
		return book;
	}

	private record(name: string, first: number, count: number, period: string | null, what: string) {
		const periods = this.issued.get(name);
		if (!periods || !Number.isSafeInteger(first) || !Number.isSafeInteger(count) || count < 1) {
			this.violation("malformed", `${what} of ${name}: ${first} (+${count})`);
			return;
		}
		const key = periodKey(period);
		let set = periods.get(key);
		if (!set) {
			set = new IntervalSet();
			periods.set(key, set);
		}
		this.report.numbers += count;
		const repeats = set.add(first, first + count - 1);
		if (repeats > 0) {
			this.violation(
				"duplicates",
				`${name}${period ? ` (${period})` : ""}: ${repeats} of ${first}..${first + count - 1} (a ${what}) issued before`,
			);
		}
	}

	/**
	 * Ordered sequences: a call that ended before another began holds smaller numbers
	 * or an earlier period, never a later one. Pooled: the same for calls that began POOL_MAX_AGE_MS and
	 * the slack after another ended. O(n log n): a sweep over the calls by start time,
	 * with the largest (period, number) of those that had ended by then.
	 */
	checkOrder(): void {
		for (const [name, calls] of this.calls) {
			const pooled = this.modes.get(name) === "pooled";
			const gapMs = pooled ? this.rules.poolMaxAgeMs + (this.rules.slackMs ?? 250) : 0;
			const byStart = [...calls].sort((a, b) => a.startMs - b.startMs);
			const byEnd = [...calls].sort((a, b) => a.endMs - b.endMs);
			let ended = 0;
			let top: OrderedCall | undefined;
			for (const call of byStart) {
				for (; ended < byEnd.length; ended++) {
					const before = byEnd[ended] as OrderedCall;
					if (!(before.endMs + gapMs < call.startMs)) break;
					if (
						!top ||
						before.period > top.period ||
						(before.period === top.period && before.max > top.max)
					) {
						top = before;
					}
				}
				if (!top) continue;
				this.report.orderChecks++;
				if (top.period > call.period) {
					this.violation(
						"periodBack",
						`${name}: ${call.min}..${call.max} (${call.period}) began ${(call.startMs - top.endMs).toFixed(1)} ms after a call of ${top.period} ended: the period went back`,
					);
				} else if (top.period === call.period && top.max >= call.min) {
					this.violation(
						"outOfOrder",
						`${name}: ${call.min}..${call.max}${call.period ? ` (${call.period})` : ""} began ${(call.startMs - top.endMs).toFixed(1)} ms after a call holding ${top.max}${top.period ? ` (${top.period})` : ""} ended`,
					);
				}
			}
		}
	}

	/**
	 * The service's count against what was seen: the remainder must be at least 0 and
	 * at most the lost calls' counts, plus for a pooled sequence a segment's worth for
	 * each object request (at most `poolMaxSize` each). Buffers' unused numbers are summed.
	 */
	account(name: string, status: { issued: string; requests: number }, poolMaxSize: number): void {
		const mode = this.modes.get(name) ?? "ordered";
		const periods = this.issued.get(name) ?? new Map<string, IntervalSet>();
		let known = 0;
		for (const set of periods.values()) known += set.size;
		const issued = Number(status.issued);
		const lost = this.unknownBy.get(name) ?? 0;
		const bound = lost + (mode === "pooled" ? status.requests * poolMaxSize : 0);
		const remainder = issued - known;
		this.report.accounts.push({
			name,
			mode,
			issued,
			known,
			remainder,
			bound,
			periods: [...periods.keys()].filter((key) => key !== "").sort(),
		});
		if (remainder < 0 || remainder > bound) {
			this.violation(
				"unaccounted",
				`${name}: the service issued ${issued}, ${known} were seen or dropped; ${remainder} unaccounted for, ${bound} explained`,
			);
		}
		const { rows, problems } = this.periods.check(name, this.starts.get(name) ?? 0);
		this.report.periods.push(...rows);
		for (const problem of problems) this.violation("periodStart", problem);
	}

	/** Numbers reserved by buffers and never handed out (left in a range when it aged out or at the end). */
	bufferUnused(): number {
		let unused = 0;
		for (const book of this.buffers.values()) {
			for (const [key, set] of book.reserved)
				unused += set.size - (book.handed.get(key)?.size ?? 0);
		}
		this.report.bufferUnused = unused;
		return unused;
	}
}
