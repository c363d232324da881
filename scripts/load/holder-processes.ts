/**
 * Lease holder processes for the chaos run: slots, each running one holder
 * command at a time (the TypeScript one, scripts/load/lease-holder.ts, the Python
 * one, examples/python-holder/holder.py, or the Java client's, dev.edgeids.HolderCommand
 * compiled by scripts/lib/java-build.ts), its output piped straight into the
 * ledger (scripts/load/holder-ledger.ts) as it is written. Each process starts
 * with its wall clock an hour off (ahead or behind) and steps it back at SIGUSR2.
 * The fleet SIGKILLs a holder (and starts a new one in its slot), SIGSTOPs one
 * for a while, or steps its clock; at the end it SIGTERMs them all (each
 * releases its lease) and collects their summaries.
 *
 *   const fleet = new HolderFleet(ledger, { url, token, ... }, random);
 *   fleet.startAll(16, 5, 5);
 *   await fleet.kill(fleet.pick());
 *   await fleet.stopAll();
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { JAVA_FLAGS } from "../lib/java-build";
import type { HolderLedger, HolderOutput } from "./holder-ledger";

const REPO = resolve(import.meta.dirname, "../..");
const HOUR_MS = 3_600_000;
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

export type HolderLanguage = "typescript" | "python" | "java";
const PREFIX: Record<HolderLanguage, string> = { typescript: "ts", python: "py", java: "java" };

/** What every holder command is given. */
export interface HolderSettings {
	url: string;
	token: string;
	/** IDs per call. */
	batch: number;
	/** A pause after each call (ms): holders leave the CPU to the service they renew with. */
	batchGapMs: number;
	/** A call's wait for a renewal at a span's end (ms). */
	maxWaitMs: number;
	/** How far a SIGUSR2 steps a holder's wall clock back (ms). */
	clockStepMs: number;
	/** A holder ends by itself after this long (ms), should this process die without stopping it. */
	lifetimeMs: number;
	/** The Java client's compiled classes (buildJava()), where Java holders run. */
	javaClasses?: string | undefined;
}

export interface FleetCounts {
	started: number;
	/** Holders SIGKILLed, SIGSTOPped, and clock steps sent. */
	kills: number;
	pauses: number;
	/** Paused holders whose worker ID was leased to another holder while they slept. */
	pausesTakenOver: number;
	clockSteps: number;
	/** Holders that exited without being told to (a crash of the holder itself). */
	unexpectedExits: number;
	/** Holders that did not end within the wait after SIGTERM (then SIGKILLed). */
	stuckAtEnd: number;
}

/** One holder process. */
export class HolderProcess {
	paused = false;
	/** It wrote something: it got past its start (its SIGUSR2 handler is in place). */
	writing = false;
	/** Set when this run signalled its end (SIGKILL or SIGTERM): an exit is then expected. */
	ending = false;
	readonly exited: Promise<void>;
	/** performance.now() at its spawn and at its exit (NaN while it runs). */
	readonly startedAt = performance.now();
	endedAt = Number.NaN;
	private stderr = "";

	constructor(
		readonly name: string,
		readonly language: HolderLanguage,
		readonly child: ChildProcess,
		readonly output: HolderOutput,
		readonly wallClockOffsetMs: number,
	) {
		child.stdout?.setEncoding("utf8");
		child.stdout?.on("data", (chunk: string) => {
			this.writing = true;
			output.write(chunk);
		});
		child.stderr?.setEncoding("utf8");
		child.stderr?.on("data", (chunk: string) => {
			this.stderr = (this.stderr + chunk).slice(-8_000);
		});
		this.exited = new Promise((done) =>
			child.on("close", () => {
				this.endedAt = performance.now();
				done();
			}),
		);
	}

	get alive(): boolean {
		return this.child.exitCode === null && this.child.signalCode === null;
	}

	signal(signal: NodeJS.Signals): void {
		if (this.alive) this.child.kill(signal);
	}

	/** The JSON summary it printed last on stderr (none when killed). */
	summary(): Record<string, unknown> | undefined {
		for (const line of this.stderr.trim().split("\n").reverse()) {
			try {
				return JSON.parse(line) as Record<string, unknown>;
			} catch {}
		}
		return undefined;
	}

	/** What it printed on stderr, for a report of an unexpected exit. */
	errors(): string {
		return this.stderr.trim();
	}
}

export class HolderFleet {
	readonly counts: FleetCounts = {
		started: 0,
		kills: 0,
		pauses: 0,
		pausesTakenOver: 0,
		clockSteps: 0,
		unexpectedExits: 0,
		stuckAtEnd: 0,
	};
	/** Every process started, in order (the ended ones too, for their summaries). */
	readonly processes: HolderProcess[] = [];
	/** The process running in each slot. */
	private readonly slots: HolderProcess[] = [];
	private stopping = false;
	private readonly startedAt = performance.now();
	readonly firstUnexpected: string[] = [];

	constructor(
		private readonly ledger: HolderLedger,
		private readonly settings: HolderSettings,
		private readonly random: () => number,
	) {}

	/** `count` slots: the first `python` of them run the Python holder, the next `java` the Java one. */
	startAll(count: number, python: number, java = 0): void {
		for (let slot = 0; slot < count; slot++) {
			const language = slot < python ? "python" : slot < python + java ? "java" : "typescript";
			this.slots[slot] = this.spawn(slot, language);
		}
	}

