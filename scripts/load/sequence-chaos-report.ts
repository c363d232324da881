/** The named sequences' chaos run's summary: what was checked, what was injected, PASS or FAIL and why. */
import type { AnswerProxyCounts } from "./answer-proxy";
import type { SequenceChaosOptions } from "./sequence-chaos-options";
import type { SequenceLedgerReport } from "./sequence-ledger";
import type { ZoneMidnight } from "./soonest-midnight";

export interface SequenceChaosResult {
	ledger: SequenceLedgerReport;
	proxy: AnswerProxyCounts;
	/** Calls that failed without an answer to check, by why. */
	failures: Record<string, number>;
	/** The buffers' own count of numbers reserved and never handed out. */
	bufferWasted: number;
	restartMs: number[];
	runSeconds: number;
	maxRssMb: number;
	poolMaxSize: number;
	/** The daily sequence's zone and the midnight the run may cross. */
	midnight: ZoneMidnight;
}

const n = (value: number) => value.toLocaleString("en-US");

/** Prints the report; true when the run passed. */
export function printSequenceChaosReport(
	result: SequenceChaosResult,
	opts: SequenceChaosOptions,
): boolean {
	const { ledger, proxy, restartMs, midnight } = result;
	const crossed = new Set(ledger.periods.map((row) => row.period)).size > 1;
	const midnightAt = `${midnight.timeZone}'s midnight, ${new Date(midnight.midnightMs).toISOString()}`;
	const lines = [
		`numbers checked        ${n(ledger.numbers)} in ${result.runSeconds.toFixed(1)} s (${n(Math.round(ledger.numbers / result.runSeconds))}/s)`,
		`calls answered         ${n(ledger.calls)}: ${Object.entries(ledger.byVia)
			.map(([via, { calls, numbers }]) => `${via} ${n(calls)} (${n(numbers)})`)
			.join(", ")}`,
		`buffers                ${n(ledger.bufferHanded)} numbers handed out; ${n(ledger.bufferUnused)} reserved and unused (the buffers count ${n(result.bufferWasted)} wasted, the rest held at the end)`,
		`order checks           ${n(ledger.orderChecks)} calls against every call that ended before they began`,
		`answers dropped        ${n(ledger.droppedCalls)} holding ${n(ledger.droppedNumbers)} numbers (proxy: ${n(proxy.dropped)} of ${n(proxy.forwarded)} dropped, ${n(proxy.late)} late)`,
		`calls lost, unknown    ${n(ledger.unknownCalls)} (cut by a restart or 5xx), up to ${n(ledger.unknownNumbers)} numbers`,
		`restarts               ${restartMs.length} of ${opts.restarts} (back in ${restartMs.map((ms) => (ms / 1000).toFixed(1)).join(", ") || "-"} s); ${n(proxy.unavailable)} requests answered 502 meanwhile`,
		`failed calls           ${
			Object.entries(result.failures)
				.map(([why, count]) => `${why} ${n(count)}`)
				.join(", ") || "none"
		}`,
		"accounting (issued by the service = seen + dropped + remainder; remainder within what lost calls and segments explain):",
		...ledger.accounts.map(
			(a) =>
				`  ${a.name.padEnd(14)} ${a.mode.padEnd(8)} issued ${n(a.issued)}, seen or dropped ${n(a.known)}, remainder ${n(a.remainder)} (explained up to ${n(a.bound)}${a.mode === "pooled" ? `: lost calls + requests × POOL_MAX_SIZE ${n(result.poolMaxSize)}` : ": lost calls"})${a.periods.length ? `; periods ${a.periods.join(", ")}` : ""}`,
		),
		`midnight crossed       ${crossed ? `yes: ${midnightAt}` : `no (${midnightAt}, not reached)`}`,
		...ledger.periods.map(
			(row) =>
				`  ${row.name.padEnd(14)} ${row.period}: ${n(row.numbers)} numbers, the first ${n(row.first)}${row.note ? ` (${row.note})` : ""}`,
		),
		`violations             duplicates ${ledger.duplicates}, out of order ${ledger.outOfOrder}, period back ${ledger.periodBack}, period not starting at start ${ledger.periodStart}, buffers outside their ranges ${ledger.bufferOutside}, buffers out of order ${ledger.bufferOutOfOrder}, malformed or refused ${ledger.malformed}, unaccounted ${ledger.unaccounted}`,
		`client memory          ${Math.round(result.maxRssMb)} MB RSS at most`,
	];
	console.log(lines.join("\n"));
	const problems = [...ledger.firstViolations];
	if (ledger.numbers < opts.minNumbers) {
		problems.push(`only ${n(ledger.numbers)} numbers checked, below ${n(opts.minNumbers)}`);
	}
	if (opts.crossMidnight && !crossed) problems.push(`asked to cross a midnight; saw one period`);
	if (restartMs.length < opts.restarts)
		problems.push(`${restartMs.length} of ${opts.restarts} restarts done`);
	if (opts.dropRate > 0 && ledger.droppedCalls === 0) problems.push("no answer was dropped");
	if (opts.json)
		console.log(JSON.stringify({ ...result, ledger: { ...ledger, firstViolations: undefined } }));
	if (problems.length === 0 && ledger.violations === 0) {
		console.log("PASS");
		return true;
	}
	console.log(`FAIL\n  ${problems.join("\n  ")}`);
	return false;
}
