/**
 * The lease chaos run: lease holder processes in three languages against a real
 * `wrangler dev` that lends a few worker IDs, under everything that can go wrong
 * around a lease, with every ID they issue checked.
 *
 *   npm run test:leases                               75 s, 16 holders over 12 worker IDs
 *   npm run test:leases -- --duration 60 --kills 6 --pauses 6 --clock-steps 8 \
 *     --object-clock-steps 6 --hang-rate 0.05          the CI run (.ci/run), about 70 s
 *   npm run test:leases -- --ids 1000000000 --duration 1800 --kills 40 --pauses 24 \
 *     --clock-steps 40 --server-kills 3               a billion IDs (docs/RELIABILITY.md)
 *   npm run test:leases -- --help
 *
 * Holders (scripts/load/lease-holder.ts, examples/python-holder/holder.py and the
 * Java client's dev.edgeids.HolderCommand, a third each; without javac 17+ TypeScript
 * and Python, half each) issue IDs in batches on their in-process fast path and write them as runs;
 * there are more holders than worker IDs (LEASE_WORKER_IDS), so some wait and
 * worker IDs pass from holder to holder. Spans are short (LEASE_SPAN_MS 2.5 s), so
 * that the chaos outlives them. Spread over the run (by time, or by IDs checked):
 *
 *   - holders SIGKILLed and restarted (a new process acquires anew);
 *   - holders SIGSTOPped for 2-5 spans: their worker IDs pass to others meanwhile,
 *     and they wake up past their spans;
 *   - every holder's wall clock an hour ahead or behind, stepped back at SIGUSR2
 *     (holders read the service's clock: the T lines show it made no difference);
 *   - a proxy between holders and service that drops answers after the service
 *     acted, and holds some back so they arrive late and out of order;
 *   - renewal answers hung past the holders' renewal deadline (a tenth of the span),
 *     for 1-3 spans or until the holder gives up: holders go on issuing;
 *   - a held worker ID's object clock stepped 2-6 spans ahead for 1-2 spans, then
 *     back (the proxy rewrites `serverNowMs`, only that, in its grants): each holder
 *     that met it re-anchors to the service's clock and issues again;
 *   - wrangler dev SIGKILLed and restarted on the same state directory.
 *
 * Every holder's output is piped into one ledger (scripts/load/holder-ledger.ts)
 * as it is written: each ID inside a span its process was granted, each process's
 * IDs strictly increasing, no ID twice across all of them, no two leases' spans
 * of a worker ID overlapping; memory flat (an interval per lease). Exits 1 on any
 * violation, too few IDs checked, a worker ID never re-leased, a holder that did
 * not come back from a stepped clock or a hung renewal, more calls refused
 * `lease_expired` soon after a hung renewal than chance explains, renewals over
 * their bound (scripts/load/holder-troubles.ts), or chaos not injected as asked;
 * 2 when it could not run. Holders pause 10 ms after each batch, leaving the
 * service the CPU to answer renewals within their deadline.
 */
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { buildJava } from "../lib/java-build";
import { stopOnSignals, stopReported, WranglerDev } from "../lib/wrangler-dev";
import { type AnswerProxy, startAnswerProxy } from "./answer-proxy";
import { HolderLedger } from "./holder-ledger";
import { HolderFleet } from "./holder-processes";
import { HolderTroubles } from "./holder-troubles";
import { HELP, type LeaseChaosOptions, parseLeaseChaosOptions } from "./lease-chaos-options";
import { type LeaseChaosResult, printLeaseChaosReport } from "./lease-chaos-report";
import { optionsOrExit } from "./options";
import { prng } from "./traffic";

const FIRST_WORKER_ID = 900;
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

const opts: LeaseChaosOptions = optionsOrExit(parseLeaseChaosOptions, HELP);

const random = prng(opts.seed);
const token = randomBytes(16).toString("hex");
const dev = new WranglerDev({
	keepState: opts.keep,
	timeoutMs: opts.startupTimeoutS * 1000,
	vars: {
		API_TOKEN: token,
		LEASE_WORKER_IDS: `${FIRST_WORKER_ID}-${FIRST_WORKER_ID + opts.workerIds - 1}`,
		LEASE_SPAN_MS: String(opts.spanMs),
		LEASE_GRACE_MS: String(opts.graceMs),
		REQUEST_LOG: "off",
	},
	args: opts.wranglerConfig ? ["-c", resolve(opts.wranglerConfig)] : [],
	onOutput: opts.verbose ? (text) => process.stderr.write(text) : undefined,
});
// A step of a wall clock is --clock-step-ms; an object clock's step moves the T lines a few spans.
const ledger = new HolderLedger(opts.clockStepMs / 2);
let up = false;
let proxy: AnswerProxy | undefined;
let fleet: HolderFleet | undefined;

let cleaningUp: Promise<void> | undefined;
function cleanup(): Promise<void> {
	cleaningUp ??= (async () => {
		fleet?.killAll();
		await proxy?.stop();
		await stopReported(dev);
	})();
	return cleaningUp;
}
stopOnSignals(cleanup);

/** `count` moments of the run, as shares of it: evenly spaced, each jittered within its slot. */
function moments(count: number): number[] {
	return Array.from({ length: count }, (_, i) => (i + 0.1 + 0.8 * random()) / (count + 0.5));
}

