/**
 * The named sequences' chaos run: clients over HTTP and over RPC, and process-side
 * buffers, against a real `wrangler dev` that is SIGKILLed and restarted on its
 * state, through a proxy that drops answers after the service acted and delays
 * others; every number checked.
 *
 *   npm run test:sequences                          35 s, 2 restarts (the CI run, .ci/run)
 *   npm run test:sequences -- --numbers 100000000 --max-reserve 1000000 --restarts 6
 *                                                   100 M numbers (docs/RELIABILITY.md)
 *   npm run test:sequences -- --cross-midnight --numbers 100000000 --max-reserve 1000000 --restarts 6
 *                                                   the same until a real midnight has passed (up to an hour)
 *   npm run test:sequences -- --help
 *
 * Three sequences: `chaos-orders` (ordered), `chaos-tickets` (ordered, a daily
 * reset in the time zone whose midnight comes soonest once the service is up, so a
 * run across it meets a new period: ./soonest-midnight.ts) and `chaos-clicks`
 * (pooled). With --cross-midnight the run lasts until 30 s after the first answer
 * of the new period, and fails if it saw only one. HTTP clients ask next
 * numbers of each; RPC clients call nextInSequence and reserveInSequence through a
 * consumer Worker (scripts/load/sequence-consumer) beside edge-ids in the same
 * `wrangler dev`, which passes the HTTP clients' requests on over the binding's
 * fetch; reserve clients take large ranges of the ordered ones; buffers
 * (createSequenceBuffer) hand out reserved ranges in this process. The ledger
 * (./sequence-ledger.ts) checks: no number twice per (sequence, period); ordered
 * calls linearizable (one that ended before another began holds smaller numbers or
 * a later period, never an earlier one); each period starting again at `start`;
 * pooled numbers larger POOL_MAX_AGE_MS later; buffers inside their ranges; and
 * every number the service counts as issued seen, in a dropped answer, or within
 * what lost calls and pooled segments explain. Exits 1 on any violation or too few
 * numbers, 2 when it could not run.
 */
import { readFileSync } from "node:fs";
import { consumerSessionArgs } from "../lib/consumer-session";
import { stopOnSignals, stopReported, WranglerDev } from "../lib/wrangler-dev";
import { type AnswerProxy, startAnswerProxy } from "./answer-proxy";
import { optionsOrExit } from "./options";
import {
	HELP,
	parseSequenceChaosOptions,
	type SequenceChaosOptions,
} from "./sequence-chaos-options";
import { printSequenceChaosReport } from "./sequence-chaos-report";
import { type ChaosSequence, SequenceClients } from "./sequence-clients";
import { SequenceLedger } from "./sequence-ledger";
import { ServerUnderCrashes } from "./server-under-crashes";
import { soonestMidnight, type ZoneMidnight } from "./soonest-midnight";
import { prng } from "./traffic";

const opts: SequenceChaosOptions = optionsOrExit(parseSequenceChaosOptions, HELP);

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
const random = prng(opts.seed);

/** A setting of wrangler.toml's [vars] (the run does not change them). */
function tomlVar(name: string): number {
	const value = new RegExp(`^${name}\\s*=\\s*"?(\\d+)"?`, "m").exec(
		readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8"),
	)?.[1];
	if (value === undefined) throw new Error(`wrangler.toml sets no ${name}`);
	return Number(value);
}

/** Between the service being up and the daily sequence's midnight: the load is running by then. */
const MIDNIGHT_LEAD_MS = 15_000;
/** How long a crossing run goes on after the first answer of the new period. */
const AFTER_MIDNIGHT_MS = 30_000;

/** The run's sequences; the daily one in the zone of `midnight`. */
function chaosSequences(midnight: ZoneMidnight): ChaosSequence[] {
	return [
		{ name: "chaos-orders", mode: "ordered", reset: "never", timeZone: "UTC", start: 1000 },
		{
			name: "chaos-tickets",
			mode: "ordered",
			reset: "daily",
			timeZone: midnight.timeZone,
			start: 1,
		},
		{ name: "chaos-clicks", mode: "pooled", reset: "never", timeZone: "UTC", start: 1 },
	];
}

