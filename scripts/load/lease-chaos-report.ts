/** The lease chaos run's summary: what was checked, what was injected, PASS or FAIL and why. */
import type { AnswerProxyCounts } from "./answer-proxy";
import type { HolderLedgerReport } from "./holder-ledger";
import type { FleetCounts } from "./holder-processes";
import {
	RENEWALS_PER_SPAN,
	RENEWALS_PER_SPAN_IN_TROUBLE,
	type TroubleSummary,
} from "./holder-troubles";
import type { LeaseChaosOptions } from "./lease-chaos-options";

/** Refusals a holder may meet under this chaos; any other code fails the run. */
const EXPECTED_REFUSALS = new Set([
	"lease_expired", // no renewal came in time (the service down, answers lost)
	"no_free_worker_id", // more holders than worker IDs
	"overloaded", // a fresh span starting ahead (a released tail)
	"unavailable", // the service down or restarting (the proxy's 502, the service's 503)
	"network_error", // an answer dropped
	"timeout",
	"lease_lost", // lost again and again within one call
]);

export interface LeaseChaosResult {
	ledger: HolderLedgerReport;
	fleet: FleetCounts;
	proxy: AnswerProxyCounts;
	serverKills: number;
	restartMs: number[];
	/** Steps of an object clock injected, and what the faults aimed at one holder did. */
	objectClockSteps: number;
	troubles: TroubleSummary;
	/** Summed over the holders that ended by SIGTERM (a killed one prints none). */
	holderStats: Record<string, number>;
	runSeconds: number;
	/** Time the ledger spent checking, and the orchestrator's largest RSS. */
	checkSeconds: number;
	maxRssMb: number;
	unexpectedExits: string[];
}

const n = (x: number) => x.toLocaleString("en-US");

/**
 * How many of the `lease_expired` refusals out of any trouble would come soon after a
 * hung renewal by chance: a loaded machine refuses some with no fault near, and
 * holders spend a share of their time near a hang.
 */
function hangChance({ leaseExpired }: TroubleSummary): number {
	return (leaseExpired.afterHang + leaseExpired.unexplained) * leaseExpired.nearHangShare;
}

/** Median, 90th and 99th percentile and most of `ms`. */
function answerTimes(ms: number[]): string {
	const sorted = [...ms].sort((a, b) => a - b);
	const at = (share: number) =>
		sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
	return sorted.length === 0
		? "-"
		: `median ${at(0.5)} ms, 90th ${at(0.9)} ms, 99th ${at(0.99)} ms, most ${sorted.at(-1)} ms`;
}

const excuses = (counts: Record<string, number>) =>
	Object.entries(counts)
		.map(([why, count]) => `${count} ${why}`)
		.join(", ") || "none";

