/** The load test's command line: flags, defaults, bounds and `--help`. */
import { parseArgs } from "node:util";

/** Routes the mixed clients send to, with their shares of requests. */
export const ROUTE_SHARES = {
	explicit: 27,
	"explicit-blocks": 6,
	auto: 25,
	"auto-blocks": 2,
	ulid: 20,
	uuidv7: 20,
} as const;
export type RouteName = keyof typeof ROUTE_SHARES;
const ROUTE_NAMES = Object.keys(ROUTE_SHARES) as RouteName[];

/** The help lines of RUN_FLAGS but the seed (whose words say what it seeds). */
export const RUN_FLAGS_HELP = `  --json               also print the summary as one JSON line
  --keep               keep the persist directory
  --verbose            stream wrangler's output`;

export const HELP = `usage: npm run test:load -- [options]
  --duration S         seconds of load (default 20; with --ids, the time allowed: default 3600)
  --ids N              run until N IDs are checked instead (crashes spread over them); at most 10^11
  --clients N          concurrent clients sending the mix of routes (default 16, at most 256)
  --routes LIST        routes in that mix (default all): ${ROUTE_NAMES.join(",")}
  --block-clients N    further clients sending only large blocks, explicit and auto (default 0)
  --max-block N        largest count a block client asks for; it asks N/2 to N (default 1000000)
  --crashes K          SIGKILL + restart the server K times mid-load (default 0)
  --config-change R:NAME=VALUE
                       restart R (1..K) and later ones run with --var NAME:VALUE; repeatable.
                       Any setting but the layout (SNOWFLAKE_*), e.g. 5:LEASE_MS=500
  --worker-ids LIST    worker IDs the clients name, e.g. 0-7 or 1,5,9 (default 0-7)
  --max-batch N        largest count the mixed clients ask for (default 1000)
  --seed N             seed of the request mix (default: random, printed)
  --startup-timeout S  seconds to wait for /health after each start (default 90)
  --request-timeout S  seconds before a request counts as failed (default 20)
${RUN_FLAGS_HELP}`;

