/**
 * Starts `wrangler dev` for a script (benchmarks, load and browser tests) and
 * stops it, with everything it spawned: it runs in its own process group, which
 * `stop()` (and any exit of this process) kills by PID. Loopback only.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { freePort } from "./ports";

export interface DevServer {
	url: string;
	port: number;
	process: ChildProcess;
	/** SIGKILLs the whole process group (a crash, not a shutdown) and waits for it to go. */
	kill(): Promise<void>;
	stop(): Promise<void>;
}

export interface DevServerOptions {
	port?: number;
	/** Keeps Durable Object storage here across restarts. */
	persistTo?: string;
	/** Extra `--var NAME:value` settings. */
	vars?: Record<string, string>;
	/** Milliseconds to wait for /health. */
	timeoutMs?: number;
}

const running = new Set<ChildProcess>();
const killGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
	if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
		try {
			process.kill(-child.pid, signal);
		} catch {
			// already gone
		}
	}
};
process.on("exit", () => {
	for (const child of running) killGroup(child, "SIGKILL");
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
	process.on(signal, () => {
		for (const child of running) killGroup(child, "SIGKILL");
		process.exit(130);
	});
}

export async function startWranglerDev(options: DevServerOptions = {}): Promise<DevServer> {
	const port = options.port ?? (await freePort());
	const args = [
		"wrangler",
		"dev",
		"--ip",
		"127.0.0.1",
		"--port",
		String(port),
		"--log-level",
		"warn",
	];
	if (options.persistTo) args.push("--persist-to", options.persistTo);
	for (const [name, value] of Object.entries(options.vars ?? {}))
		args.push("--var", `${name}:${value}`);
	const child = spawn("npx", args, {
		detached: true, // its own process group, so the group can be killed by PID
		stdio: ["ignore", "pipe", "pipe"],
		env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
	});
	running.add(child);
	let output = "";
	const keep = (chunk: Buffer) => {
		output = (output + chunk.toString()).slice(-4000);
	};
	child.stdout?.on("data", keep);
	child.stderr?.on("data", keep);
	const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
	exited.then(() => running.delete(child));

	const url = `http://127.0.0.1:${port}`;
	const deadline = Date.now() + (options.timeoutMs ?? 60_000);
	for (;;) {
		if (child.exitCode !== null) throw new Error(`wrangler dev exited early:\n${output}`);
		try {
			const response = await fetch(`${url}/health`);
			if (response.ok) break;
		} catch {
			// not listening yet
		}
		if (Date.now() > deadline) {
			killGroup(child, "SIGKILL");
			throw new Error(`wrangler dev did not answer /health in time:\n${output}`);
		}
		await new Promise((r) => setTimeout(r, 250));
	}

	const end = async (signal: NodeJS.Signals) => {
		killGroup(child, signal);
		await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
		killGroup(child, "SIGKILL");
		await exited;
	};
	return { url, port, process: child, kill: () => end("SIGKILL"), stop: () => end("SIGTERM") };
}
