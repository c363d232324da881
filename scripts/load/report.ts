/** The load test's summary: a table per route, then every check's count; PASS or FAIL. */
import { type Ledger, ROUTES, type Route } from "./ledger";
import type { LoadOptions } from "./options";

const ROUTE_LABELS: Record<Route, string> = {
	explicit: "/snowflake/:workerId",
	"explicit-blocks": "/snowflake/:workerId/blocks",
	auto: "/snowflake (pooled)",
	"auto-blocks": "/snowflake/blocks",
	ulid: "/ulid",
	uuidv7: "/uuidv7",
};

const n = (x: number) => x.toLocaleString("en-US");

/** Prints the summary (and the JSON line with --json); returns whether the run passed. */
export function printReport(
	ledger: Ledger,
	opts: LoadOptions,
	loadSeconds: number,
	sortSeconds: number,
): boolean {
	const { stats } = ledger;
	const ids = ledger.idsChecked();
	const duplicates = stats.duplicates.snowflake + stats.duplicates.ulid + stats.duplicates.uuidv7;
	const violations = ledger.violations();
	const reached = opts.targetIds === undefined || ids >= opts.targetIds;
	// The probes are what show restarts kept order: a run whose probes were all unanswered proved nothing.
	const probed = stats.postRestartProbes > 0;
	const passed = violations === 0 && stats.crashes === opts.crashes && reached && probed;
	const statuses = [...stats.statusCounts]
		.sort(([a], [b]) => a - b)
		.map(([s, c]) => `${s}: ${n(c)}`);
	const row = (label: string, answers: string, checked: string) =>
		`  ${label.padEnd(30)}${answers.padStart(14)}${checked.padStart(18)}`;
	const lines = [
		"",
		"summary",
		row("route", "answers (200)", "IDs checked"),
		...ROUTES.filter((route) => stats.answered[route] > 0).map((route) =>
			row(ROUTE_LABELS[route], n(stats.answered[route]), n(stats.idsChecked[route])),
		),
		row("all", n(stats.ok), n(ids)),
		"",
		`  requests sent            ${n(stats.requests)} (${n(Math.round(stats.requests / loadSeconds))}/s over ${loadSeconds.toFixed(1)} s; answers ${statuses.join(", ") || "none"}); ${n(Math.round(ids / loadSeconds))} IDs/s`,
		`  duplicates               ${n(duplicates)} (snowflake ${n(stats.duplicates.snowflake)}, kept as ${n(ledger.intervals())} intervals; ulid ${n(stats.duplicates.ulid)}, uuidv7 ${n(stats.duplicates.uuidv7)}, sorted in ${sortSeconds.toFixed(1)} s)`,
		`  out of order in answer   ${n(stats.outOfOrderInAnswer)}`,
		`  out of order across      ${n(stats.outOfOrderAcrossAnswers)} of ${n(stats.acrossAnswerChecks)} explicit answers checked against earlier ones`,
		`  auto IDs too old on send ${n(stats.staleAuto)} (tick older than POOL_MAX_AGE_MS when the request was sent)`,
		`  wrong worker ID          ${n(stats.wrongWorkerId)}`,
		`  malformed / bad time     ${n(stats.malformed)} / ${n(stats.timeOutOfRange)}`,
		`  5xx                      ${n(stats.status5xx)} (plus ${n(stats.backPressure)} 503s with Retry-After just after a restart, expected)`,
		`  other unexpected status  ${n(stats.otherStatus)}`,
		`  failed requests          ${n(stats.transportErrors)} (plus ${n(stats.cutByCrash)} cut by a crash, expected)`,
		`  crashes survived         ${stats.crashes} of ${opts.crashes} (restarts ${stats.restartMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(", ") || "-"}; ${stats.postRestartProbes} probes answered after restarts and at the end, ${stats.belowEarlierAfterRestart} below an earlier ID; ${stats.unansweredProbes} unanswered)`,
		`  config changes           ${stats.configChanges.join("; ") || "none"}${stats.layoutChanged ? " (LAYOUT CHANGED)" : ", layout unchanged"}`,
		`  client memory            ${stats.maxRssMb.toFixed(0)} MB RSS at most`,
		`  seed                     ${opts.seed}`,
		"",
		passed
			? "PASS: no duplicates, no reordering, no 5xx"
			: `FAIL: ${violations} violations${stats.crashes < opts.crashes ? `, ${opts.crashes - stats.crashes} crashes not done` : ""}${reached ? "" : `, ${n(ids)} of ${n(opts.targetIds ?? 0)} IDs in the time allowed`}${probed ? "" : ", no probe of a worker ID answered"}`,
	];
	for (const detail of stats.firstViolations) lines.push(`  ${detail}`);
	console.log(lines.join("\n"));
	if (opts.json) {
		console.log(
			JSON.stringify({
				...stats,
				statusCounts: Object.fromEntries(stats.statusCounts),
				loadSeconds,
				idsChecked: { ...stats.idsChecked, total: ids },
				intervals: ledger.intervals(),
				violations,
				seed: opts.seed,
				duration: opts.durationS,
				targetIds: opts.targetIds,
				clients: opts.clients,
				blockClients: opts.blockClients,
			}),
		);
	}
	return passed;
}