const dev = new WranglerDev({
	keepState: opts.keep,
	timeoutMs: opts.startupTimeoutS * 1000,
	args:
		opts.rpcClients > 0 ? consumerSessionArgs("scripts/load/sequence-consumer/wrangler.toml") : [],
	onOutput: opts.verbose ? (text) => process.stderr.write(text) : undefined,
});
const server = new ServerUnderCrashes(dev);
let proxy: AnswerProxy | undefined;
let cleaningUp: Promise<void> | undefined;
function cleanup(): Promise<void> {
	cleaningUp ??= (async () => {
		server.releaseWaiters();
		await proxy?.stop();
		await stopReported(dev);
	})();
	return cleaningUp;
}
stopOnSignals(cleanup);

async function createSequences(sequences: ChaosSequence[]): Promise<void> {
	for (const { name, mode, reset, timeZone, start } of sequences) {
		const response = await fetch(`${dev.url}/sequences/${name}`, {
			method: "PUT",
			headers: { "Content-Type": "application/json" },
			body: JSON.stringify({ start, mode, reset, timeZone }),
			signal: AbortSignal.timeout(30_000),
		});
		if (response.status !== 201) {
			throw new Error(
				`PUT /sequences/${name} answered ${response.status}: ${await response.text()}`,
			);
		}
	}
}

async function statusOf(name: string): Promise<{ issued: string; requests: number }> {
	const response = await fetch(`${dev.url}/sequences/${name}`, {
		signal: AbortSignal.timeout(30_000),
	});
	if (!response.ok) throw new Error(`GET /sequences/${name} answered ${response.status}`);
	return (await response.json()) as { issued: string; requests: number };
}

