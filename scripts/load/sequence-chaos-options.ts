/** The named sequences' chaos run's command line: flags, defaults, bounds and `--help`. */
import { parseArgs } from "node:util";
import { rateOption } from "./lease-chaos-options";
import { intOption, RUN_FLAGS, RUN_FLAGS_HELP, runOptions } from "./options";

export const HELP = `usage: npm run test:sequences -- [options]
  --duration S         seconds of load (default 35; with --numbers, the time allowed: default 1800)
  --numbers N          run until N numbers are checked instead (restarts spread over them)
  --cross-midnight     run until the daily sequence's midnight has passed (the zone whose
                       midnight comes soonest after start-up: up to an hour), plus 30 s of
                       the new period, and --duration/--numbers are met; restarts spread over
                       it all; fails unless two periods were seen
  --min-numbers N      fail below N numbers checked (default: 100,000, or --numbers)
  --clients N          HTTP clients asking next numbers of every sequence (default 6)
  --rpc-clients N      clients calling nextInSequence / reserveInSequence through a consumer
                       Worker's service binding (default 2; 0: edge-ids alone, HTTP straight to it)
  --reserve-clients N  clients reserving large ranges of the ordered sequences (default 1)
  --buffers N          process-side buffers (createSequenceBuffer) handing out reserved ranges (default 2)
  --max-reserve N      largest range a reserve client asks for; it asks N/2 to N (default 100000,
                       at most MAX_BLOCK_COUNT, 1000000)
  --max-count N        largest count of a next call (default 50)
  --restarts K         SIGKILLs of wrangler dev, restarted on the same state (default 2)
  --drop-rate R        share of answers dropped after the service acted (default 0.05)
  --late-rate R        share held back 0.1-1 s, so they come late and out of order (default 0.03)
  --seed N             seed of the load and the chaos (default: random, printed)
  --startup-timeout S  seconds to wait for wrangler dev after each start (default 120)
${RUN_FLAGS_HELP}`;

export interface SequenceChaosOptions {
	durationS: number;
	targetNumbers?: number | undefined;
	crossMidnight: boolean;
	minNumbers: number;
	clients: number;
	rpcClients: number;
	reserveClients: number;
	buffers: number;
	maxReserve: number;
	maxCount: number;
	restarts: number;
	dropRate: number;
	lateRate: number;
	seed: number;
	startupTimeoutS: number;
	json: boolean;
	keep: boolean;
	verbose: boolean;
}

/** The options, or `"help"` when `--help` was asked for. Throws `UsageError` on bad flags. */
export function parseSequenceChaosOptions(args: string[]): SequenceChaosOptions | "help" {
	const { values } = parseArgs({
		args,
		options: {
			duration: { type: "string" },
			numbers: { type: "string" },
			"cross-midnight": { type: "boolean", default: false },
			"min-numbers": { type: "string" },
			clients: { type: "string", default: "6" },
			"rpc-clients": { type: "string", default: "2" },
			"reserve-clients": { type: "string", default: "1" },
			buffers: { type: "string", default: "2" },
			"max-reserve": { type: "string", default: "100000" },
			"max-count": { type: "string", default: "50" },
			restarts: { type: "string", default: "2" },
			"drop-rate": { type: "string", default: "0.05" },
			"late-rate": { type: "string", default: "0.03" },
			"startup-timeout": { type: "string", default: "120" },
			...RUN_FLAGS,
		},
		strict: true,
	});
	if (values.help) return "help";
	const targetNumbers =
		values.numbers === undefined ? undefined : intOption("numbers", values.numbers, 1, 1e12);
	return {
		durationS: intOption("duration", values.duration ?? (targetNumbers ? "1800" : "35"), 5, 86_400),
		targetNumbers,
		crossMidnight: values["cross-midnight"],
		minNumbers: intOption(
			"min-numbers",
			values["min-numbers"] ?? String(targetNumbers ?? 100_000),
			0,
			1e12,
		),
		clients: intOption("clients", values.clients, 0, 64),
		rpcClients: intOption("rpc-clients", values["rpc-clients"], 0, 64),
		reserveClients: intOption("reserve-clients", values["reserve-clients"], 0, 16),
		buffers: intOption("buffers", values.buffers, 0, 16),
		maxReserve: intOption("max-reserve", values["max-reserve"], 2, 1_000_000),
		maxCount: intOption("max-count", values["max-count"], 1, 10_000),
		restarts: intOption("restarts", values.restarts, 0, 50),
		dropRate: rateOption("drop-rate", values["drop-rate"]),
		lateRate: rateOption("late-rate", values["late-rate"]),
		startupTimeoutS: intOption("startup-timeout", values["startup-timeout"], 5, 600),
		...runOptions(values),
	};
}
