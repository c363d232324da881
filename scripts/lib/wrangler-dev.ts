/**
 * The one way scripts (benchmarks, load and crash tests, the browser test) run
 * `wrangler dev`: on free ports of 127.0.0.1, with its own Durable Object state
 * (`--persist-to`, a fresh temporary directory unless one is given), in its own
 * process group so that stopping it ends everything it spawned.
 *
 *   const dev = await startWranglerDev({ vars: { API_TOKEN: "secret" } });
 *   await fetch(`${dev.url}/health`);
 *   await dev.kill();      // SIGKILL the whole group: a crash, not a shutdown
 *   await dev.restart();   // same persist directory, so the same objects' state
 *   dev.setVars({ LEASE_MS: "500" }); await dev.restart();   // … with other settings
 *   await dev.stop();      // SIGTERM (then SIGKILL), and remove its own state
 *
 * Whatever is still running when this process exits, or gets SIGINT/SIGTERM, is
 * SIGKILLed. Two servers must never share a persist directory at once: both would
 * run "the" object of a name and could hand out the same IDs.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./ports";

export interface DevServerOptions {
	/** Port to listen on. Default: a free one, chosen again at every start. */
	port?: number;
	/** Keeps Durable Object storage here across restarts. Default: a new temporary directory, removed by `stop()`. */
	persistTo?: string;
	/** Keep the temporary persist directory after `stop()`. Default: false. */
	keepState?: boolean;
	/** Extra `--var NAME:value` settings. Default: `TRUST_CF_CONNECTING_IP:off` only. */
	vars?: Record<string, string>;
	/**
	 * A script of this repository that runs `wrangler dev` itself, given the same
	 * arguments (without `dev`), e.g. `scripts/dev/server.ts` (what `npm run dev` runs).
	 * Default: none, wrangler is started directly.
	 */
	launcher?: string;
	/** wrangler's `--log-level`. Default: `warn` (`log` shows the Workers' console lines). */
	logLevel?: "debug" | "info" | "log" | "warn" | "error";
	/** Further `wrangler dev` arguments, e.g. `["-c", "other/wrangler.toml"]`. Default: none. */
	args?: string[];
	/**
	 * The path that answers 2xx once the server is ready (another Worker first, e.g. the
	 * consumer's `/`). Default: `/health`, which must also say `{"status":"ok"}`.
	 */
	readyPath?: string;
	/** Milliseconds to wait for the ready path. Default: 90,000. */
	timeoutMs?: number;
	/** Called with every chunk wrangler writes (stdout and stderr). Default: kept, shown on failure only. */
	onOutput?: (text: string) => void;
	/**
	 * Picks each free port (the server's, unless `port` is given, and the inspector's).
	 * Default: `freePort()`, the system's choice. A port picked here can be taken by
	 * another process before wrangler binds it: a start that fails so is tried again on
	 * newly picked ports, up to 5 times.
	 */
	pickPort?: () => Promise<number>;
}

/** A running (or stopped, restartable) `wrangler dev`. */
export interface DevServer {
	/** `http://127.0.0.1:<port>` of the current run. */
	readonly url: string;
	readonly port: number;
	/** The `wrangler` process (the leader of its process group). */
	readonly process: ChildProcess;
	/** Where this server keeps Durable Object state. */
	readonly persistTo: string;
	/** SIGKILLs the whole process group (a crash, not a shutdown) and waits until every process is gone. */
	kill(): Promise<void>;
	/** SIGTERM, SIGKILL after 5 s, wait until gone; removes a temporary persist directory. */
	stop(): Promise<void>;
	/** Starts again on the same persist directory (after `kill()` or `stop()`); resolves with the milliseconds until ready. */
	restart(): Promise<number>;
	/** Replaces the `--var` settings from the next start on (a config change across a restart). */
	setVars(vars: Record<string, string>): void;
	/** The last few kilobytes wrangler printed. */
	output(): string;
}

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const WRANGLER_BIN = join(REPO, "node_modules", "wrangler", "bin", "wrangler.js");
const TSX_CLI = join(REPO, "node_modules", "tsx", "dist", "cli.mjs");
const OUTPUT_KEPT = 8_000;
/** Starts tried when a picked port is taken before wrangler binds it. */
const PORT_ATTEMPTS = 5;
/** What wrangler prints (and exits 1) when its port or its inspector's is taken. */
const PORT_TAKEN = "Address already in use";