export interface LoadOptions {
	durationS: number;
	/** Run until this many IDs are checked (crashes spread over them), within durationS. */
	targetIds?: number;
	clients: number;
	routes: RouteName[];
	blockClients: number;
	maxBlock: number;
	crashes: number;
	/** Settings per restart number: what that restart (and every later one) adds. */
	configChanges: Map<number, Record<string, string>>;
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

/** A flag's integer in [min, max], else a `UsageError` naming the flag. */
export function intOption(name: string, raw: string, min: number, max: number): number {
	const value = Number(raw);
	if (!/^[0-9]+$/.test(raw) || value < min || value > max) {
		throw new UsageError(`--${name} must be an integer in [${min}, ${max}], got ${raw}`);
	}
	return value;
}

/** Worker IDs and ranges, e.g. `0-7` or `1,5,9` (as AUTO_WORKER_IDS is written). */
export function workerIdList(raw: string): number[] {
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

function routeList(raw: string): RouteName[] {
	const routes = raw.split(",").map((r) => r.trim());
	const unknown = routes.find((r) => !ROUTE_NAMES.includes(r as RouteName));
	if (unknown !== undefined) {
		throw new UsageError(`--routes takes ${ROUTE_NAMES.join(",")}; got ${unknown || "(empty)"}`);
	}
	return [...new Set(routes as RouteName[])];
}

/** `R:NAME=VALUE` flags as the settings each restart adds; the layout may not change. */
function configChanges(raw: string[], crashes: number): Map<number, Record<string, string>> {
	const changes = new Map<number, Record<string, string>>();
	for (const flag of raw) {
		const match = /^(\d+):([A-Z][A-Z0-9_]*)=(.*)$/.exec(flag);
		const restart = Number(match?.[1]);
		if (!match || restart < 1 || restart > crashes) {
			throw new UsageError(
				`--config-change must be R:NAME=VALUE with R a restart in [1, ${crashes}] (--crashes), got ${flag}`,
			);
		}
		const [, , name = "", value = ""] = match;
		if (name.startsWith("SNOWFLAKE_")) {
			throw new UsageError(
				`--config-change keeps the layout: ${name} would change what every ID means (a new layout needs new storage)`,
			);
		}
		if (name === "AUTO_WORKER_IDS" && value.trim()) workerIdList(value);
		changes.set(restart, { ...changes.get(restart), [name]: value });
	}
	return changes;
}

/** Flags every run shares: its seed, and what it prints and keeps. */
export const RUN_FLAGS = {
	seed: { type: "string" },
	json: { type: "boolean", default: false },
	keep: { type: "boolean", default: false },
	verbose: { type: "boolean", default: false },
	help: { type: "boolean", default: false },
} as const;

/** A run's seed: the one given, else a random one (the run prints it, so it can be replayed). */
export function seedOption(raw: string | undefined): number {
	return raw === undefined
		? Math.floor(Math.random() * 2 ** 31)
		: intOption("seed", raw, 0, 2 ** 31);
}

/** The options of RUN_FLAGS as parsed. */
export function runOptions(values: {
	seed?: string | undefined;
	json: boolean;
	keep: boolean;
	verbose: boolean;
}) {
	return {
		seed: seedOption(values.seed),
		json: values.json,
		keep: values.keep,
		verbose: values.verbose,
	};
}

/** The options, or `"help"` when `--help` was asked for. Throws `UsageError` on bad flags. */
export function parseLoadOptions(args: string[]): LoadOptions | "help" {
	const { values } = parseArgs({
		args,
		options: {
			duration: { type: "string" },
			ids: { type: "string" },
			clients: { type: "string", default: "16" },
			routes: { type: "string", default: ROUTE_NAMES.join(",") },
			"block-clients": { type: "string", default: "0" },
			"max-block": { type: "string", default: "1000000" },
			crashes: { type: "string", default: "0" },
			"config-change": { type: "string", multiple: true, default: [] },
			"worker-ids": { type: "string", default: "0-7" },
			"max-batch": { type: "string", default: "1000" },
			"startup-timeout": { type: "string", default: "90" },
			"request-timeout": { type: "string", default: "20" },
			...RUN_FLAGS,
		},
		strict: true,
	});
	if (values.help) return "help";
	const targetIds = values.ids === undefined ? undefined : intOption("ids", values.ids, 1, 1e11);
	const crashes = intOption("crashes", values.crashes, 0, 50);
	return {
		durationS: intOption("duration", values.duration ?? (targetIds ? "3600" : "20"), 1, 3600),
		targetIds,
		clients: intOption("clients", values.clients, 1, 256),
		routes: routeList(values.routes),
		blockClients: intOption("block-clients", values["block-clients"], 0, 64),
		maxBlock: intOption("max-block", values["max-block"], 2, 10_000_000),
		crashes,
		configChanges: configChanges(values["config-change"], crashes),
		maxBatch: intOption("max-batch", values["max-batch"], 1, 10_000),
		startupTimeoutS: intOption("startup-timeout", values["startup-timeout"], 5, 600),
		requestTimeoutS: intOption("request-timeout", values["request-timeout"], 1, 600),
		workerIds: workerIdList(values["worker-ids"]),
		...runOptions(values),
	};
}

/** A run's options from its command line; prints the help (exit 0) or a usage error with it (exit 2). */
export function optionsOrExit<T>(parse: (args: string[]) => T | "help", help: string): T {
	try {
		const parsed = parse(process.argv.slice(2));
		if (parsed !== "help") return parsed;
		console.log(help);
		process.exit(0);
	} catch (error) {
		const usage =
			error instanceof UsageError ||
			(error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
		if (!usage) throw error;
		console.error(`${(error as Error).message}\n\n${help}`);
		process.exit(2);
	}
}
