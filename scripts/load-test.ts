/**
 * Load and crash test against a real `wrangler dev` (workerd, SQLite-backed
 * Durable Objects on disk). Black box: it talks HTTP to 127.0.0.1 only and checks
 * every ID it is given.
 *
 *   npm run test:load                                  20 s, 16 clients, no crashes
 *   npm run test:load -- --duration 90 --crashes 4     kill -9 the server 4 times
 *   npm run test:load -- --help
 *
 * It starts `wrangler dev` itself (its own process group, a fresh persist
 * directory, free ports), waits for /health, then runs N clients for T seconds,
 * mixing /snowflake/:workerId (single and batches), /snowflake (auto), /ulid
 * (both formats) and /uuidv7, GET and POST, JSON and text/plain. With --crashes K
 * it SIGKILLs the server's whole process group K times mid-load and restarts it on
 * the same persist directory. Checked, for every answer:
 *
 *   - no 5xx, no other unexpected status, no failed request except those cut by a crash;
 *   - every answer's IDs well-formed, of the asked number, strictly increasing;
 *   - Snowflake: the worker ID bits are the worker ID asked for (or named); each
 *     answer's smallest ID is above the largest ID of every answer for that worker
 *     ID that completed before this request was sent (answers to concurrent
 *     requests may complete out of order, so only completed-before-sent counts);
 *   - after each restart, a probe of every worker ID is above everything before it;
 *   - no duplicate ID, per kind, over the whole run (all IDs kept, 8 bytes per
 *     Snowflake and 16 per ULID/UUID, sorted at the end);
 *   - the time in each ID is within the run.
 *
 * Prints a summary and exits 1 on any violation (2 on a setup failure). Bounded:
 * loops end by count or deadline, a watchdog ends the run, and whatever it started
 * is killed on exit, error, SIGINT and SIGTERM.
 *
 * This file is the command line and the report; ./load holds the flags
 * (options.ts), the request mix and client (traffic.ts), the checks and their
 * counters (ledger.ts, id-store.ts) and the crashes (crash-loop.ts); the dev
 * server is started by ./lib/wrangler-dev.ts.
 */
import { WranglerDev } from "./lib/wrangler-dev";
import { crashLoop, probeEveryWorkerId, ServerUnderCrashes } from "./load/crash-loop";
import { type Layout, Ledger } from "./load/ledger";
import { HELP, type LoadOptions, parseLoadOptions, UsageError } from "./load/options";
import { nextOp, prng, send } from "./load/traffic";

let opts: LoadOptions;
try {
	const parsed = parseLoadOptions(process.argv.slice(2));
	if (parsed === "help") {
		console.log(HELP);
		process.exit(0);
	}
	opts = parsed;
} catch (error) {
	if (
		!(
			error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")
		)
	)
		throw error;
	console.error(`${(error as Error).message}\n\n${HELP}`);
	process.exit(2);
}

const random = prng(opts.seed);

let server: ServerUnderCrashes | undefined;
let cleaningUp: Promise<void> | undefined;

function cleanup(): Promise<void> {
	cleaningUp ??= (async () => {
		server?.releaseWaiters();
		try {
			await server?.dev.stop();
		} catch (error) {
			console.error(`could not stop wrangler dev: ${(error as Error).message}`);
		}
	})();
	return cleaningUp;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
	process.on(signal, () => {
		console.error(`\n${signal}: stopping`);
		void cleanup().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
	});
}
process.on("unhandledRejection", (error) => {
	console.error("unhandled rejection:", error);
	void cleanup().finally(() => process.exit(2));
});

