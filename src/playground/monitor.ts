/**
 * The monitor page (/monitor): the fleet's worker IDs, leases and sequences, charts
 * of the last hour or day for the fleet, one worker ID and one sequence, and the layout's end,
 * refreshed every REFRESH_MS. Every call goes to this service's own routes (same
 * origin), with the API token the tab holds (./api.ts, ./token-panel.ts). What the
 * deployment is (`GET /regions`, once) says whether leases are on (off: no lease
 * route is asked, so no refused request) and which worker IDs serve the auto route.
 * Wide tables scroll inside their cards, with a hint where they do.
 */
import type { FleetLeases, FleetStats, RegionsInfo, SequenceHistory, StatsHistory } from "../wire";
import { ApiError, api, errorBox } from "./api";
import { byId, el, relative } from "./dom";
import { minuteChart, SEQUENCE_CHART } from "./monitor-charts";
import { setUpNameSearch, setUpPager } from "./monitor-controls";
import { autoRoute, busiest, chartColumns, count, groupDigits, timeLeft } from "./monitor-data";
import { StatsPager } from "./monitor-pages";
import { setUpTokenPanel } from "./token-panel";

const REFRESH_MS = 15_000;
/** Rows (worker IDs, then sequences) a page of the tables shows. */
const PAGE_ROWS = 50;

const status = byId("refresh-status");
const problems = byId("problems");
const workerInput = byId<HTMLInputElement>("chart-worker-id");
const sequenceInput = byId<HTMLInputElement>("chart-sequence");
const windowRadios = byId<HTMLFormElement>("window-form").elements.namedItem(
	"window",
) as RadioNodeList;
const pauseButton = byId<HTMLButtonElement>("pause");
const fleetChart = minuteChart(byId("fleet-chart"));
const workerChart = minuteChart(byId("worker-chart"));
const sequenceChart = minuteChart(byId("sequence-chart"), SEQUENCE_CHART);
let paused = false;
let chosenWorker: number | undefined;
let chosenSequence: string | undefined;
let running = 0;
/** The deployment as `GET /regions` describes it, once read. */
let deployment: RegionsInfo | undefined;
const pager = new StatsPager(PAGE_ROWS);
const pageShown = setUpPager(pager, () => refresh());

const minutes = () => Number(windowRadios.value);

/** Why an auto worker ID's Issued runs ahead of the IDs its callers received. */
const AUTO_NOTE =
	"auto: this worker ID serves /snowflake without a worker ID. Each isolate takes its IDs in blocks for a pool and hands them out from memory, so Issued counts whole blocks, more than callers have received; what a pool never hands out is not issued again.";

function cell(text: string | number, numeric = false) {
	return el("td", { text: String(text), class: numeric ? "num" : null });
}

/** Marks a table's box while its table is wider than it (a phone): the hint shows, an edge fades. */
const overflowWatch = new ResizeObserver((entries) => {
	for (const { target } of entries) {
		const scroller = target.querySelector(".table-scroll");
		if (scroller) {
			target.classList.toggle("scrolls", scroller.scrollWidth > scroller.clientWidth + 1);
		}
	}
});

function table(caption: string, headings: string[], rows: HTMLTableRowElement[]) {
	const head = el(
		"tr",
		null,
		headings.map((h) => el("th", { text: h, scope: "col" })),
	);
	const box = el("div", { class: "table-box" }, [
		el("p", { class: "scroll-hint subtle", text: "Scroll sideways for more columns →" }),
		el("div", { class: "table-scroll" }, [
			el("table", null, [
				el("caption", { text: caption }),
				el("thead", null, head),
				el("tbody", null, rows),
			]),
		]),
	]);
	overflowWatch.observe(box);
	return box;
}

function showFleet(stats: FleetStats): void {
	const { layout, serverNowMs: now, totals } = stats;
	byId("layout-end").textContent =
		`${layout.exhaustsAt.slice(0, 10)} (${layout.yearsLeft} years left)`;
	const isAuto = deployment ? autoRoute(deployment) : () => false;
	byId("fleet-totals").textContent =
		`${count(totals.workerIds)} worker IDs have issued ${count(totals.issued)} IDs; ` +
		`${count(totals.sequences)} sequences have issued ${count(totals.sequencesIssued)} numbers.`;
	const rows = stats.workerIds.map((w) =>
		el("tr", null, [
			el("th", { scope: "row" }, [
				String(w.workerId),
				...(isAuto(w.workerId) ? [" ", el("span", { class: "tag", text: "auto" })] : []),
			]),
			cell(count(w.issued), true),
			cell(count(w.requests), true),
			cell(count(w.waits), true),
			cell(count(w.clockRegressions), true),
			cell(count(w.refusals), true),
			cell(w.lastTimestamp === null ? "never" : relative(w.lastTimestamp, now)),
		]),
	);
	const autoShown = stats.workerIds.some((w) => isAuto(w.workerId));
	byId("fleet-table").replaceChildren(
		rows.length === 0
			? el("p", {
					class: "subtle",
					text:
						pager.page > 1
							? "No worker IDs on this page."
							: "No worker ID has reported yet: counts arrive within two minutes of the first IDs.",
				})
			: table(
					"Worker IDs that have issued",
					["Worker ID", "Issued", "Requests", "Waits", "Clock regressions", "Refusals", "Last ID"],
					rows,
				),
		...(autoShown ? [el("p", { class: "subtle", id: "auto-note", text: AUTO_NOTE })] : []),
	);
	const sequenceRows = stats.sequences.map((s) =>
		el("tr", null, [
			el("th", { text: s.name, scope: "row" }),
			cell(s.next === null ? "—" : groupDigits(s.next), true),
			cell(count(s.issued), true),
			cell(count(s.requests), true),
			cell(s.lastIssuedAtMs === null ? "never" : relative(s.lastIssuedAtMs, now)),
			cell(s.period ?? "—"),
			cell(relative(s.createdAtMs, now)),
		]),
	);
	byId("sequences-table").replaceChildren(
		sequenceRows.length === 0
			? el("p", {
					class: "subtle",
					text: pager.hasNext
						? "Sequences follow on the next page."
						: "No named sequences on this page.",
				})
			: table(
					"Named sequences",
					["Name", "Next", "Issued", "Requests", "Last issued", "Period", "Created"],
					sequenceRows,
				),
	);
	chosenWorker ??= busiest(stats.workerIds)?.workerId;
	if (chosenWorker !== undefined && !workerInput.value) workerInput.value = String(chosenWorker);
	chosenSequence ??= busiest(stats.sequences)?.name;
	if (chosenSequence !== undefined && !sequenceInput.value) sequenceInput.value = chosenSequence;
}

