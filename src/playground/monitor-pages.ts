/**
 * The monitor's pages (pure, unit-tested): `GET /stats` answers a page at a time
 * (worker IDs, then sequences, with the fleet's totals on each), so the monitor keeps
 * the cursors of the pages it has shown to go back (./monitor-controls.ts wires the
 * buttons). Nothing here grows with the fleet: one page at a time.
 *
 *   const pager = new StatsPager(50);
 *   pager.path();            // "/stats?limit=50"
 *   pager.shown(answer);     // remembers answer.cursor for "Next"
 *   pager.next(); pager.path(); // "/stats?limit=50&cursor=s%3Aorders"
 */
import type { FleetStats } from "../wire";

/** Which page of `GET /stats` the monitor shows, and the way back. */
export class StatsPager {
	/** The cursors of the pages before the one shown (undefined: the first page). */
	private readonly before: (string | undefined)[] = [];
	private current: string | undefined;
	private following: string | null = null;

	constructor(private readonly limit: number) {}

	/** The route of the page to show. */
	path(): string {
		const cursor = this.current === undefined ? "" : `&cursor=${encodeURIComponent(this.current)}`;
		return `/stats?limit=${this.limit}${cursor}`;
	}

	/** The page answered: its cursor is where "Next" goes. */
	shown(stats: FleetStats): void {
		this.following = stats.cursor;
	}

	get hasNext(): boolean {
		return this.following !== null;
	}

	get hasPrevious(): boolean {
		return this.before.length > 0;
	}

	/** The page number shown, from 1. */
	get page(): number {
		return this.before.length + 1;
	}

	next(): void {
		if (this.following === null) return;
		this.before.push(this.current);
		this.current = this.following;
	}

	previous(): void {
		if (this.before.length === 0) return;
		this.current = this.before.pop();
	}
}