async function main() {
	const dev = new WranglerDev({
		keepState: opts.keep,
		timeoutMs: opts.startupTimeoutS * 1000,
		onOutput: opts.verbose ? (text) => process.stderr.write(text) : undefined,
	});
	const target = new ServerUnderCrashes(dev);
	server = target;
	console.log(
		`load test: ${opts.durationS} s, ${opts.clients} clients, ${opts.crashes} crashes, worker IDs ${opts.workerIds.join(",")}, batches up to ${opts.maxBatch}, seed ${opts.seed}`,
	);
	const firstStartMs = await target.start();
	console.log(
		`wrangler dev up on 127.0.0.1:${dev.port} in ${(firstStartMs / 1000).toFixed(1)} s (persist ${dev.persistTo})`,
	);
	const layout = (await (await fetch(target.url("/layout"))).json()) as Layout;
	if (opts.workerIds.some((id) => id > layout.maxWorkerId)) {
		throw new Error(`--worker-ids must be at most ${layout.maxWorkerId} under this layout`);
	}
	const ledger = new Ledger(layout, Date.now());
	const { stats, runStart } = ledger;

	const loadEnd = runStart + opts.durationS * 1000;
	const watchdog = setTimeout(
		() => {
			console.error("watchdog: the run overran its time bound; stopping");
			void cleanup().finally(() => process.exit(2));
		},
		(opts.durationS + (opts.crashes + 2) * (opts.startupTimeoutS + 30) + 60) * 1000,
	);
	watchdog.unref();

	let stopping = false;
	const memory = setInterval(() => {
		stats.maxRssMb = Math.max(stats.maxRssMb, process.memoryUsage.rss() / 2 ** 20);
	}, 1000);
	memory.unref();

	const clients = Array.from({ length: opts.clients }, async () => {
		while (!stopping && Date.now() < loadEnd) {
			await target.ready();
			if (stopping || Date.now() >= loadEnd) break;
			await send(
				target,
				ledger,
				nextOp(random, opts.workerIds, opts.maxBatch),
				opts.requestTimeoutS,
			);
		}
	});
	const restarted = await crashLoop(target, ledger, {
		crashes: opts.crashes,
		durationS: opts.durationS,
		workerIds: opts.workerIds,
		requestTimeoutS: opts.requestTimeoutS,
		random,
		stopping: () => stopping,
	});
	if (!restarted) stopping = true;
	await Promise.all(clients);
	stopping = true;
	clearInterval(memory);
	if (target.up) await probeEveryWorkerId(target, ledger, opts.workerIds, opts.requestTimeoutS); // the final state, too
	stats.maxRssMb = Math.max(stats.maxRssMb, process.memoryUsage.rss() / 2 ** 20);
	const loadSeconds = (Date.now() - runStart) / 1000;
	const sortSeconds = ledger.countDuplicates();
	clearTimeout(watchdog);
	await cleanup();
	report(ledger, loadSeconds, sortSeconds);
}

function report(ledger: Ledger, loadSeconds: number, sortSeconds: number) {
	const { stats } = ledger;
	const ids = stats.idsChecked.snowflake + stats.idsChecked.ulid + stats.idsChecked.uuidv7;
	const duplicates = stats.duplicates.snowflake + stats.duplicates.ulid + stats.duplicates.uuidv7;
	const violations = ledger.violations();
	const n = (x: number) => x.toLocaleString("en-US");
	const statuses = [...stats.statusCounts]
		.sort(([a], [b]) => a - b)
		.map(([s, c]) => `${s}: ${n(c)}`);
	const passed = violations === 0 && stats.crashes === opts.crashes;
	const lines = [
		"",
		"summary",
		`  requests sent            ${n(stats.requests)} (${n(Math.round(stats.requests / loadSeconds))}/s over ${loadSeconds.toFixed(1)} s; answers ${statuses.join(", ") || "none"})`,
		`  IDs checked              ${n(ids)} (snowflake ${n(stats.idsChecked.snowflake)}, ulid ${n(stats.idsChecked.ulid)}, uuidv7 ${n(stats.idsChecked.uuidv7)}; ${n(Math.round(ids / loadSeconds))}/s)`,
		`  duplicates               ${n(duplicates)} (snowflake ${stats.duplicates.snowflake}, ulid ${stats.duplicates.ulid}, uuidv7 ${stats.duplicates.uuidv7}; sorted in ${sortSeconds.toFixed(1)} s)`,
		`  out of order in answer   ${n(stats.outOfOrderInAnswer)}`,
		`  out of order across      ${n(stats.outOfOrderAcrossAnswers)} of ${n(stats.acrossAnswerChecks)} answers checked against earlier ones`,
		`  auto IDs too old on send ${n(stats.staleAuto)} (pooled: tick older than POOL_MAX_AGE_MS when the request was sent)`,
		`  wrong worker ID          ${n(stats.wrongWorkerId)}`,
		`  malformed / bad time     ${n(stats.malformed)} / ${n(stats.timeOutOfRange)}`,
		`  5xx                      ${n(stats.status5xx)}`,
		`  other unexpected status  ${n(stats.otherStatus)}`,
		`  failed requests          ${n(stats.transportErrors)} (plus ${n(stats.cutByCrash)} cut by a crash, expected)`,
		`  crashes survived         ${stats.crashes} of ${opts.crashes} (restarts ${stats.restartMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(", ") || "-"}; ${stats.postRestartProbes} probes after restarts and at the end, ${stats.belowEarlierAfterRestart} below an earlier ID)`,
		`  client memory            ${stats.maxRssMb.toFixed(0)} MB RSS at most`,
		`  seed                     ${opts.seed}`,
		"",
		passed
			? "PASS: no duplicates, no reordering, no 5xx"
			: `FAIL: ${violations} violations${stats.crashes < opts.crashes ? `, ${opts.crashes - stats.crashes} crashes not done` : ""}`,
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
				violations,
				seed: opts.seed,
				duration: opts.durationS,
				clients: opts.clients,
			}),
		);
	}
	process.exitCode = passed ? 0 : 1;
}

main().catch(async (error) => {
	console.error(`load test could not run: ${(error as Error).message}`);
	await cleanup();
	process.exit(2);
});
