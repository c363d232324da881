/**
 * The monitor page's charts (uPlot, bundled): IDs issued per minute on the left
 * axis, the calls on the right (requests, waits and refusals), one chart per view
 * (the fleet, one worker ID, one sequence: its numbers, and no waits). A chart is made once and given new
 * data on each refresh; it follows its container's width.
 *
 *   const chart = minuteChart(byId("fleet-chart")); // titled by its card
 *   chart.update(chartColumns(history, 60, Date.now()));
 *   minuteChart(byId("sequence-chart"), SEQUENCE_CHART);
 */
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { ChartColumns } from "./monitor-data";

export interface MinuteChart {
	update(columns: ChartColumns): void;
}

/** What a chart counts: the issued series' name and axis, and whether it has waits. */
export interface ChartKind {
	issued: string;
	perMinute: string;
	waits: boolean;
}

const ID_CHART: ChartKind = { issued: "IDs issued", perMinute: "IDs / min", waits: true };
/** A sequence's numbers; it never waits on a clock. */
export const SEQUENCE_CHART: ChartKind = {
	issued: "Numbers issued",
	perMinute: "numbers / min",
	waits: false,
};

const HEIGHT = 220;

export function minuteChart(container: HTMLElement, kind = ID_CHART): MinuteChart {
	const width = () => Math.max(240, container.clientWidth);
	const options: uPlot.Options = {
		width: width(),
		height: HEIGHT,
		scales: { x: { time: true }, calls: { auto: true } },
		series: [
			{},
			{ label: kind.issued, stroke: "#2563eb", fill: "rgba(37, 99, 235, 0.12)", width: 2 },
			{ label: "Requests", stroke: "#059669", scale: "calls", width: 1.5 },
			{ label: "Waits", stroke: "#d97706", scale: "calls", width: 1.5, show: kind.waits },
			{ label: "Refusals", stroke: "#dc2626", scale: "calls", width: 1.5 },
		],
		axes: [
			{ stroke: "currentColor" },
			{ stroke: "currentColor", label: kind.perMinute, size: 60 },
			{
				stroke: "currentColor",
				side: 1,
				scale: "calls",
				label: "calls / min",
				grid: { show: false },
			},
		],
	};
	let plot: uPlot | undefined;
	new ResizeObserver(() => plot?.setSize({ width: width(), height: HEIGHT })).observe(container);
	return {
		update(columns) {
			if (plot) plot.setData(columns);
			else plot = new uPlot(options, columns, container);
		},
	};
}
