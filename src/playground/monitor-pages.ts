/**
 * The monitor's paging and search: `GET /stats` answers a page at a time (worker IDs,
 * then sequences, with the fleet's totals on each), so the page keeps the cursors of
 * the pages it has shown to go back; and a sequence is found by the start of its name
 * (`GET /sequences?prefix=`), for the chart's picker and the search box. Nothing here
 * grows with the fleet: one page and at most SEARCH_LIMIT names at a time.
 *
 *   const pager = new StatsPager(50);
 *   pager.path();            // "/stats?limit=50"
 *   pager.shown(answer);     // remembers answer.cursor for "Next"
 *   pager.next(); pager.path(); // "/stats?limit=50&cursor=s%3Aorders"
 */
import type { FleetStats, SequenceList } from "../wire";
import { api } from "./api";
import { byId, el } from "./dom";

/** Names a search shows. */
export const SEARCH_LIMIT = 20;

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

/** Up to SEARCH_LIMIT sequence names that start with `text` (none for text no name can start with). */
export async function namesStartingWith(text: string): Promise<string[]> {
	const prefix = text.trim();
	if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(prefix)) return [];
	const list = await api<SequenceList>(
		`/sequences?limit=${SEARCH_LIMIT}&prefix=${encodeURIComponent(prefix)}`,
	);
	return list.names;
}

/**
 * Wires the pager's buttons (`#stats-previous`, `#stats-next`, `#stats-page`): a click
 * moves the pager and asks for the page (`show`).
 */
export function setUpPager(pager: StatsPager, show: () => void): (stats: FleetStats) => void {
	const previous = byId<HTMLButtonElement>("stats-previous");
	const next = byId<HTMLButtonElement>("stats-next");
	previous.addEventListener("click", () => {
		pager.previous();
		show();
	});
	next.addEventListener("click", () => {
		pager.next();
		show();
	});
	return (stats) => {
		pager.shown(stats);
		previous.disabled = !pager.hasPrevious;
		next.disabled = !pager.hasNext;
		byId("stats-page").textContent = `Page ${pager.page}`;
	};
}

/**
 * Search by name: typing in `input` fills `datalist` with the names that start with the
 * text (the chart's picker), and the search form lists them as buttons that `pick` one.
 */
export function setUpNameSearch(
	input: HTMLInputElement,
	datalist: HTMLElement,
	pick: (name: string) => void,
): void {
	let asked = 0;
	const fill = async (text: string, show: (names: string[]) => void) => {
		const run = ++asked;
		const names = await namesStartingWith(text).catch(() => []);
		if (run === asked) show(names);
	};
	input.addEventListener("input", () =>
		fill(input.value, (names) =>
			datalist.replaceChildren(...names.map((name) => el("option", { value: name }))),
		),
	);
	const search = byId<HTMLInputElement>("sequence-search");
	byId<HTMLFormElement>("sequence-search-form").addEventListener("submit", (event) => {
		event.preventDefault();
		fill(search.value, (names) =>
			byId("sequence-search-results").replaceChildren(
				names.length === 0
					? el("p", { class: "subtle", text: "No sequence name starts with that." })
					: el(
							"ul",
							{ class: "found" },
							names.map((name) => {
								const button = el("button", { type: "button", class: "secondary", text: name });
								button.addEventListener("click", () => pick(name));
								return el("li", null, button);
							}),
						),
			),
		);
	});
}
