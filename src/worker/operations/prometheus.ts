/**
 * The fleet catalog root's metrics snapshot in the Prometheus text exposition format
 * (version 0.0.4): a `# HELP` and `# TYPE` line per metric, then one sample per worker
 * ID, per sequence of the busiest METRICS_SEQUENCES, or for the whole fleet. A scrape
 * is one request to the root and O(worker IDs + METRICS_SEQUENCES) lines, whatever the
 * number of sequences. Counts above 2^53 are written as their exact decimal digits
 * (a Prometheus server reads them as floats: docs/OPERATIONS.md says what to read instead).
 *
 *   prometheusText(snapshot, 53.2);
 *   // # HELP edge_ids_ids_issued_total Snowflake IDs issued by the worker ID's object.
 *   // # TYPE edge_ids_ids_issued_total counter
 *   // edge_ids_ids_issued_total{worker_id="7"} 1200
 */
import type { MetricsSnapshot } from "../object/object-protocol";

/** `Content-Type` of the exposition format. */
export const PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";

type Family = { name: string; type: "counter" | "gauge"; help: string; samples: string[] };

/** A label value, escaped as the format asks (backslash, quote, newline). */
function labelValue(value: string): string {
	return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function family(name: string, type: Family["type"], help: string, samples: string[]): Family {
	return { name, type, help, samples };
}

type WorkerCounts = MetricsSnapshot["workerIds"][number];
type SequenceCounts = MetricsSnapshot["sequences"][number];

/** The counters each worker ID has: name, help, value. */
const WORKER_COUNTERS: [string, string, (w: WorkerCounts) => number][] = [
	["edge_ids_ids_issued_total", "Snowflake IDs issued by the worker ID's object.", (w) => w.issued],
	[
		"edge_ids_requests_total",
		"Calls to the worker ID's object for IDs, refused ones included.",
		(w) => w.requests,
	],
	[
		"edge_ids_waits_total",
		"Calls that waited for the clock to reach a later tick.",
		(w) => w.waits,
	],
	[
		"edge_ids_clock_regressions_total",
		"Times the clock stood further behind the last ID than borrowing covers.",
		(w) => w.clockRegressions,
	],
	[
		"edge_ids_refusals_total",
		"Calls the worker ID's object refused (any error code).",
		(w) => w.refusals,
	],
];

/** Each sequence's families: name, type, help, value (null: no sample). */
const SEQUENCE_FAMILIES: [
	string,
	Family["type"],
	string,
	(s: SequenceCounts) => number | string | null,
][] = [
	[
		"edge_ids_sequence_issued_total",
		"counter",
		"Numbers issued by the named sequence, in every period.",
		(s) => s.issued,
	],
	[
		"edge_ids_sequence_requests_total",
		"counter",
		"Calls that took numbers from the named sequence's object.",
		(s) => s.requests,
	],
	[
		"edge_ids_sequence_next",
		"gauge",
		"The next number the named sequence gives in its current period.",
		(s) => s.next,
	],
	[
		"edge_ids_sequence_last_issued_timestamp_seconds",
		"gauge",
		"Unix time of the named sequence's last call that issued numbers.",
		(s) => (s.lastIssuedAtMs === null ? null : s.lastIssuedAtMs / 1000),
	],
];

export function prometheusText(snapshot: MetricsSnapshot, layoutYearsLeft: number): string {
	const perWorker = (name: string, pick: (w: WorkerCounts) => number) =>
		snapshot.workerIds.map((w) => `${name}{worker_id="${w.workerId}"} ${pick(w)}`);
	const perSequence = (name: string, pick: (s: SequenceCounts) => number | string | null) =>
		snapshot.sequences.flatMap((s) => {
			const value = pick(s);
			return value === null ? [] : [`${name}{sequence="${labelValue(s.name)}"} ${value}`];
		});
	const held = snapshot.leases.filter((lease) => lease.state === "held").length;
	const families = [
		...WORKER_COUNTERS.map(([name, help, pick]) =>
			family(name, "counter", help, perWorker(name, pick)),
		),
		family(
			"edge_ids_last_issued_timestamp_seconds",
			"gauge",
			"Unix time of the worker ID's last issued ID's tick.",
			snapshot.workerIds
				.filter((w) => w.lastTimestamp !== null)
				.map(
					(w) =>
						`edge_ids_last_issued_timestamp_seconds{worker_id="${w.workerId}"} ${(w.lastTimestamp as number) / 1000}`,
				),
		),
		...SEQUENCE_FAMILIES.map(([name, type, help, pick]) =>
			family(name, type, help, perSequence(name, pick)),
		),
		family("edge_ids_sequences", "gauge", "Named sequences in the catalog shards.", [
			`edge_ids_sequences ${snapshot.totals.sequences}`,
		]),
		family(
			"edge_ids_sequences_issued_total",
			"counter",
			"Numbers issued by every named sequence (each shard's sum, at most a minute behind).",
			[`edge_ids_sequences_issued_total ${snapshot.totals.sequencesIssued}`],
		),
		family(
			"edge_ids_sequences_requests_total",
			"counter",
			"Calls that issued numbers, of every named sequence (each shard's sum).",
			[`edge_ids_sequences_requests_total ${snapshot.totals.sequenceRequests}`],
		),
		family("edge_ids_leases_held", "gauge", "Worker IDs held by a lease holder.", [
			`edge_ids_leases_held ${held}`,
		]),
		family("edge_ids_leases_in_grace", "gauge", "Leases past their span, in their grace.", [
			`edge_ids_leases_in_grace ${snapshot.leases.length - held}`,
		]),
		family(
			"edge_ids_layout_years_left",
			"gauge",
			"Years until the Snowflake layout's last instant (then every worker ID refuses).",
			[`edge_ids_layout_years_left ${layoutYearsLeft}`],
		),
	];
	const lines = families.flatMap((f) => [
		`# HELP ${f.name} ${f.help}`,
		`# TYPE ${f.name} ${f.type}`,
		...f.samples,
	]);
	return `${lines.join("\n")}\n`;
}
