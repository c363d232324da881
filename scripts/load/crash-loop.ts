/**
 * Crashes during the load: the server is SIGKILLed (its whole process group) at
 * evenly spaced, jittered moments of the run (by time, or by IDs checked) and
 * restarted on the same persist directory, some restarts with changed settings;
 * clients wait while it is down, and after each restart the layout must be the
 * same and every worker ID is probed to prove it issues above everything before
 * the crash.
 */
import type { Layout, Ledger } from "./ledger";
import type { ServerUnderCrashes } from "./server-under-crashes";
import { requestsInFlight, send } from "./traffic";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One request per worker ID. A probe counts once its answer was checked against every
 * earlier ID of its worker ID (`postRestartProbes`; those below one: `belowEarlierAfterRestart`);
 * one without such an answer (a refusal, a timeout, a malformed body) is counted apart
 * (`unansweredProbes`), never as a probe that found nothing wrong.
 */
export async function probeEveryWorkerId(
	server: ServerUnderCrashes,
	ledger: Ledger,
	workerIds: number[],
	timeoutS: number,
) {
	const { stats } = ledger;
	for (const workerId of workerIds) {
		const checked = stats.acrossAnswerChecks;
		const below = stats.outOfOrderAcrossAnswers;
		await send(
			server,
			ledger,
			{ kind: "explicit", workerId, count: 1, method: "GET", text: false },
			timeoutS,
		);
		if (stats.acrossAnswerChecks === checked) {
			stats.unansweredProbes++;
			continue;
		}
		stats.postRestartProbes++;
		if (stats.outOfOrderAcrossAnswers > below) stats.belowEarlierAfterRestart++;
	}
}

export interface CrashPlan {
	crashes: number;
	/** Settings each restart adds (cumulative), by restart number. */
	configChanges: Map<number, Record<string, string>>;
	/** How far the run is, 0 to 1 (by time, or by IDs checked); crashes are spread over it. */
	progress: () => number;
	workerIds: number[];
	requestTimeoutS: number;
	random: () => number;
	/** True once the run is over: no more crashes. */
	stopping: () => boolean;
}

const minutes = (ms: number) =>
	`${Math.floor(ms / 60_000)}m${String(Math.floor((ms % 60_000) / 1000)).padStart(2, "0")}s`;

/**
 * Runs the crashes of a load run, each at its slot of the run's progress
 * (jittered by ±20% of a slot), and prints one line per restart. Resolves when
 * all are done, or after a failed restart or a changed layout (counted as a
 * violation; clients are released and `false` returned so the run can stop).
 */
export async function crashLoop(
	server: ServerUnderCrashes,
	ledger: Ledger,
	plan: CrashPlan,
): Promise<boolean> {
	const { stats, runStart } = ledger;
	const layout = JSON.stringify(await layoutOf(server));
	const slot = 1 / (plan.crashes + 1);
	let vars: Record<string, string> = {};
	for (let i = 1; i <= plan.crashes && !plan.stopping(); i++) {
		const at = slot * i + (plan.random() - 0.5) * slot * 0.4;
		while (plan.progress() < at && !plan.stopping()) await sleep(100);
		if (plan.progress() >= 1 || plan.stopping()) break;
		const cutOff = requestsInFlight();
		const idsSoFar = ledger.idsChecked();
		const killedAt = Date.now() - runStart;
		await server.crash();
		stats.crashes++;
		const change = plan.configChanges.get(i);
		const changed = Object.entries(change ?? {})
			.map(([name, value]) => `${name}=${value}`)
			.join(" ");
		if (change) {
			vars = { ...vars, ...change };
			server.dev.setVars(vars);
			ledger.applyConfig(vars);
			stats.configChanges.push(`restart ${i}: ${changed}`);
		}
		try {
			const ms = await server.start();
			stats.restartMs.push(ms);
			const now = JSON.stringify(await layoutOf(server));
			if (now !== layout) {
				ledger.violation("layoutChanged", `after restart ${i}: ${now}, was ${layout}`);
				server.releaseWaiters();
				return false;
			}
			const below = stats.belowEarlierAfterRestart;
			const unanswered = stats.unansweredProbes;
			await probeEveryWorkerId(server, ledger, plan.workerIds, plan.requestTimeoutS);
			const probes =
				stats.belowEarlierAfterRestart > below
					? "A WORKER ID WENT BELOW AN EARLIER ID"
					: stats.unansweredProbes > unanswered
						? `${stats.unansweredProbes - unanswered} of ${plan.workerIds.length} worker IDs unanswered, the others above all before`
						: "every worker ID above all before";
			console.log(
				`restart ${i}/${plan.crashes} at ${minutes(killedAt)}: ${idsSoFar.toLocaleString("en-US")} IDs checked; SIGKILL with ${cutOff} requests in flight; up again in ${(ms / 1000).toFixed(1)} s${changed ? ` with ${changed}` : ""}; ${probes}`,
			);
		} catch (error) {
			ledger.violation("transportErrors", `restart ${i} failed: ${(error as Error).message}`);
			server.releaseWaiters();
			return false;
		}
	}
	return true;
}

/** The server's layout (`GET /layout`). */
export async function layoutOf(server: ServerUnderCrashes): Promise<Layout> {
	const response = await fetch(server.url("/layout"), { signal: AbortSignal.timeout(10_000) });
	if (!response.ok) throw new Error(`GET /layout answered ${response.status}`);
	return (await response.json()) as Layout;
}