async function main(): Promise<void> {
	const what = opts.targetIds
		? `${opts.targetIds.toLocaleString("en-US")} IDs (within ${opts.durationS} s)`
		: `${opts.durationS} s`;
	console.log(
		`lease chaos: ${what}, ${opts.holders} holders (${opts.python} Python, ${opts.java} Java) over ${opts.workerIds} worker IDs, spans of ${opts.spanMs} ms (grace ${opts.graceMs}); ${opts.kills} kills, ${opts.pauses} pauses, ${opts.clockSteps} clock steps, ${opts.serverKills} server kills, ${opts.objectClockSteps} object clock steps, ${opts.dropRate * 100} % answers dropped, ${opts.lateRate * 100} % late, ${opts.hangRate * 100} % of renewals hung; seed ${opts.seed}`,
	);
	const startMs = await dev.start();
	up = true;
	console.log(
		`wrangler dev up on 127.0.0.1:${dev.port} in ${(startMs / 1000).toFixed(1)} s (persist ${dev.persistTo})`,
	);
	const stepEnds = new Map<number, number>(); // worker ID → when its object clock's step ends
	let troubles: HolderTroubles | undefined;
	proxy = await startAnswerProxy({
		target: () => (up ? dev.url : undefined),
		dropRate: opts.dropRate,
		lateRate: opts.lateRate,
		lateMs: [opts.spanMs / 5, opts.spanMs],
		hangRate: opts.hangRate,
		hangMs: [opts.spanMs, 3 * opts.spanMs],
		onFault: (fault, grant) => troubles?.met(fault, grant, stepEnds.get(grant.workerId)),
		random,
	});
	const answers = proxy;
	const allowedMs = (opts.durationS + (opts.serverKills + 1) * opts.startupTimeoutS + 60) * 1000;
	const watchdog = setTimeout(() => {
		console.error("watchdog: the run overran its time bound; stopping");
		void cleanup().finally(() => process.exit(2));
	}, allowedMs + 60_000);
	watchdog.unref();
	const holders = new HolderFleet(
		ledger,
		{
			url: proxy.url,
			token,
			batch: opts.batch,
			batchGapMs: opts.batchGapMs,
			maxWaitMs: 2_000,
			clockStepMs: opts.clockStepMs,
			lifetimeMs: allowedMs,
			javaClasses: opts.java > 0 ? buildJava() : undefined,
		},
		random,
	);
	fleet = holders;
	troubles = new HolderTroubles(holders, ledger, { spanMs: opts.spanMs, maxWaitMs: 2_000 });
	let objectClockSteps = 0;
	const started = performance.now();
	holders.startAll(opts.holders, opts.python, opts.java);

	const progress = () => {
		const byTime = (performance.now() - started) / (opts.durationS * 1000);
		return opts.targetIds ? Math.max(byTime, ledger.report.ids / opts.targetIds) : byTime;
	};
	const serverKills = { done: 0, restartMs: [] as number[] };
	let restarting: Promise<void> | undefined;
	const chaos: { at: number[]; act: () => boolean }[] = [
		{
			at: moments(opts.kills),
			act: () => {
				const holder = holders.pick();
				if (holder) void holders.kill(holder);
				return holder !== undefined;
			},
		},
		{
			at: moments(opts.pauses),
			act: () => {
				const holder = holders.pick();
				if (holder) void holders.pause(holder, (2 + 3 * random()) * opts.spanMs);
				return holder !== undefined;
			},
		},
		{
			at: moments(opts.clockSteps),
			act: () => {
				const holder = holders.pick();
				if (holder) holders.stepClock(holder);
				return holder !== undefined;
			},
		},
		{
			at: moments(opts.objectClockSteps),
			act: () => {
				const workerId = holders.pick()?.output.workerId ?? -1;
				if (workerId < 0) return false;
				const forMs = (1 + random()) * opts.spanMs;
				stepEnds.set(workerId, performance.now() + forMs);
				answers.stepClock(workerId, Math.round((2 + 4 * random()) * opts.spanMs), forMs);
				objectClockSteps++;
				return true;
			},
		},
		{
			at: moments(opts.serverKills),
			act: () => {
				if (restarting) return false;
				restarting = (async () => {
					up = false;
					await dev.kill();
					serverKills.done++;
					serverKills.restartMs.push(await dev.restart());
					up = true;
				})().finally(() => {
					restarting = undefined;
				});
				return true;
			},
		},
	];
	let maxRssMb = 0;
	for (;;) {
		const now = progress();
		for (const kind of chaos) {
			while (kind.at.length > 0 && (kind.at[0] as number) <= now && kind.act()) kind.at.shift();
		}
		troubles.tick(up);
		maxRssMb = Math.max(maxRssMb, process.memoryUsage.rss() / 2 ** 20);
		if (now >= 1 && chaos.every((kind) => kind.at.length === 0)) break;
		if (performance.now() - started > allowedMs) break;
		await sleep(100);
	}
	await restarting; // holders release their leases at the end: the service must be up
	await holders.stopAll();
	troubles.tick(up, true);
	const runSeconds = (performance.now() - started) / 1000;
	clearTimeout(watchdog);
	await cleanup();

	const holderStats: Record<string, number> = {};
	for (const holder of holders.processes) {
		for (const [key, value] of Object.entries(holder.summary() ?? {})) {
			if (typeof value !== "number") continue;
			const name = key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
			holderStats[name] = (holderStats[name] ?? 0) + value;
		}
	}
	const result: LeaseChaosResult = {
		ledger: ledger.report,
		fleet: holders.counts,
		proxy: proxy.counts,
		serverKills: serverKills.done,
		objectClockSteps,
		troubles: troubles.summary(),
		restartMs: serverKills.restartMs,
		holderStats,
		runSeconds,
		checkSeconds: ledger.report.checkMs / 1000,
		maxRssMb,
		unexpectedExits: holders.firstUnexpected,
	};
	process.exitCode = printLeaseChaosReport(result, opts) ? 0 : 1;
}

main().catch(async (error) => {
	console.error(`lease chaos could not run: ${(error as Error).message}`);
	await cleanup();
	process.exit(2);
});
