/**
 * Lease holders of three languages against one running service, as processes: the
 * Python holder (examples/python-holder/holder.py), the TypeScript one
 * (scripts/load/lease-holder.ts) and the Java one (dev.edgeids.HolderCommand over the
 * Java client, where javac 17+ is found: scripts/lib/java-build.ts), one frozen (SIGSTOP) past its span and grace so that
 * another holder takes its worker ID, one Python holder forking a child that holds
 * a copy of its lease, each with its wall clock an hour ahead or behind. Every ID
 * they issue is checked in one ledger (scripts/load/holder-ledger.ts).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildJava, JAVA_FLAGS } from "../../scripts/lib/java-build";
import { HolderLedger } from "../../scripts/load/holder-ledger";

const REPO = resolve(import.meta.dirname, "../..");
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface Holder {
	name: string;
	out: string;
	process: ChildProcess;
	exited: Promise<number | null>;
	/** The JSON summary it printed on stderr at the end. */
	summary(): Record<string, unknown>;
}

/** Fails with what to install, not a spawn error, where python3 is missing. */
function requirePython(): void {
	if (spawnSync("python3", ["--version"]).status === 0) return;
	throw new Error(
		"npm test runs the example Python lease holder: install Python 3.8 or later (python3 on PATH)",
	);
}

/** Starts a holder command writing to `dir/<name>.txt`. */
function startHolder(
	dir: string,
	name: string,
	language: "python" | "typescript" | "java",
	url: string,
	token: string,
	extra: string[],
): Holder {
	if (language === "python") requirePython();
	const out = join(dir, `${name}.txt`);
	const flags = ["--url", url, "--token", token, "--holder", name, "--out", out, ...extra];
	const java = ["-cp", language === "java" ? buildJava() : "", "dev.edgeids.HolderCommand"];
	const child =
		language === "python"
			? spawn("python3", ["-B", join(REPO, "examples/python-holder/holder.py"), ...flags])
			: language === "java"
				? spawn("java", [...JAVA_FLAGS, ...java, ...flags])
				: spawn(
						process.execPath,
						["--import", "tsx", join(REPO, "scripts/load/lease-holder.ts"), ...flags],
						{
							cwd: REPO,
						},
					);
	let stderr = "";
	child.stderr?.on("data", (chunk) => {
		stderr += String(chunk);
	});
	const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
	return {
		name,
		out,
		process: child,
		exited,
		// The last line that is JSON (a forked child prints its own to the same pipe).
		summary: () => {
			for (const line of stderr.trim().split("\n").reverse()) {
				try {
					return JSON.parse(line) as Record<string, unknown>;
				} catch {}
			}
			return {};
		},
	};
}

/** Resolves once `holder` has written a run of IDs (it holds a lease and issues). */
async function issuing(holder: Holder, timeoutMs = 20_000): Promise<void> {
	const until = Date.now() + timeoutMs;
	while (Date.now() < until) {
		if (existsSync(holder.out) && /^R /m.test(readFileSync(holder.out, "utf8"))) return;
		await sleep(50);
	}
	throw new Error(`${holder.name} issued nothing within ${timeoutMs} ms`);
}

/**
 * Runs the holders against `url` (LEASE_WORKER_IDS of four worker IDs, or five with
 * `withJava`; spans of `spanMs` and a grace of `graceMs`), and answers the ledger and the summaries.
 */
export async function runHolders(
	url: string,
	token: string,
	spanMs: number,
	graceMs: number,
	withJava: boolean,
) {
	const dir = mkdtempSync(join(tmpdir(), "edge-ids-holders-"));
	try {
		const seconds = String((6 * spanMs) / 1_000);
		const ahead = "--wall-clock-offset=3600000";
		const behind = "--wall-clock-offset=-3600000";
		const frozen = startHolder(dir, "py-frozen", "python", url, token, [
			ahead,
			"--seconds",
			seconds,
			"--batch",
			"200",
		]);
		const forking = startHolder(dir, "py-forking", "python", url, token, [
			behind,
			"--seconds",
			seconds,
			"--fork-after",
			"20000",
		]);
		const node = startHolder(dir, "ts", "typescript", url, token, [behind, "--seconds", seconds]);
		const jvm = withJava
			? [startHolder(dir, "java", "java", url, token, [ahead, "--seconds", seconds])]
			: [];
		await Promise.all([
			issuing(frozen),
			issuing(forking),
			issuing(node),
			...jvm.map((h) => issuing(h)),
		]);
		// Frozen past its span and grace: its worker ID is free for the holder started now.
		frozen.process.kill("SIGSTOP");
		const taker = startHolder(dir, "ts-taker", "typescript", url, token, [
			ahead,
			"--seconds",
			seconds,
		]);
		await issuing(taker);
		await sleep(spanMs + graceMs);
		frozen.process.kill("SIGCONT");
		const holders = [frozen, forking, node, taker, ...jvm];
		const codes = await Promise.all(holders.map((h) => h.exited));
		await sleep(200); // the forked child ends with its parent's deadline
		const ledger = new HolderLedger();
		const outputs = [...holders.map((h) => h.out), `${forking.out}.child`];
		for (const out of outputs) ledger.add(out, readFileSync(out, "utf8"));
		const child = readFileSync(`${forking.out}.child`, "utf8");
		return {
			codes,
			ledger,
			summaries: Object.fromEntries(holders.map((h) => [h.name, h.summary()])),
			childGrants: child.split("\n").filter((line) => line.startsWith("L ")),
		};
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
