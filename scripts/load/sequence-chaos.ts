/**
 * The named sequences' chaos run: clients over HTTP and over RPC, and process-side
 * buffers, against a real `wrangler dev` that is SIGKILLed and restarted on its
 * state, through a proxy that drops answers after the service acted and delays
 * others; every number checked.
 *
 *   npm run test:sequences                          35 s, 2 restarts (the CI run, .ci/run)
 *   npm run test:sequences -- --numbers 100000000 --max-reserve 1000000 --restarts 6
 *                                                   100 M numbers (docs/RELIABILITY.md)
 *   npm run test:sequences -- --help
 *
 * Three sequences: `chaos-orders` (ordered), `chaos-tickets` (ordered, a daily
 * reset in the Etc/GMT zone whose midnight is the next full hour, so a run across
 * it meets a new period) and `chaos-clicks` (pooled). HTTP clients ask next
 * numbers of each; RPC clients call nextInSequence and reserveInSequence through a
 * consumer Worker (scripts/load/sequence-consumer) beside edge-ids in the same
 * `wrangler dev`, which passes the HTTP clients' requests on over the binding's
 * fetch; reserve clients take large ranges of the ordered ones; buffers
 * (createSequenceBuffer) hand out reserved ranges in this process. The ledger
 * (./sequence-ledger.ts) checks: no number twice per (sequence, period); ordered
 * calls linearizable (one that ended before another began holds smaller numbers);
 * pooled numbers larger POOL_MAX_AGE_MS later; buffers inside their ranges; and
 * every number the service counts as issued seen, in a dropped answer, or within
 * what lost calls and pooled segments explain. Exits 1 on any violation or too few
 * numbers, 2 when it could not run.
 */
import { readFileSync } from "node:fs";
import { consumerSessionArgs } from "../lib/consumer-session";
import { stopOnSignals, stopReported, WranglerDev } from "../lib/wrangler-dev";
import { type AnswerProxy, startAnswerProxy } from "./answer-proxy";
import { ServerUnderCrashes } from "./crash-loop";
import { optionsOrExit } from "./options";
import {
	HELP,
	parseSequenceChaosOptions,
	type SequenceChaosOptions,
} from "./sequence-chaos-options";
import { printSequenceChaosReport } from "./sequence-chaos-report";
import { type ChaosSequence, SequenceClients } from "./sequence-clients";
import { SequenceLedger } from "./sequence-ledger";
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

/** The Etc/GMT zone whose midnight is the next full hour of UTC (POSIX signs: Etc/GMT+5 is UTC−5). */
function zoneOfNextMidnight(nowMs: number): string {
	const hour = (new Date(nowMs).getUTCHours() + 1) % 24; // local = UTC + offset ≡ 0 (mod 24)
	const offset = hour <= 12 ? -hour : 24 - hour;
	return offset === 0 ? "Etc/GMT" : `Etc/GMT${offset < 0 ? "+" : "-"}${Math.abs(offset)}`;
}

const SEQUENCES: ChaosSequence[] = [
	{ name: "chaos-orders", mode: "ordered", reset: "never", timeZone: "UTC", start: 1000 },
	{
		name: "chaos-tickets",
		mode: "ordered",
		reset: "daily",
		timeZone: zoneOfNextMidnight(Date.now()),
		start: 1,
	},
	{ name: "chaos-clicks", mode: "pooled", reset: "never", timeZone: "UTC", start: 1 },
];

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

async function createSequences(): Promise<void> {
	for (const { name, mode, reset, timeZone, start } of SEQUENCES) {
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
		`sequence chaos: ${what}; ${opts.clients} HTTP, ${opts.rpcClients} RPC, ${opts.reserveClients} reserve clients, ${opts.buffers} buffers; ${opts.restarts} restarts; ${opts.dropRate * 100} % answers dropped, ${opts.lateRate * 100} % late; daily reset in ${SEQUENCES[1]?.timeZone}; seed ${opts.seed}`,
	);
	const startMs = await server.start();
	console.log(
		`wrangler dev up on 127.0.0.1:${dev.port} in ${(startMs / 1000).toFixed(1)} s (persist ${dev.persistTo})`,
	);
	await createSequences();
	const ledger = new SequenceLedger(SEQUENCES, { poolMaxAgeMs });
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
	const progress = () => {
		const byTime = (performance.now() - started) / (opts.durationS * 1000);
		return opts.targetNumbers
			? Math.max(byTime, ledger.report.numbers / opts.targetNumbers)
			: byTime;
	};
	let stopping = false;
	const running = new SequenceClients({
		ledger,
		server,
		url: proxy.url,
		sequences: SEQUENCES,
		random,
		maxCount: opts.maxCount,
		maxReserve: opts.maxReserve,
		done: () => stopping || progress() >= 1,
	});
	clients = running;
	const allowedMs = (opts.durationS + (opts.restarts + 1) * opts.startupTimeoutS + 120) * 1000;
	const watchdog = setTimeout(() => {
		console.error("watchdog: the run overran its time bound; stopping");
		void cleanup().finally(() => process.exit(2));
	}, allowedMs);
	watchdog.unref();
	const ordered = SEQUENCES.filter((sequence) => sequence.mode === "ordered");
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
	while (progress() < 1 || restartAt.length > 0) {
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
	for (const { name } of SEQUENCES) ledger.account(name, await statusOf(name), poolMaxSize);
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
