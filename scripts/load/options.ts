/** The load test's command line: flags, defaults, bounds and `--help`. */
import { parseArgs } from "node:util";

export const HELP = `usage: npm run test:load -- [options]
  --duration S         seconds of load (default 20, at most 3600)
  --clients N          concurrent clients (default 16, at most 256)
  --crashes K          SIGKILL + restart the server K times mid-load (default 0)
  --worker-ids LIST    worker IDs the clients name, e.g. 0-7 or 1,5,9 (default 0-7)
  --max-batch N        largest count asked for (default 1000)
  --seed N             seed of the request mix (default: random, printed)
  --startup-timeout S  seconds to wait for /health after each start (default 90)
  --request-timeout S  seconds before a request counts as failed (default 20)
  --json               also print the summary as one JSON line
  --keep               keep the persist directory
  --verbose            stream wrangler's output`;

export interface LoadOptions {
	durationS: number;
	clients: number;
	crashes: number;
	maxBatch: number;
	startupTimeoutS: number;
	requestTimeoutS: number;
	workerIds: number[];
	seed: number;
	json: boolean;
	keep: boolean;
	verbose: boolean;
}

/** Bad usage: the message is printed with the help text and the run exits 2. */
export class UsageError extends Error {}

function intOption(name: string, raw: string, min: number, max: number): number {
	const value = Number(raw);
	if (!/^[0-9]+$/.test(raw) || value < min || value > max) {
		throw new UsageError(`--${name} must be an integer in [${min}, ${max}], got ${raw}`);
	}
	return value;
}

function workerIdList(raw: string): number[] {
	const ids = new Set<number>();
	for (const part of raw.split(",")) {
		const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
		const from = Number(match?.[1]);
		const to = match?.[2] === undefined ? from : Number(match[2]);
		if (!match || from > to || to > 1023) {
			throw new UsageError(`--worker-ids must be IDs and ranges in [0, 1023], got ${raw}`);
		}
		for (let id = from; id <= to; id++) ids.add(id);
	}
	return [...ids];
}

/** The options, or `"help"` when `--help` was asked for. Throws `UsageError` on bad flags. */
export function parseLoadOptions(args: string[]): LoadOptions | "help" {
	const { values } = parseArgs({
		args,
		options: {
			duration: { type: "string", default: "20" },
			clients: { type: "string", default: "16" },
			crashes: { type: "string", default: "0" },
			"worker-ids": { type: "string", default: "0-7" },
			"max-batch": { type: "string", default: "1000" },
			seed: { type: "string" },
			"startup-timeout": { type: "string", default: "90" },
			"request-timeout": { type: "string", default: "20" },
			json: { type: "boolean", default: false },
			keep: { type: "boolean", default: false },
			verbose: { type: "boolean", default: false },
			help: { type: "boolean", default: false },
		},
		strict: true,
	});
	if (values.help) return "help";
	return {
		durationS: intOption("duration", values.duration, 1, 3600),
		clients: intOption("clients", values.clients, 1, 256),
		crashes: intOption("crashes", values.crashes, 0, 50),
		maxBatch: intOption("max-batch", values["max-batch"], 1, 10_000),
		startupTimeoutS: intOption("startup-timeout", values["startup-timeout"], 5, 600),
		requestTimeoutS: intOption("request-timeout", values["request-timeout"], 1, 600),
		workerIds: workerIdList(values["worker-ids"]),
		seed:
			values.seed === undefined
				? Math.floor(Math.random() * 2 ** 31)
				: intOption("seed", values.seed, 0, 2 ** 31),
		json: values.json,
		keep: values.keep,
		verbose: values.verbose,
	};
}
