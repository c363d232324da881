/**
 * Load and crash test against a real `wrangler dev` (workerd, SQLite-backed
 * Durable Objects on disk). Black box: it talks HTTP to 127.0.0.1 only and checks
 * every ID it is given.
 *
 *   npm run test:load                                  20 s, 16 clients, no crashes
 *   npm run test:load -- --duration 90 --crashes 4     kill -9 the server 4 times
 *   npm run test:load -- --ids 1000000000 --block-clients 6 --crashes 10 \
 *     --config-change 5:LEASE_MS=500                   a billion IDs (docs/RELIABILITY.md)
 *   npm run test:load -- --help
 *
 * It starts `wrangler dev` itself (its own process group, a fresh persist
 * directory, free ports), waits for /health, then runs N clients for T seconds,
 * mixing /snowflake/:workerId (single and batches), /snowflake (auto), blocks of
 * both, /ulid (both formats) and /uuidv7, GET and POST, JSON and text/plain; block
 * clients add large blocks. With --ids N it runs until N IDs are checked instead.
 * With --crashes K it SIGKILLs the server's whole process group K times mid-load
 * and restarts it on the same persist directory (--config-change: with other
 * settings, the same layout). Checked, for every answer:
 *
 *   - no 5xx, no other unexpected status, no failed request except those cut by a crash;
 *   - every answer's IDs well-formed, of the asked number, strictly increasing;
 *   - Snowflake: the worker ID bits are the worker ID asked for (or named); each
 *     explicit answer's smallest ID is above the largest ID of every answer for
 *     that worker ID that completed before this request was sent (answers to
 *     concurrent requests may complete out of order, so only completed-before-sent
 *     counts); auto answers are fresh (POOL_MAX_AGE_MS) and from AUTO_WORKER_IDS;
 *   - after each restart, the layout is the same and a probe of every worker ID is
 *     above everything before it;
 *   - no duplicate ID over the whole run: Snowflakes are kept as intervals per
 *     worker ID (a repeat counts as it arrives), ULIDs/UUIDs whole (16 bytes each,
 *     sorted at the end);
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
import { WranglerDev } from "../lib/wrangler-dev";
import { crashLoop, layoutOf, probeEveryWorkerId } from "./crash-loop";
import { Ledger } from "./ledger";
import { HELP, type LoadOptions, parseLoadOptions, UsageError } from "./options";
import { printReport } from "./report";
import { ServerUnderCrashes } from "./server-under-crashes";
import { nextBlockOp, nextOp, type Op, prng, send } from "./traffic";

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
	const what = opts.targetIds
		? `${opts.targetIds.toLocaleString("en-US")} IDs (within ${opts.durationS} s)`
		: `${opts.durationS} s`;
	console.log(
		`load test: ${what}, ${opts.clients} clients (${opts.routes.join(",")})${opts.blockClients ? ` + ${opts.blockClients} block clients (up to ${opts.maxBlock.toLocaleString("en-US")})` : ""}, ${opts.crashes} crashes, worker IDs ${opts.workerIds.join(",")}, batches up to ${opts.maxBatch}, seed ${opts.seed}`,
	);
	const firstStartMs = await target.start();
	console.log(
		`wrangler dev up on 127.0.0.1:${dev.port} in ${(firstStartMs / 1000).toFixed(1)} s (persist ${dev.persistTo})`,
	);
	const layout = await layoutOf(target);
	if (opts.workerIds.some((id) => id > layout.maxWorkerId)) {
		throw new Error(`--worker-ids must be at most ${layout.maxWorkerId} under this layout`);
	}
	const ledger = new Ledger(layout, Date.now());
	const { stats, runStart } = ledger;

	// How far the run is: by time, or by IDs checked when --ids names a target (time still bounds it).
	const progress = () => {
		const byTime = (Date.now() - runStart) / (opts.durationS * 1000);
		return opts.targetIds ? Math.max(byTime, ledger.idsChecked() / opts.targetIds) : byTime;
	};
	const watchdog = setTimeout(
		() => {
			console.error("watchdog: the run overran its time bound; stopping");
			void cleanup().finally(() => process.exit(2));
		},
		(opts.durationS + (opts.crashes + 2) * (opts.startupTimeoutS + 30) + 60) * 1000,
	);
	watchdog.unref();

	let stopping = false;
	const done = () => stopping || progress() >= 1;
	const memory = setInterval(() => {
		stats.maxRssMb = Math.max(stats.maxRssMb, process.memoryUsage.rss() / 2 ** 20);
	}, 1000);
	memory.unref();

	const client = async (next: () => Op) => {
		while (!done()) {
			await target.ready();
			if (done()) break;
			await send(target, ledger, next(), opts.requestTimeoutS);
		}
	};
	const clients = [
		...Array.from({ length: opts.clients }, () =>
			client(() => nextOp(random, opts.routes, opts.workerIds, opts.maxBatch)),
		),
		...Array.from({ length: opts.blockClients }, () =>
			client(() => nextBlockOp(random, opts.workerIds, opts.maxBlock)),
		),
	];
	const restarted = await crashLoop(target, ledger, {
		crashes: opts.crashes,
		configChanges: opts.configChanges,
		progress,
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
	const sortSeconds = ledger.countDuplicates128();
	clearTimeout(watchdog);
	await cleanup();
	process.exitCode = printReport(ledger, opts, loadSeconds, sortSeconds) ? 0 : 1;
}

main().catch(async (error) => {
	console.error(`load test could not run: ${(error as Error).message}`);
	await cleanup();
	process.exit(2);
});