/** The median of `ms`, or 0 when empty. */
function median(ms: number[]): number {
	const sorted = [...ms].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * Whether the holders' liveness can be judged: only when the service answered
 * renewals in time (their median within a holder's deadline, a tenth of the span).
 * On a machine so loaded that it did not, no holder can renew, whatever its code:
 * then the run judges safety alone and says so. Safety (no repeat, nothing outside
 * a span, in order, no overlap) is judged in every run.
 */
export function livenessJudged(result: LeaseChaosResult, opts: LeaseChaosOptions): boolean {
	return median(result.proxy.renewalAnswerMs) <= opts.spanMs / 10;
}

/** Why the run failed (empty: it passed). */
export function failures(result: LeaseChaosResult, opts: LeaseChaosOptions): string[] {
	const { ledger, fleet, proxy } = result;
	const why: string[] = [];
	const violations =
		ledger.repeats +
		ledger.outsideSpans +
		ledger.notIncreasing +
		ledger.overlappingSpans +
		ledger.malformed;
	if (violations > 0) why.push(`${n(violations)} violations`);
	if (ledger.ids < opts.minIds)
		why.push(`${n(ledger.ids)} IDs checked, fewer than ${n(opts.minIds)}`);
	if (ledger.reLeases === 0) why.push("no worker ID was re-leased");
	if (fleet.kills < opts.kills) why.push(`${fleet.kills} of ${opts.kills} holder kills done`);
	if (fleet.pauses < opts.pauses) why.push(`${fleet.pauses} of ${opts.pauses} pauses done`);
	if (fleet.clockSteps < opts.clockSteps) {
		why.push(`${fleet.clockSteps} of ${opts.clockSteps} clock steps done`);
	}
	if (opts.clockSteps > 0 && ledger.wallClockStepsBack === 0) {
		why.push("no holder showed a wall clock stepped back");
	}
	if (result.serverKills < opts.serverKills) {
		why.push(`${result.serverKills} of ${opts.serverKills} server kills done`);
	}
	if (opts.dropRate > 0 && proxy.dropped === 0) why.push("no answer was dropped");
	const { steps, hangs, leaseExpired, renewals } = result.troubles;
	if (result.objectClockSteps < opts.objectClockSteps) {
		why.push(`${result.objectClockSteps} of ${opts.objectClockSteps} object clock steps done`);
	}
	if (opts.objectClockSteps > 0 && steps.met === 0)
		why.push("no holder met a stepped object clock");
	if (opts.hangRate > 0 && proxy.hung === 0) why.push("no renewal answer was hung");
	const live = livenessJudged(result, opts);
	if (live && steps.stuck.length > 0) {
		why.push(`${steps.stuck.length} holders did not issue again after a stepped object clock`);
	}
	if (live && hangs.stuck.length > 0)
		why.push(`${hangs.stuck.length} holders stopped after a hung renewal`);
	if (live && leaseExpired.afterHang > hangChance(result.troubles) * 2 + 3) {
		why.push(
			`${leaseExpired.afterHang} calls refused lease_expired soon after a hung renewal, more than chance explains`,
		);
	}
	if (renewals.over.length > 0) why.push(`${renewals.over.length} holders renewed over the bound`);
	if (fleet.unexpectedExits > 0) why.push(`${fleet.unexpectedExits} holders exited by themselves`);
	if (fleet.stuckAtEnd > 0) why.push(`${fleet.stuckAtEnd} holders did not stop on SIGTERM`);
	const unexpected = Object.keys(ledger.refused).filter((code) => !EXPECTED_REFUSALS.has(code));
	if (unexpected.length > 0) why.push(`refusals no chaos explains: ${unexpected.join(", ")}`);
	return why;
}

/** Prints the summary (and the JSON line with --json); returns whether the run passed. */
export function printLeaseChaosReport(result: LeaseChaosResult, opts: LeaseChaosOptions): boolean {
	const { ledger, fleet, proxy, holderStats, troubles } = result;
	const { steps, hangs, leaseExpired, renewals } = troubles;
	const refused = Object.entries(ledger.refused)
		.sort(([, a], [, b]) => b - a)
		.map(([code, count]) => `${code} ${n(count)}`);
	const statuses = Object.entries(proxy.statuses).map(
		([status, count]) => `${status}: ${n(count)}`,
	);
	const stat = (name: string) => n(holderStats[name] ?? 0);
	const why = failures(result, opts);
	const lines = [
		"",
		"summary",
		`  IDs checked              ${n(ledger.ids)} (${n(Math.round(ledger.ids / result.runSeconds))}/s over ${result.runSeconds.toFixed(1)} s), by ${n(ledger.processes)} holder processes`,
		`  repeats                  ${n(ledger.repeats)}`,
		`  outside a granted span   ${n(ledger.outsideSpans)}`,
		`  out of order in a holder ${n(ledger.notIncreasing)}`,
		`  overlapping spans        ${n(ledger.overlappingSpans)} (of ${n(ledger.leases)} leases of ${n(ledger.workerIds)} worker IDs)`,
		`  malformed lines          ${n(ledger.malformed)} (plus ${n(ledger.torn)} cut short by a SIGKILL)`,
		`  re-leases                ${n(ledger.reLeases)} (a worker ID leased again, to this or another holder)`,
		`  holders killed           ${n(fleet.kills)} (SIGKILL, restarted; ${n(fleet.started)} processes in all, ${opts.python} Python and ${opts.java} Java of ${opts.holders} slots)`,
		`  holders paused           ${n(fleet.pauses)} (SIGSTOP for 2-5 spans of ${opts.spanMs} ms; ${n(fleet.pausesTakenOver)} woke with their worker ID leased to another holder)`,
		`  wall clocks              ${n(ledger.wallClockMinMs)} to ${n(ledger.wallClockMaxMs)} ms from the service's; ${n(fleet.clockSteps)} steps back of ${n(opts.clockStepMs)} ms sent, ${n(ledger.wallClockStepsBack)} seen at a grant`,
		`  server killed            ${result.serverKills} (SIGKILL of wrangler dev; restarts ${result.restartMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(", ") || "-"})`,
		`  answers dropped          ${n(proxy.dropped)} of ${n(proxy.forwarded)} (after the service acted; ${n(proxy.late)} held back, ${n(proxy.unavailable)} 502 while down; statuses ${statuses.join(", ")})`,
		`  object clocks stepped    ${n(result.objectClockSteps)} (2-6 spans ahead for 1-2 spans; ${n(proxy.stepped)} grants read ahead); ${n(steps.met)} holders met one: ${n(steps.recovered)} issued again (at most ${(steps.slowestMs / 1000).toFixed(1)} s after the step ended; bound ${(troubles.recoverMs / 1000).toFixed(1)} s), ${n(steps.stuck.length)} stuck; not judged: ${excuses(steps.excused)}`,
		`  renewals hung            ${n(proxy.hung)} (held 1-3 spans; ${n(proxy.hungGivenUp)} given up by the holder first); ${n(hangs.met)} holders met one: ${n(hangs.recovered)} went on issuing, ${n(hangs.stuck.length)} stopped; not judged: ${excuses(hangs.excused)}`,
		`  renewal answer times     ${answerTimes(proxy.renewalAnswerMs)} (the service's, at the proxy; a holder's deadline is a tenth of the span, ${opts.spanMs / 10} ms)`,
		livenessJudged(result, opts)
			? "  liveness                 judged (renewals answered within the holders' deadline)"
			: "  liveness                 NOT judged: the service's median renewal answer was past the holders' deadline (a loaded machine); safety judged as always",
		`  holder refusals          ${refused.join(", ") || "none"}`,
		`  lease_expired            ${n(leaseExpired.all)}: ${n(leaseExpired.inTrouble)} in a holder's trouble (a stepped clock, a pause, the service down), ${n(leaseExpired.afterHang)} within ${(troubles.recoverMs / 1000).toFixed(0)} s after a hung renewal (chance: ${hangChance(troubles).toFixed(1)}, holders spent ${(100 * leaseExpired.nearHangShare).toFixed(0)} % of their quiet time there), ${n(leaseExpired.unexplained)} with no fault near`,
		`  renewal rates            at most ${renewals.maxPerSpan.toFixed(1)} a span over a holder's life (${n(renewals.holders)} holders counted); bound ${RENEWALS_PER_SPAN} a span, ${RENEWALS_PER_SPAN_IN_TROUBLE} in trouble: ${n(renewals.over.length)} over; ${stat("renewalsFailed")} of ${stat("renewals")} attempts failed`,
		`  holder calls             acquires ${stat("acquires")}, renewals ${stat("renewals")}, leases lost ${stat("leasesLost")}, releases ${stat("releases")} (as the holders that ended on SIGTERM count them; a killed one reports none)`,
		`  ledger                   ${n(ledger.intervals)} intervals; ${result.checkSeconds.toFixed(1)} s checking (${((100 * result.checkSeconds) / result.runSeconds).toFixed(1)} % of the run); ${result.maxRssMb.toFixed(0)} MB RSS at most`,
		`  seed                     ${opts.seed}`,
		"",
		why.length === 0
			? "PASS: no repeats, every ID in a span its holder was granted, every holder in order"
			: `FAIL: ${why.join("; ")}`,
	];
	const stuck = [...renewals.over, ...steps.stuck, ...hangs.stuck].slice(0, 12);
	for (const detail of [...ledger.firstViolations, ...result.unexpectedExits, ...stuck]) {
		lines.push(`  ${detail}`);
	}
	console.log(lines.join("\n"));
	if (opts.json) {
		console.log(JSON.stringify({ ...result, options: opts, passed: why.length === 0 }));
	}
	return why.length === 0;
}
