/**
 * The monitor page's charts (uPlot, bundled): IDs issued per minute on the left
 * axis, waits and refusals on the right, one chart per view (the fleet, one worker
 * ID). A chart is made once and given new data on each refresh; it follows its
 * container's width.
 *
 *   const chart = minuteChart(byId("fleet-chart")); // titled by its card
 *   chart.update(chartColumns(history, 60, Date.now()));
 */
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

export interface MinuteChart {
	update(columns: uPlot.AlignedData): void;
}

const HEIGHT = 220;

export function minuteChart(container: HTMLElement): MinuteChart {
	const width = () => Math.max(240, container.clientWidth);
	const options: uPlot.Options = {
		width: width(),
		height: HEIGHT,
		scales: { x: { time: true }, calls: { auto: true } },
		series: [
			{},
			{ label: "IDs issued", stroke: "#2563eb", fill: "rgba(37, 99, 235, 0.12)", width: 2 },
			{ label: "Waits", stroke: "#d97706", scale: "calls", width: 1.5 },
			{ label: "Refusals", stroke: "#dc2626", scale: "calls", width: 1.5 },
		],
		axes: [
			{ stroke: "currentColor" },
			{ stroke: "currentColor", label: "IDs / min", size: 60 },
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
