/**
 * Crashes during the load: the server is SIGKILLed (its whole process group) at
 * evenly spaced, jittered moments and restarted on the same persist directory;
 * clients wait while it is down, and after each restart every worker ID is probed
 * to prove it issues above everything before the crash.
 */
import type { WranglerDev } from "../lib/wrangler-dev";
import type { Ledger } from "./ledger";
import { requestsInFlight, send } from "./traffic";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A dev server with a gate: clients wait on `ready()` while it is down. */
export class ServerUnderCrashes {
	/** Incremented at every kill: a request sent in an earlier generation may be cut. */
	generation = 0;
	up = false;
	private readyGate: Promise<void> = Promise.resolve();
	private release: () => void = () => {};

	constructor(readonly dev: WranglerDev) {}

	url(path: string): string {
		return this.dev.url + path;
	}

	/** Resolves while the server is up; clients wait on it during a restart. */
	ready(): Promise<void> {
		return this.readyGate;
	}

	/** Starts (or restarts) the server; resolves with the milliseconds until it answered /health. */
	async start(): Promise<number> {
		const ms = await this.dev.start();
		this.up = true;
		this.release();
		return ms;
	}

	/** SIGKILLs the server's process group, as a host crash would, and holds clients back. */
	async crash(): Promise<void> {
		this.generation++;
		this.up = false;
		this.readyGate = new Promise((resolve) => {
			this.release = resolve;
		});
		await this.dev.kill();
	}

	/** Lets waiting clients go (when the run ends while the server is down). */
	releaseWaiters() {
		this.release();
	}
}

/** One request per worker ID; counts any answer below an earlier ID of its worker ID. */
export async function probeEveryWorkerId(
	server: ServerUnderCrashes,
	ledger: Ledger,
	workerIds: number[],
	timeoutS: number,
) {
	const { stats } = ledger;
	for (const workerId of workerIds) {
		stats.postRestartProbes++;
		const before = stats.outOfOrderAcrossAnswers;
		await send(
			server,
			ledger,
			{ kind: "snowflake", workerId, count: 1, method: "GET", text: false },
			timeoutS,
		);
		if (stats.outOfOrderAcrossAnswers > before) stats.belowEarlierAfterRestart++;
	}
}

export interface CrashPlan {
	crashes: number;
	durationS: number;
	workerIds: number[];
	requestTimeoutS: number;
	random: () => number;
	/** True once the run is over: no more crashes. */
	stopping: () => boolean;
}

/**
 * Runs the crashes of a load run, each at its slot's moment (jittered by ±20% of a
 * slot). Resolves when all are done, or after a failed restart (counted as a
 * violation; clients are released and `false` returned so the run can stop).
 */
export async function crashLoop(
	server: ServerUnderCrashes,
	ledger: Ledger,
	plan: CrashPlan,
): Promise<boolean> {
	const { stats, runStart } = ledger;
	const loadEnd = runStart + plan.durationS * 1000;
	const slot = (plan.durationS * 1000) / (plan.crashes + 1);
	for (let i = 1; i <= plan.crashes && !plan.stopping(); i++) {
		const at = runStart + slot * i + (plan.random() - 0.5) * slot * 0.4;
		while (Date.now() < at && !plan.stopping()) await sleep(Math.min(100, at - Date.now()));
		if (Date.now() >= loadEnd) break;
		const cutOff = requestsInFlight();
		await server.crash();
		stats.crashes++;
		console.log(
			`crash ${i}: SIGKILLed the server's process group at ${((Date.now() - runStart) / 1000).toFixed(1)} s (${stats.requests} requests so far, ${cutOff} in flight)`,
		);
		try {
			const ms = await server.start();
			stats.restartMs.push(ms);
			console.log(
				`  restarted on the same persist directory in ${(ms / 1000).toFixed(1)} s; probing every worker ID`,
			);
			await probeEveryWorkerId(server, ledger, plan.workerIds, plan.requestTimeoutS);
		} catch (error) {
			ledger.violation("transportErrors", `restart ${i} failed: ${(error as Error).message}`);
			server.releaseWaiters();
			return false;
		}
	}
	return true;
}
