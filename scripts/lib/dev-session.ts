/**
 * `wrangler dev` for people (`npm run dev`, `npm start`, `npm run dev:consumer`):
 * wrangler in the foreground, holding a lock on its state directory while it runs,
 * so that a second server on the same state refuses to start and says why. Two
 * servers on one state directory would each run a live instance of every worker
 * ID's object, and those could issue the same IDs. (The objects guard themselves
 * too, src/worker/object/snowflake-worker.ts: an instance another one took over stops.)
 *
 * The lock is a file in the state directory naming the process that holds it; a
 * lock whose process is gone (a crash, `kill -9`) is taken over.
 *
 *   runDevSession(["dev", "--port", "8788"]); // exits with wrangler's exit code
 */
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const WRANGLER = join(REPO, "node_modules", "wrangler", "bin", "wrangler.js");
/** Where wrangler keeps local state unless told `--persist-to`. */
const DEFAULT_STATE = ".wrangler/state";
const LOCK_FILE = "dev-server.lock";

interface LockHolder {
	pid: number;
	since: string;
	command: string;
}

/** The state directory `args` give wrangler (`--persist-to X` or `--persist-to=X`), else the default. */
export function stateDirOf(args: readonly string[]): string {
	for (const [i, arg] of args.entries()) {
		if (arg === "--persist-to") return args[i + 1] ?? DEFAULT_STATE;
		if (arg.startsWith("--persist-to=")) return arg.slice("--persist-to=".length);
	}
	return DEFAULT_STATE;
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

/** Why this server may not start: another live one holds `dir`. */
export class StateInUse extends Error {}

/**
 * Takes the lock on `dir` for this process; throws `StateInUse` (saying why, and
 * how to run two) while another live process holds it. Answers the release.
 */
export function lockStateDir(dir: string, command: string): () => void {
	const absolute = resolve(REPO, dir);
	mkdirSync(absolute, { recursive: true });
	const lock = join(absolute, LOCK_FILE);
	for (let attempt = 0; attempt < 2; attempt++) {
		let fd: number;
		try {
			fd = openSync(lock, "wx");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
			let holder: LockHolder | undefined;
			try {
				holder = JSON.parse(readFileSync(lock, "utf8")) as LockHolder;
			} catch {
				holder = undefined; // being written, or unreadable: treated as gone
			}
			if (holder && holder.pid !== process.pid && alive(holder.pid)) {
				const shown = relative(REPO, absolute) || absolute;
				throw new StateInUse(
					[
						`edge-ids: another dev server (pid ${holder.pid}, \`${holder.command}\`, since ${holder.since}) is using the state directory ${shown}.`,
						"Two servers on one state directory would each run a live instance of every worker ID's object, and those could issue the same IDs.",
						"Stop the other one, or give this one its own state and port:",
						"  npm run dev -- --persist-to .wrangler/state-2 --port 8788",
					].join("\n"),
				);
			}
			rmSync(lock, { force: true }); // its process is gone
			continue;
		}
		const holder: LockHolder = { pid: process.pid, since: new Date().toISOString(), command };
		writeSync(fd, JSON.stringify(holder));
		closeSync(fd);
		return () => {
			try {
				if ((JSON.parse(readFileSync(lock, "utf8")) as LockHolder).pid === process.pid)
					rmSync(lock);
			} catch {
				// already gone
			}
		};
	}
	throw new StateInUse(`edge-ids: could not take the lock ${lock}; retry`);
}

/**
 * `args` with `--var TRUST_CF_CONNECTING_IP:off` unless they set it: `wrangler dev`
 * passes on a `CF-Connecting-IP` a caller sends, so locally it is no address.
 */
export function localArgs(args: readonly string[]): string[] {
	if (args.some((arg) => arg.startsWith("TRUST_CF_CONNECTING_IP:"))) return [...args];
	return [...args, "--var", "TRUST_CF_CONNECTING_IP:off"];
}

/**
 * Runs `wrangler <args>` in the foreground (its terminal, its keys) while holding
 * the lock on its state directory; exits with wrangler's exit code. A held lock is
 * a refusal to start: the message, and exit code 1.
 */
export function runDevSession(args: readonly string[], command: string): void {
	let release: () => void;
	try {
		release = lockStateDir(stateDirOf(args), command);
	} catch (error) {
		if (!(error instanceof StateInUse)) throw error;
		console.error(error.message);
		process.exit(1);
	}
	const wrangler = spawn(process.execPath, [WRANGLER, ...localArgs(args)], {
		cwd: REPO,
		stdio: "inherit",
	});
	// Ctrl-C reaches wrangler too (one process group); wait for it to end, then release.
	for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
		process.on(signal, () => wrangler.kill(signal));
	}
	wrangler.on("exit", (code, signal) => {
		release();
		process.exit(code ?? (signal ? 1 : 0));
	});
}