async function main(): Promise<void> {
	const poolMaxAgeMs = tomlVar("POOL_MAX_AGE_MS");
	const poolMaxSize = tomlVar("POOL_MAX_SIZE");
	const what = opts.targetNumbers
		? `${opts.targetNumbers.toLocaleString("en-US")} numbers (within ${opts.durationS} s)`
		: `${opts.durationS} s`;
	console.log(
		`sequence chaos: ${what}${opts.crossMidnight ? " and across a midnight" : ""}; ${opts.clients} HTTP, ${opts.rpcClients} RPC, ${opts.reserveClients} reserve clients, ${opts.buffers} buffers; ${opts.restarts} restarts; ${opts.dropRate * 100} % answers dropped, ${opts.lateRate * 100} % late; seed ${opts.seed}`,
	);
	const startMs = await server.start();
	console.log(
		`wrangler dev up on 127.0.0.1:${dev.port} in ${(startMs / 1000).toFixed(1)} s (persist ${dev.persistTo})`,
	);
	const midnight = soonestMidnight(Date.now(), MIDNIGHT_LEAD_MS);
	const sequences = chaosSequences(midnight);
	console.log(
		`chaos-tickets resets daily in ${midnight.timeZone} (UTC${midnight.offsetMinutes < 0 ? "−" : "+"}${Math.floor(Math.abs(midnight.offsetMinutes) / 60)}:${String(Math.abs(midnight.offsetMinutes) % 60).padStart(2, "0")}): its midnight at ${new Date(midnight.midnightMs).toISOString()}, in ${((midnight.midnightMs - Date.now()) / 1000).toFixed(0)} s`,
	);
	await createSequences(sequences);
	const ledger = new SequenceLedger(sequences, { poolMaxAgeMs });
	let clients: SequenceClients | undefined;
	proxy = await startAnswerProxy({
		target: () => (server.up ? dev.url : undefined),
		dropRate: opts.dropRate,
		lateRate: opts.lateRate,
		lateMs: [100, 1_000],
		random,
		onLost: (request, loss) => clients?.recordLost(request, loss),
	});
	const started = performance.now();
	// A crossing run lasts at least until its midnight and the margin after it; restarts
	// are spread over that time, not over the numbers (they come in the first minute).
	const untilMidnightMs = midnight.midnightMs + AFTER_MIDNIGHT_MS - Date.now();
	const plannedMs = opts.crossMidnight
		? Math.max(untilMidnightMs, opts.targetNumbers ? 0 : opts.durationS * 1000)
		: opts.durationS * 1000;
	const progress = () => {
		const byTime = (performance.now() - started) / plannedMs;
		return opts.targetNumbers && !opts.crossMidnight
			? Math.max(byTime, ledger.report.numbers / opts.targetNumbers)
			: byTime;
	};
	/** True once the answers have named a second period and AFTER_MIDNIGHT_MS have passed since. */
	const crossedLongEnough = () => {
		const second = ledger.periods.seen("chaos-tickets")[1];
		return second !== undefined && performance.now() - second.firstSeenMs >= AFTER_MIDNIGHT_MS;
	};
	const finished = () =>
		progress() >= 1 &&
		(!opts.crossMidnight ||
			(crossedLongEnough() && ledger.report.numbers >= (opts.targetNumbers ?? 0)));
	let stopping = false;
	const running = new SequenceClients({
		ledger,
		server,
		url: proxy.url,
		sequences: sequences,
		random,
		maxCount: opts.maxCount,
		maxReserve: opts.maxReserve,
		done: () => stopping || finished(),
	});
	clients = running;
	const allowedMs =
		Math.max(opts.durationS * 1000, plannedMs) +
		((opts.restarts + 1) * opts.startupTimeoutS + 120) * 1000;
	const watchdog = setTimeout(() => {
		console.error("watchdog: the run overran its time bound; stopping");
		void cleanup().finally(() => process.exit(2));
	}, allowedMs);
	watchdog.unref();
	const ordered = sequences.filter((sequence) => sequence.mode === "ordered");
	const loops = [
		...Array.from({ length: opts.clients }, () => running.nextLoop("http-next")),
		...Array.from({ length: opts.rpcClients }, () => running.nextLoop("rpc-next")),
		...Array.from({ length: opts.reserveClients }, () => running.reserveLoop()),
		...Array.from({ length: opts.buffers }, (_, i) =>
			running.bufferLoop(`buffer-${i + 1}`, ordered[i % ordered.length] as ChaosSequence),
		),
	];
	// Restarts at evenly spaced moments of the run, each jittered within its slot.
	const restartAt = Array.from(
		{ length: opts.restarts },
		(_, i) => (i + 0.3 + 0.4 * random()) / opts.restarts,
	);
	const restartMs: number[] = [];
	let maxRssMb = 0;
	while (!finished() || restartAt.length > 0) {
		if (restartAt.length > 0 && progress() >= (restartAt[0] as number)) {
			restartAt.shift();
			const numbers = ledger.report.numbers;
			await server.crash();
			restartMs.push(await server.start());
			console.log(
				`restart ${restartMs.length}/${opts.restarts}: SIGKILL at ${numbers.toLocaleString("en-US")} numbers; up again in ${((restartMs.at(-1) ?? 0) / 1000).toFixed(1)} s`,
			);
		}
		maxRssMb = Math.max(maxRssMb, process.memoryUsage.rss() / 2 ** 20);
		if (performance.now() - started > allowedMs) break;
		await sleep(100);
	}
	stopping = true;
	await Promise.all(loops);
	await running.settle();
	const runSeconds = (performance.now() - started) / 1000;
	ledger.checkOrder();
	for (const { name } of sequences) ledger.account(name, await statusOf(name), poolMaxSize);
	ledger.bufferUnused();
	clearTimeout(watchdog);
	await cleanup();
	const passed = printSequenceChaosReport(
		{
			ledger: ledger.report,
			proxy: proxy.counts,
			failures: running.failures,
			bufferWasted: running.bufferWasted.reduce((sum, wasted) => sum + Number(wasted), 0),
			restartMs,
			runSeconds,
			maxRssMb,
			poolMaxSize,
			midnight,
		},
		opts,
	);
	process.exitCode = passed ? 0 : 1;
}

main().catch(async (error) => {
	console.error(`sequence chaos could not run: ${(error as Error).message}`);
	await cleanup();
	process.exit(2);
});
