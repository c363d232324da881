/**
 * The periods of the chaos run's sequences that start again (daily, monthly,
 * yearly): what the ledger (./sequence-ledger.ts) learnt of each (sequence, period)
 * and the check that every period starts again at the sequence's `start`.
 *
 *   const periods = new SequencePeriods();
 *   periods.answered({ name: "tickets", period: "2026-11-28", first: 3, count: 2, startMs: 5, endMs: 9 });
 *   periods.dropped("tickets", "2026-11-28", 1, 2, 8);
 *   periods.check("tickets", 1);
 *   // { rows: [{ period: "2026-11-28", numbers: 4, first: 1, note: "1 in a dropped answer", ... }], problems: [] }
 *
 * A period's smallest number is `start`. When no answer read holds it, a dropped
 * answer must, or calls lost with an unknown outcome that the service could have
 * served as the period began: one that reached it before the period's first answer
 * ended, and was lost after the last call of the period before began (the service's
 * order puts every number of that period first). Anything else is a period that did
 * not start again, or started below `start`.
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
	/** The earliest end of an answer holding its numbers: the period had begun by then. */
	earliestEndMs: number;
	/** The latest start of an answered call in it: the next period began after that. */
	latestStartMs: number;
}

/** A call lost with an unknown outcome: up to `count` numbers, served (if at all) between the two times. */
interface LostCall {
	count: number;
	startMs: number;
	lostMs: number;
}

export class SequencePeriods {
	private readonly books = new Map<string, Map<string, PeriodBook>>();
	private readonly lostCalls = new Map<string, LostCall[]>();

	/** An answer read (performance.now() times of its call). */
	answered(call: {
		name: string;
		period: string;
		first: number;
		count: number;
		startMs: number;
		endMs: number;
	}): void {
		const book = this.book(call.name, call.period, call.endMs);
		book.numbers += call.count;
		book.smallestAnswered = Math.min(book.smallestAnswered, call.first);
		book.earliestEndMs = Math.min(book.earliestEndMs, call.endMs);
		book.latestStartMs = Math.max(book.latestStartMs, call.startMs);
	}

	/** An answer the proxy dropped at `nowMs` after the service gave it. */
	dropped(name: string, period: string, first: number, count: number, nowMs: number): void {
		const book = this.book(name, period, nowMs);
		book.numbers += count;
		book.smallestDropped = Math.min(book.smallestDropped, first);
		book.earliestEndMs = Math.min(book.earliestEndMs, nowMs);
	}

	/** A call of `name` lost with an unknown outcome (its period unknown). */
	lost(name: string, count: number, when: { startMs: number; lostMs: number }): void {
		const calls = this.lostCalls.get(name) ?? [];
		this.lostCalls.set(name, calls);
		calls.push({ count, ...when });
	}

	private book(name: string, period: string, nowMs: number): PeriodBook {
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
				earliestEndMs: Number.POSITIVE_INFINITY,
				latestStartMs: Number.NEGATIVE_INFINITY,
			};
			byPeriod.set(period, book);
		}
		return book;
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
	 * it by more than the lost calls that could have held its first numbers.
	 */
	check(name: string, start: number): { rows: PeriodRow[]; problems: string[] } {
		const rows: PeriodRow[] = [];
		const problems: string[] = [];
		const byPeriod = this.books.get(name) ?? new Map<string, PeriodBook>();
		let before: PeriodBook | undefined;
		for (const { period, firstSeenMs } of this.seen(name)) {
			const book = byPeriod.get(period) as PeriodBook;
			const after = before?.latestStartMs ?? Number.NEGATIVE_INFINITY;
			before = book;
			const first = Math.min(book.smallestAnswered, book.smallestDropped);
			const row: PeriodRow = { name, period, numbers: book.numbers, first, firstSeenMs };
			rows.push(row);
			const lost = (this.lostCalls.get(name) ?? [])
				.filter((call) => call.startMs < book.earliestEndMs && call.lostMs > after)
				.reduce((sum, call) => sum + call.count, 0);
			if (first < start) {
				problems.push(`${name} (${period}): holds ${first}, below its start ${start}`);
			} else if (book.smallestAnswered === start) {
				// The period's start was read in an answer: nothing to explain.
			} else if (first === start) {
				row.note = `${start} in a dropped answer`;
			} else if (first - start <= lost) {
				row.note = `${start}..${first - 1} not seen: calls lost as the period began hold up to ${lost}`;
			} else {
				problems.push(
					`${name} (${period}): starts at ${first}, not at ${start}; calls lost as it began hold at most ${lost}`,
				);
			}
		}
		return { rows, problems };
	}
}