const running = new Set<number>();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function groupAlive(pid: number): boolean {
	try {
		process.kill(-pid, 0);
		return true;
	} catch {
		return false;
	}
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pid, signal);
	} catch {
		// already gone
	}
}

/** Sends `signal` to the group, then SIGKILL if it outlives `graceMs`; resolves when every process is gone. */
async function endGroup(pid: number, signal: NodeJS.Signals, graceMs: number): Promise<void> {
	signalGroup(pid, signal);
	const deadline = Date.now() + graceMs;
	while (groupAlive(pid) && Date.now() < deadline) await sleep(50);
	if (groupAlive(pid)) {
		signalGroup(pid, "SIGKILL");
		const hard = Date.now() + 10_000;
		while (groupAlive(pid) && Date.now() < hard) await sleep(50);
	}
	running.delete(pid);
	if (groupAlive(pid)) throw new Error(`wrangler dev's process group ${pid} survived SIGKILL`);
}

process.on("exit", () => {
	for (const pid of running) signalGroup(pid, "SIGKILL");
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
	process.on(signal, () => {
		for (const pid of running) signalGroup(pid, "SIGKILL");
		// A script with its own handler exits there, after its cleanup.
		if (process.listenerCount(signal) === 1) process.exit(signal === "SIGINT" ? 130 : 143);
	});
}

export class WranglerDev implements DevServer {
	readonly persistTo: string;
	private readonly ownsState: boolean;
	private child: ChildProcess | undefined;
	private currentPort = 0;
	private log = "";
	private vars: Record<string, string>;

	constructor(private readonly options: DevServerOptions = {}) {
		this.ownsState = options.persistTo === undefined;
		// `wrangler dev` passes on a caller's own CF-Connecting-IP: no address locally.
		this.vars = { TRUST_CF_CONNECTING_IP: "off", ...options.vars };
		this.persistTo = options.persistTo ?? mkdtempSync(join(tmpdir(), "edge-ids-dev-"));
	}

	get url(): string {
		return `http://127.0.0.1:${this.currentPort}`;
	}
	get port(): number {
		return this.currentPort;
	}
	get process(): ChildProcess {
		if (!this.child) throw new Error("wrangler dev is not running");
		return this.child;
	}
	output(): string {
		return this.log;
	}

	/**
	 * Starts wrangler and waits until `/health` answers; resolves with the milliseconds that took.
	 * A picked port taken before wrangler binds it (another process picked it too) is no
	 * failure: the start is tried again on newly picked ports.
	 */
	async start(): Promise<number> {
		if (this.child) throw new Error("wrangler dev is already running; kill() or stop() it first");
		const started = Date.now();
		for (let attempt = 1; ; attempt++) {
			const outcome = await this.launch();
			if (outcome === "ready") return Date.now() - started;
			// A port given by the caller stays taken: trying it again would fail alike.
			if (attempt >= PORT_ATTEMPTS || this.options.port !== undefined) {
				throw new Error(`wrangler dev could not bind its ports:\n${this.log}`);
			}
		}
	}

	/** One start on newly picked ports: "ready", or "port taken" when wrangler found one in use. */
	private async launch(): Promise<"ready" | "port taken"> {
		const pick = this.options.pickPort ?? freePort;
		this.currentPort = this.options.port ?? (await pick());
		this.log = "";
		const args = [
			...(this.options.launcher
				? [TSX_CLI, join(REPO, this.options.launcher)]
				: [WRANGLER_BIN, "dev"]),
			"--ip",
			"127.0.0.1",
			"--port",
			String(this.currentPort),
			"--inspector-port", // the default (9229) would collide with any other dev server
			String(await pick()),
			"--persist-to",
			this.persistTo,
			"--log-level",
			this.options.logLevel ?? "warn",
			"--show-interactive-dev-session=false",
		];
		for (const [name, value] of Object.entries(this.vars)) args.push("--var", `${name}:${value}`);
		args.push(...(this.options.args ?? []));
		const child = spawn(process.execPath, args, {
			cwd: REPO,
			detached: true, // its own process group, so the group can be ended by PID
			stdio: ["ignore", "pipe", "pipe"],
			env: {
				...process.env,
				WRANGLER_SEND_METRICS: "false",
				// No fetch of the location data behind request.cf (its placeholder is the same).
				CLOUDFLARE_CF_FETCH_ENABLED: "false",
				NO_COLOR: "1",
				CI: "true",
			},
		});
		if (child.pid === undefined) throw new Error(`could not start ${WRANGLER_BIN}`);
		this.child = child;
		running.add(child.pid);
		const keep = (chunk: Buffer) => {
			const text = chunk.toString();
			this.options.onOutput?.(text);
			this.log = (this.log + text).slice(-OUTPUT_KEPT);
		};
		child.stdout?.on("data", keep);
		child.stderr?.on("data", keep);

		const deadline = Date.now() + (this.options.timeoutMs ?? 90_000);
		while (Date.now() < deadline) {
			if (child.exitCode !== null || child.signalCode !== null) {
				await this.end("SIGKILL", 0);
				if (this.log.includes(PORT_TAKEN)) return "port taken";
				throw new Error(`wrangler dev exited during startup:\n${this.log}`);
			}
			try {
				const path = this.options.readyPath ?? "/health";
				const response = await fetch(`${this.url}${path}`, { signal: AbortSignal.timeout(2_000) });
				const body = (await response.json()) as { status?: string };
				if (response.ok && (path !== "/health" || body.status === "ok")) return "ready";
			} catch {
				// not listening yet
			}
			await sleep(200);
		}
		await this.end("SIGKILL", 0);
		throw new Error(
			`wrangler dev did not answer ${this.options.readyPath ?? "/health"} in time:\n${this.log}`,
		);
	}

	setVars(vars: Record<string, string>): void {
		this.vars = { TRUST_CF_CONNECTING_IP: "off", ...vars };
	}

	kill(): Promise<void> {
		return this.end("SIGKILL", 10_000);
	}

	async stop(): Promise<void> {
		await this.end("SIGTERM", 5_000);
		if (this.ownsState && !this.options.keepState) {
			rmSync(this.persistTo, { recursive: true, force: true });
		}
	}

	async restart(): Promise<number> {
		await this.end("SIGKILL", 10_000); // no-op when already down
		return this.start();
	}

	private async end(signal: NodeJS.Signals, graceMs: number): Promise<void> {
		const pid = this.child?.pid;
		this.child = undefined;
		if (pid !== undefined) await endGroup(pid, signal, graceMs);
	}
}

/** Starts `wrangler dev` (see `DevServerOptions` for the defaults) and resolves once it answers `/health`. */
export async function startWranglerDev(options: DevServerOptions = {}): Promise<DevServer> {
	const server = new WranglerDev(options);
	try {
		await server.start();
	} catch (error) {
		await server.stop();
		throw error;
	}
	return server;
}

/**
 * A run's cleanup on SIGINT and SIGTERM (stop what it started, then exit 130 or 143),
 * and the way it stops the dev server: a failure to stop is reported, not thrown.
 */
export function stopOnSignals(cleanup: () => Promise<void>): void {
	for (const signal of ["SIGINT", "SIGTERM"] as const) {
		process.on(signal, () => {
			console.error(`\n${signal}: stopping`);
			void cleanup().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
		});
	}
}

/** Stops `dev`, reporting (not throwing) a failure. */
export function stopReported(dev: DevServer | WranglerDev): Promise<void> {
	return dev
		.stop()
		.catch((error: Error) => console.error(`could not stop wrangler dev: ${error.message}`));
}
