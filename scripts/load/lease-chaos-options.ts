/** The lease chaos run's command line: flags, defaults, bounds and `--help`. */
import { parseArgs } from "node:util";
import { javaMissing } from "../lib/java-build";
import { intOption, RUN_FLAGS, RUN_FLAGS_HELP, runOptions, UsageError } from "./options";

export const HELP = `usage: npm run test:leases -- [options]
  --duration S         seconds of chaos (default 75; with --ids, the time allowed: default 3600)
  --ids N              run until N IDs are checked instead (chaos spread over them); at most 10^13
  --min-ids N          fail below N IDs checked (default: 5,000,000, or --ids)
  --holders N          holder processes running at once (default 16, at least 2)
  --python N           of which run the Python holder (default: a third; half without Java)
  --java N             of which run the Java client's holder (default: a third; 0 without javac 17+)
  --worker-ids N       worker IDs lent (LEASE_WORKER_IDS, from 900; default: holders - 4, so some wait)
  --span-ms MS         LEASE_SPAN_MS (default 2500: pauses outlive spans and grace)
  --grace-ms MS        LEASE_GRACE_MS (default 500)
  --kills K            SIGKILLs of holders, each restarted in its slot (default 12)
  --pauses P           SIGSTOPs of holders for 2-5 spans each (default 8)
  --clock-steps C      holders' wall clocks stepped back (SIGUSR2; default 12)
  --clock-step-ms MS   how far a step goes back (default 1800000: half an hour)
  --server-kills S     SIGKILLs of wrangler dev, restarted on the same state (default 1)
  --object-clock-steps N
                       a held worker ID's object clock read 2-6 spans ahead for 1-2 spans, then
                       back (the proxy rewrites serverNowMs in its grants; default 6)
  --hang-rate R        share of renewal answers held 1-3 spans, past the holders' renewal
                       deadline, or until the holder gives up (default 0.05)
  --drop-rate R        share of the service's answers dropped after it acted (default 0.05)
  --late-rate R        share held back 0.2-1 span, so they come late and out of order (default 0.02)
  --batch N            IDs per holder call (default 4096)
  --batch-gap-ms MS    each holder's pause after a call (default 10): holders spinning flat out
                       leave the service too little CPU to answer within their renewal deadlines
  --seed N             seed of the chaos (default: random, printed)
  --startup-timeout S  seconds to wait for wrangler dev's /health after each start (default 90)
  --wrangler-config P  run the service from this wrangler config instead of the repository's
${RUN_FLAGS_HELP}`;

export interface LeaseChaosOptions {
	durationS: number;
	targetIds?: number | undefined;
	minIds: number;
	holders: number;
	python: number;
	java: number;
	workerIds: number;
	spanMs: number;
	graceMs: number;
	kills: number;
	pauses: number;
	clockSteps: number;
	clockStepMs: number;
	serverKills: number;
	objectClockSteps: number;
	hangRate: number;
	dropRate: number;
	lateRate: number;
	batch: number;
	batchGapMs: number;
	seed: number;
	startupTimeoutS: number;
	wranglerConfig?: string | undefined;
	json: boolean;
	keep: boolean;
	verbose: boolean;
}

/** A flag's share in [0, 0.5], else a `UsageError` naming the flag. */
export function rateOption(name: string, raw: string): number {
	const value = Number(raw);
	if (!/^[0-9.]+$/.test(raw) || !(value >= 0 && value <= 0.5)) {
		throw new UsageError(`--${name} must be a share in [0, 0.5], got ${raw}`);
	}
	return value;
}

/** The options, or `"help"` when `--help` was asked for. Throws `UsageError` on bad flags. */
export function parseLeaseChaosOptions(args: string[]): LeaseChaosOptions | "help" {
	const { values } = parseArgs({
		args,
		options: {
			duration: { type: "string" },
			ids: { type: "string" },
			"min-ids": { type: "string" },
			holders: { type: "string", default: "16" },
			python: { type: "string" },
			java: { type: "string" },
			"worker-ids": { type: "string" },
			"span-ms": { type: "string", default: "2500" },
			"grace-ms": { type: "string", default: "500" },
			kills: { type: "string", default: "12" },
			pauses: { type: "string", default: "8" },
			"clock-steps": { type: "string", default: "12" },
			"clock-step-ms": { type: "string", default: "1800000" },
			"server-kills": { type: "string", default: "1" },
			"object-clock-steps": { type: "string", default: "6" },
			"hang-rate": { type: "string", default: "0.05" },
			"drop-rate": { type: "string", default: "0.05" },
			"late-rate": { type: "string", default: "0.02" },
			batch: { type: "string", default: "4096" },
			"batch-gap-ms": { type: "string", default: "10" },
			"startup-timeout": { type: "string", default: "90" },
			"wrangler-config": { type: "string" },
			...RUN_FLAGS,
		},
		strict: true,
	});
	if (values.help) return "help";
	const targetIds = values.ids === undefined ? undefined : intOption("ids", values.ids, 1, 1e13);
	const holders = intOption("holders", values.holders, 2, 64);
	const spanMs = intOption("span-ms", values["span-ms"], 1_000, 60_000);
	const noJava = javaMissing();
	const java = intOption(
		"java",
		values.java ?? String(noJava ? 0 : Math.floor(holders / 3)),
		0,
		holders,
	);
	if (java > 0 && noJava) throw new UsageError(`--java ${java}: ${noJava}`);
	const pythonShare = java > 0 ? holders / 3 : holders / 2;
	const python = intOption(
		"python",
		values.python ?? String(Math.floor(pythonShare)),
		0,
		holders - java,
	);
	return {
		durationS: intOption("duration", values.duration ?? (targetIds ? "3600" : "75"), 10, 24 * 3600),
		targetIds,
		minIds: intOption("min-ids", values["min-ids"] ?? String(targetIds ?? 5_000_000), 0, 1e13),
		holders,
		python,
		java,
		workerIds: intOption(
			"worker-ids",
			values["worker-ids"] ?? String(Math.max(1, holders - 4)),
			1,
			124,
		),
		spanMs,
		graceMs: intOption("grace-ms", values["grace-ms"], 0, 60_000),
		kills: intOption("kills", values.kills, 0, 10_000),
		pauses: intOption("pauses", values.pauses, 0, 10_000),
		clockSteps: intOption("clock-steps", values["clock-steps"], 0, 10_000),
		clockStepMs: intOption("clock-step-ms", values["clock-step-ms"], 1, 24 * 3_600_000),
		serverKills: intOption("server-kills", values["server-kills"], 0, 100),
		objectClockSteps: intOption("object-clock-steps", values["object-clock-steps"], 0, 10_000),
		hangRate: rateOption("hang-rate", values["hang-rate"]),
		dropRate: rateOption("drop-rate", values["drop-rate"]),
		lateRate: rateOption("late-rate", values["late-rate"]),
		batch: intOption("batch", values.batch, 1, 100_000),
		batchGapMs: intOption("batch-gap-ms", values["batch-gap-ms"], 0, 1_000),
		startupTimeoutS: intOption("startup-timeout", values["startup-timeout"], 5, 600),
		wranglerConfig: values["wrangler-config"],
		...runOptions(values),
	};
}