function showLeases(leases: FleetLeases | "off"): void {
	const box = byId("leases-table");
	if (leases === "off") {
		box.replaceChildren(
			el("p", {
				class: "subtle",
				text: "Leases are off on this deployment (LEASE_WORKER_IDS is empty).",
			}),
		);
		return;
	}
	const now = leases.serverNowMs;
	const rows = leases.leases.map((l) =>
		el("tr", null, [
			el("th", { text: String(l.workerId), scope: "row" }),
			cell(l.holder ?? "—"),
			cell(l.state),
			cell(`${l.spanMs / 1000} s`, true),
			cell(timeLeft(l.toMs, now), true),
			cell(relative(l.acquiredAtMs, now)),
		]),
	);
	box.replaceChildren(
		rows.length === 0
			? el("p", { class: "subtle", text: "No worker ID is leased." })
			: table(
					"Leased worker IDs",
					["Worker ID", "Holder", "State", "Span", "Time left", "Acquired"],
					rows,
				),
	);
}

/** The leases, or "off": told by the deployment (no request), or by a refusal where it cannot say. */
async function leasesOrOff(): Promise<FleetLeases | "off"> {
	if (deployment?.leaseWorkerIds === "") return "off";
	try {
		return await api<FleetLeases>("/leases");
	} catch (error) {
		if (error instanceof ApiError && error.code === "leases_disabled") return "off";
		throw error;
	}
}

async function refresh(): Promise<void> {
	const run = ++running;
	status.textContent = "Refreshing…";
	const window = minutes();
	try {
		deployment ??= await api<RegionsInfo>("/regions");
		const [stats, leases, fleet] = await Promise.all([
			api<FleetStats>(pager.path()),
			leasesOrOff(),
			api<StatsHistory>(`/stats/history?minutes=${window}`),
		]);
		if (run !== running) return;
		pageShown(stats);
		showFleet(stats);
		showLeases(leases);
		fleetChart.update(chartColumns(fleet.history, window, fleet.serverNowMs));
		const workerId = workerInput.value.trim();
		if (/^[0-9]+$/.test(workerId)) {
			const one = await api<StatsHistory>(`/stats/${workerId}/history?minutes=${window}`);
			if (run !== running) return;
			byId("worker-chart-title").textContent = `Worker ID ${workerId}, per minute`;
			workerChart.update(chartColumns(one.history, window, one.serverNowMs));
		}
		const sequence = sequenceInput.value.trim();
		if (sequence) {
			const path = `/sequences/${encodeURIComponent(sequence)}/history?minutes=${window}`;
			const one = await api<SequenceHistory>(path);
			if (run !== running) return;
			byId("sequence-chart-title").textContent = `Sequence ${sequence}, per minute`;
			sequenceChart.update(chartColumns(one.history, window, one.serverNowMs));
		}
		problems.replaceChildren();
		status.textContent = `Updated ${new Date().toLocaleTimeString("en-GB")}${paused ? "; paused" : `; refreshes every ${REFRESH_MS / 1000} s`}.`;
	} catch (error) {
		if (run !== running) return;
		status.textContent = "Could not refresh.";
		problems.replaceChildren(errorBox(error));
	}
}

for (const radio of windowRadios) radio.addEventListener("change", refresh);
for (const form of ["worker-form", "sequence-form"]) {
	byId<HTMLFormElement>(form).addEventListener("submit", (event) => {
		event.preventDefault();
		refresh();
	});
}
pauseButton.addEventListener("click", () => {
	paused = !paused;
	pauseButton.textContent = paused ? "Resume" : "Pause";
	pauseButton.setAttribute("aria-pressed", String(paused));
	if (!paused) refresh();
	else status.textContent = `${status.textContent?.replace(/;.*$/, "") ?? ""}; paused.`;
});
setInterval(() => {
	if (!paused && document.visibilityState === "visible") refresh();
}, REFRESH_MS);
setUpNameSearch(sequenceInput, byId("sequence-names"), (name) => {
	sequenceInput.value = name;
	refresh();
});
setUpTokenPanel({ tokenSet: refresh, tokenForgotten: refresh });
refresh();
