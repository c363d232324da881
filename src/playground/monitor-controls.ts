/**
 * The monitor's paging buttons and its search by name: a click on "Previous page" or
 * "Next page" moves the pager (./monitor-pages.ts) and asks for that page; a sequence is
 * found by the start of its name (`GET /sequences?prefix=`), for the chart's picker and
 * the search box. At most SEARCH_LIMIT names at a time, whatever the fleet's size.
 *
 *   const pageShown = setUpPager(pager, refresh);   // then pageShown(stats) after each answer
 *   setUpNameSearch(input, datalist, (name) => chart(name));
 */
import type { FleetStats, SequenceList } from "../wire";
import { api } from "./api";
import { byId, el } from "./dom";
import type { StatsPager } from "./monitor-pages";

/** Names a search shows. */
const SEARCH_LIMIT = 20;

/** Up to SEARCH_LIMIT sequence names that start with `text` (none for text no name can start with). */
async function namesStartingWith(text: string): Promise<string[]> {
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
