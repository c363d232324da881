/**
 * CPU time of a child process (every thread of it), from Linux's /proc schedstat in
 * nanoseconds: what a request cost workerd whether or not the machine was busy, where
 * the wall time also holds the time other processes had the cores.
 *
 *   const workerd = childPid("workerd");
 *   const before = cpuMs(workerd);
 *   await fetch(url);
 *   const spent = cpuMs(workerd) - before;
 */
import { readdirSync, readFileSync } from "node:fs";

/** The pid of this process's newest child named `name` (as /proc/<pid>/stat has it). */
export function childPid(name: string): number {
	let newest: number | undefined;
	for (const entry of readdirSync("/proc")) {
		if (!/^[0-9]+$/.test(entry)) continue;
		let stat: string;
		try {
			stat = readFileSync(`/proc/${entry}/stat`, "utf8");
		} catch {
			continue; // gone meanwhile
		}
		const fields = /^[0-9]+ \((.*)\) \S ([0-9]+)/.exec(stat);
		if (fields?.[1] === name && Number(fields[2]) === process.pid) {
			newest = Math.max(newest ?? 0, Number(entry));
		}
	}
	if (newest === undefined) throw new Error(`no child process named ${name}`);
	return newest;
}

/** The CPU time all threads of `pid` have run, in ms. */
export function cpuMs(pid: number): number {
	let ns = 0;
	for (const thread of readdirSync(`/proc/${pid}/task`)) {
		try {
			ns += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, "utf8").split(" ")[0]);
		} catch {
			// A thread that ended meanwhile: its time is no longer counted anywhere.
		}
	}
	return ns / 1e6;
}

/**
 * Waits until `pid` is idle: less than `busyMs` of CPU in each of two `windowMs`
 * windows in a row (at most `maxMs` in all), so a measurement does not start in the
 * tail of its start-up.
 */
export async function settled(
	pid: number,
	windowMs = 50,
	busyMs = 1,
	maxMs = 3_000,
): Promise<void> {
	const until = performance.now() + maxMs;
	let quiet = 0;
	let last = cpuMs(pid);
	while (quiet < 2 && performance.now() < until) {
		await new Promise((resolve) => setTimeout(resolve, windowMs));
		const now = cpuMs(pid);
		quiet = now - last < busyMs ? quiet + 1 : 0;
		last = now;
	}
}
