/**
 * The periods of the chaos run's sequences that start again (daily, monthly,
 * yearly): what the ledger (./sequence-ledger.ts) learnt of each (sequence, period)
 * and the check that every period starts again at the sequence's `start`.
 *
 *   const periods = new SequencePeriods();
 *   periods.saw("tickets", "2026-11-28", 3, 2, "answered", performance.now());
 *   periods.saw("tickets", "2026-11-28", 1, 2, "dropped", performance.now());
 *   periods.check("tickets", 1, 0);
 *   // { rows: [{ name: "tickets", period: "2026-11-28", numbers: 4, first: 1, ... note: "1 in a dropped answer" }], problems: [] }
 *
 * A period's smallest number is `start`; when no answer read holds it, a dropped
 * answer must, or lost calls (whose numbers nobody saw) must be able to hold the
 * numbers below the smallest seen. Anything else is a period that did not start
 * again, or started below `start`.
 */

export interface PeriodRow {
	name: string;
	period: string;
	/** Numbers answered or dropped in this period. */
	numbers: number;
	/** The smallest of them. */
	first: number;
	/** performance.now() when the first answer naming the period was recorded. */
	firstSeenMs: number;
	/** How the period's start was accounted for when no answer read held it. */
	note?: string;
}

interface PeriodBook {
	numbers: number;
	smallestAnswered: number;
	smallestDropped: number;
	firstSeenMs: number;
}

export class SequencePeriods {
	private readonly books = new Map<string, Map<string, PeriodBook>>();

	/** Numbers `first`..`first + count − 1` of `name` in `period`, read in an answer or dropped. */
	saw(
		name: string,
		period: string,
		first: number,
		count: number,
		how: "answered" | "dropped",
		nowMs: number,
	): void {
		let byPeriod = this.books.get(name);
		if (!byPeriod) {
			byPeriod = new Map();
			this.books.set(name, byPeriod);
		}
		let book = byPeriod.get(period);
		if (!book) {
			book = {
				numbers: 0,
				smallestAnswered: Number.POSITIVE_INFINITY,
				smallestDropped: Number.POSITIVE_INFINITY,
				firstSeenMs: nowMs,
			};
			byPeriod.set(period, book);
		}
		book.numbers += count;
		if (how === "answered") book.smallestAnswered = Math.min(book.smallestAnswered, first);
		else book.smallestDropped = Math.min(book.smallestDropped, first);
	}

	/** The periods of `name` seen so far, in order, with when each was first seen. */
	seen(name: string): { period: string; firstSeenMs: number }[] {
		return [...(this.books.get(name) ?? new Map<string, PeriodBook>())]
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
			.map(([period, book]) => ({ period, firstSeenMs: book.firstSeenMs }));
	}

	/**
	 * Each period of `name` against `start`: rows for the report, and a problem for a
	 * period that holds a number below `start`, or whose smallest number seen is above
	 * it by more than `lostNumbers` (what calls with an unknown outcome could hold).
	 */
	check(
		name: string,
		start: number,
		lostNumbers: number,
	): { rows: PeriodRow[]; problems: string[] } {
		const rows: PeriodRow[] = [];
		const problems: string[] = [];
		const byPeriod = this.books.get(name) ?? new Map<string, PeriodBook>();
		for (const { period, firstSeenMs } of this.seen(name)) {
			const book = byPeriod.get(period) as PeriodBook;
			const first = Math.min(book.smallestAnswered, book.smallestDropped);
			const row: PeriodRow = { name, period, numbers: book.numbers, first, firstSeenMs };
			rows.push(row);
			if (first < start) {
				problems.push(`${name} (${period}): holds ${first}, below its start ${start}`);
			} else if (book.smallestAnswered === start) {
				// The period's start was read in an answer: nothing to explain.
			} else if (first === start) {
				row.note = `${start} in a dropped answer`;
			} else if (first - start <= lostNumbers) {
				row.note = `${start}..${first - 1} not seen (calls lost in a restart hold up to ${lostNumbers})`;
			} else {
				problems.push(
					`${name} (${period}): starts at ${first}, not at ${start}; lost calls explain at most ${lostNumbers} numbers`,
				);
			}
		}
		return { rows, problems };
	}
}
