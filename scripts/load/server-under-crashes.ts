/**
 * The server of the load run as its clients see it across crashes: up, or down with
 * clients held at a gate until it is back (crash-loop.ts crashes and restarts it;
 * traffic.ts and sequence-clients.ts send through it).
 *
 *   const server = new ServerUnderCrashes(await startWranglerDev());
 *   await server.ready(); await fetch(server.url("/health"));
 *   await server.crash(); await server.start();   // clients wait in between
 */

/**
 * What the load run needs of the server (../lib/wrangler-dev.ts's WranglerDev), declared
 * here so the tests of the probes (test/core, Node) need not type-check the dev server.
 */
export interface CrashableServer {
	readonly url: string;
	/** Starts the server; resolves with the milliseconds until it answered. */
	start(): Promise<number>;
	/** SIGKILLs it and waits until it is gone. */
	kill(): Promise<void>;
	/** Stops it for good (SIGTERM, then SIGKILL). */
	stop(): Promise<void>;
	/** The settings of the next start. */
	setVars(vars: Record<string, string>): void;
}

/** A dev server with a gate: clients wait on `ready()` while it is down. */
export class ServerUnderCrashes {
	/** Incremented at every kill: a request sent in an earlier generation may be cut. */
	generation = 0;
	up = false;
	/** Unix ms when the server last came up, and how many times it came back after a kill. */
	upSince = 0;
	restarts = 0;
	private readyGate: Promise<void> = Promise.resolve();
	private release: () => void = () => {};

	constructor(readonly dev: CrashableServer) {}

	url(path: string): string {
		return this.dev.url + path;
	}

	/** Resolves while the server is up; clients wait on it during a restart. */
	ready(): Promise<void> {
		return this.readyGate;
	}

	/** Starts (or restarts) the server; resolves with the milliseconds until it answered /health. */
	async start(): Promise<number> {
		const ms = await this.dev.start();
		if (this.generation > 0) this.restarts++;
		this.upSince = Date.now();
		this.up = true;
		this.release();
		return ms;
	}

	/** SIGKILLs the server's process group, as a host crash would, and holds clients back. */
	async crash(): Promise<void> {
		this.generation++;
		this.up = false;
		this.readyGate = new Promise((resolve) => {
			this.release = resolve;
		});
		await this.dev.kill();
	}

	/** Lets waiting clients go (when the run ends while the server is down). */
	releaseWaiters() {
		this.release();
	}
}