	/** A running holder that got past its start, not paused, picked at random; undefined when there is none. */
	pick(): HolderProcess | undefined {
		const running = this.slots.filter((holder) => holder.alive && holder.writing && !holder.paused);
		return running[Math.floor(this.random() * running.length)];
	}

	/** SIGKILL, then a new holder of the same language in its slot after up to a second. */
	async kill(holder: HolderProcess): Promise<void> {
		this.counts.kills++;
		holder.ending = true;
		holder.signal("SIGKILL");
		await holder.exited;
		await sleep(this.random() * 1_000);
		const slot = this.slots.indexOf(holder);
		if (!this.stopping && slot >= 0) this.slots[slot] = this.spawn(slot, holder.language);
	}

	/** SIGSTOP for `ms`, then SIGCONT (sooner when the run stops). */
	async pause(holder: HolderProcess, ms: number): Promise<void> {
		this.counts.pauses++;
		holder.paused = true;
		holder.signal("SIGSTOP");
		const { workerId } = holder.output;
		const leases = this.ledger.leasesOf(workerId);
		const until = performance.now() + ms;
		while (!this.stopping && performance.now() < until) await sleep(Math.min(100, ms));
		if (this.ledger.leasesOf(workerId) > leases) this.counts.pausesTakenOver++;
		holder.signal("SIGCONT");
		holder.paused = false;
	}

	/** SIGUSR2: the holder steps its wall clock back by `clockStepMs`. */
	stepClock(holder: HolderProcess): void {
		this.counts.clockSteps++;
		holder.signal("SIGUSR2");
	}

	/** SIGTERMs every holder (each releases its lease), SIGKILLs those still running after `waitMs`. */
	async stopAll(waitMs = 20_000): Promise<void> {
		this.stopping = true;
		const running = this.slots.filter((holder) => holder.alive);
		for (const holder of running) {
			holder.ending = true;
			holder.signal("SIGCONT");
			holder.signal("SIGTERM");
		}
		const deadline = performance.now() + waitMs;
		while (running.some((holder) => holder.alive) && performance.now() < deadline) await sleep(100);
		for (const holder of running.filter((h) => h.alive)) {
			this.counts.stuckAtEnd++;
			holder.signal("SIGKILL");
		}
		await Promise.all(this.processes.map((holder) => holder.exited));
	}

	/** SIGKILLs every holder at once (the run could not go on). */
	killAll(): void {
		this.stopping = true;
		for (const holder of this.processes) holder.signal("SIGKILL");
	}

	private spawn(slot: number, language: HolderLanguage): HolderProcess {
		const { url, token, batch, batchGapMs, maxWaitMs, clockStepMs, lifetimeMs } = this.settings;
		const name = `${PREFIX[language]}-${slot}.${this.processes.length}`;
		// An hour ahead or behind, and a minute either way on top.
		const offsetMs = Math.round(
			(this.random() < 0.5 ? -HOUR_MS : HOUR_MS) + (this.random() - 0.5) * 120_000,
		);
		const flags = [
			"--url",
			url,
			"--token",
			token,
			"--holder",
			name,
			"--out",
			"-",
			"--batch",
			String(batch),
			"--batch-gap-ms",
			String(batchGapMs),
			// `=`: a negative offset would read as a flag.
			`--wall-clock-offset=${offsetMs}`,
			`--wall-clock-step=${clockStepMs}`,
			"--seconds",
			String(Math.max(1, (lifetimeMs - (performance.now() - this.startedAt)) / 1_000)),
		];
		const java = ["-cp", this.settings.javaClasses ?? "", "dev.edgeids.HolderCommand"];
		const child =
			language === "java"
				? spawn("java", [...JAVA_FLAGS, ...java, ...flags, "--max-wait", String(maxWaitMs)], {
						stdio: ["ignore", "pipe", "pipe"],
					})
				: language === "python"
					? spawn(
							"python3",
							[
								"-B", // no __pycache__ written beside the example
								join(REPO, "examples/python-holder/holder.py"),
								...flags,
								"--max-wait",
								String(maxWaitMs / 1_000),
							],
							{ stdio: ["ignore", "pipe", "pipe"] },
						)
					: spawn(
							process.execPath,
							[
								"--import",
								"tsx",
								join(REPO, "scripts/load/lease-holder.ts"),
								...flags,
								"--max-wait",
								String(maxWaitMs),
							],
							{ cwd: REPO, stdio: ["ignore", "pipe", "pipe"] },
						);
		const holder = new HolderProcess(name, language, child, this.ledger.open(name), offsetMs);
		this.counts.started++;
		this.processes.push(holder);
		child.on("close", () => {
			holder.output.end(holder.ending);
			if (holder.ending) return;
			this.counts.unexpectedExits++;
			if (this.firstUnexpected.length < 5) {
				this.firstUnexpected.push(
					`${name} exited (${child.exitCode ?? child.signalCode}): ${holder.errors().slice(-500)}`,
				);
			}
			if (!this.stopping && this.slots[slot] === holder)
				this.slots[slot] = this.spawn(slot, language);
		});
		return holder;
	}
}
