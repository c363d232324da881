/**
 * Snowflake IDs as decimal text, fast: a 63-bit ID does not fit in a double, and
 * formatting each with BigInt would cost more than making it. Runs of IDs from
 * the generator (or from a Durable Object, which answers runs) become strings here.
 *
 *   formatRuns(layout, 7, [{ tick: 1, firstSequence: 0, count: 2 }]);
 *   // ["4222976", "4222977"] under the Twitter layout: (1 << 22) | (7 << 12) | 0, … | 1
 */
import { IdError } from "../errors";
import type { SnowflakeLayout } from "./layout";
import type { IdRun } from "./runs";

/** Decimal strings for runs of IDs of one worker ID (see `DecimalFormatter`). */
export function formatRuns(layout: SnowflakeLayout, workerId: number, runs: IdRun[]): string[] {
	return new DecimalFormatter(layout, workerId).format(runs);
}

/**
 * Refuses a run that does not fit the layout. A sequence past the field would carry
 * into the worker ID (another worker ID's IDs: duplicates), so a run made under
 * another layout, or a corrupt one, never becomes text. Throws `internal`.
 */
export function checkRun(layout: SnowflakeLayout, run: IdRun): void {
	const { tick, firstSequence, count } = run;
	const fits =
		Number.isSafeInteger(tick) &&
		tick >= 0 &&
		tick < layout.tickLimit &&
		Number.isSafeInteger(firstSequence) &&
		firstSequence >= 0 &&
		Number.isSafeInteger(count) &&
		count >= 0 &&
		firstSequence + count - 1 <= layout.maxSequence;
	if (!fits) {
		throw new IdError(
			"internal",
			`a run (tick ${tick}, sequences ${firstSequence}+${count}) does not fit the layout ${layout.fingerprint()}`,
		);
	}
}

/** "000" … "999": the last three digits of an ID, by value. */
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, "0"));

/**
 * Decimal text for the IDs of one worker ID. A 63-bit ID does not fit in a double,
 * so each ID is written as its head (the ID divided by 1,000, as decimal text) and
 * its last three digits from a table: one string concatenation per ID, with no
 * BigInt and no number-to-string conversion. The head changes only every 1,000
 * consecutive IDs; it, and the split of the tick's base (tick and worker bits,
 * sequence 0), are computed with BigInt and remembered, so single IDs from one
 * tick (the generator's `next(1)`) reuse them too.
 */
export class DecimalFormatter {
	private readonly layout: SnowflakeLayout;
	private readonly workerId: number;
	/** The tick whose base is split below, or -1. */
	private tick = -1;
	/** The tick's base as `baseThousands × 1000 + baseRest`. */
	private baseThousands = 0n;
	private baseRest = 0;
	/** The head for IDs `headOffset` thousands above `baseThousands × 1000`, or -1. */
	// Stryker disable next-line UnaryOperator: rebase() sets it before any use
	private headOffset = -1;
	// Stryker disable next-line StringLiteral: headAt() sets it before any use
	private head = "";

	constructor(layout: SnowflakeLayout, workerId: number) {
		this.layout = layout;
		this.workerId = workerId;
	}

	format(runs: IdRun[]): string[] {
		let total = 0;
		for (const run of runs) {
			checkRun(this.layout, run);
			total += run.count;
		}
		// Stryker disable next-line ArrayDeclaration: sized or grown, the array holds the same IDs once written
		const ids = new Array<string>(total);
		let at = 0;
		for (const run of runs) at = this.write(run, ids, at);
		return ids;
	}

	/** One run's IDs (what the generator's fast path issues). */
	formatRun(run: IdRun): string[] {
		checkRun(this.layout, run);
		// Stryker disable next-line ArrayDeclaration: sized or grown, the array holds the same IDs once written
		const ids = new Array<string>(run.count);
		this.write(run, ids, 0);
		return ids;
	}

	/**
	 * One ID, with no checks: only for a tick and sequence the generator has just
	 * issued (so in the layout). The tick's base is usually cached by then.
	 */
	formatOne(tick: number, sequence: number): string {
		// Stryker disable next-line ConditionalExpression: splitting the same base again is what the cache saves
		if (tick !== this.tick) this.rebase(tick);
		const start = this.baseRest + sequence;
		const thousands = Math.floor(start / 1000);
		const head = this.headAt(thousands);
		const rest = start - thousands * 1000;
		return head === "" ? String(rest) : head + THREE_DIGITS[rest];
	}

	/** Splits `tick`'s base (sequence 0) into thousands and the rest, with BigInt, once per tick. */
	private rebase(tick: number): void {
		const base = this.layout.compose({ tick, workerId: this.workerId, sequence: 0 });
		this.tick = tick;
		this.baseThousands = base / 1000n;
		this.baseRest = Number(base % 1000n);
		this.headOffset = -1;
	}

	/** Writes the run's IDs into `ids` from index `at`; returns the index after them. */
	private write(run: IdRun, ids: string[], at: number): number {
		if (run.tick !== this.tick) this.rebase(run.tick);
		// The first ID is (baseThousands + thousands) × 1000 + rest, with rest < 1000.
		const start = this.baseRest + run.firstSequence;
		let thousands = Math.floor(start / 1000);
		let rest = start - thousands * 1000;
		let head = this.headAt(thousands);
		const end = at + run.count;
		for (let i = at; i < end; i++) {
			// An empty head means an ID below 1,000 (only at the very start of the epoch): no padding.
			ids[i] = head === "" ? String(rest) : head + THREE_DIGITS[rest];
			if (++rest === 1000) {
				rest = 0;
				head = this.headAt(++thousands);
			}
		}
		return end;
	}

	/** The decimal head of IDs `thousands` thousands above the base's; "" for zero. */
	private headAt(thousands: number): string {
		if (thousands !== this.headOffset) {
			const value = this.baseThousands + BigInt(thousands);
			this.head = value === 0n ? "" : String(value);
			this.headOffset = thousands;
		}
		return this.head;
	}
}
