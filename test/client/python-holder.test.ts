/**
 * The Python lease holder (examples/python-holder/edge_ids_leases.py) under stress,
 * run by python-holder-driver.py against a scripted stand-in for the service
 * (fake-lease-service.ts) on the real clock with spans of 1–1.5 s:
 *
 *     const { calls, requests } = await runHolder({ spanMs: 1500, renew: () => "hang" }, { mode: "issue", seconds: 2 });
 *
 * renewals a third of a span after each grant and never right after an acquire,
 * the lease ID only in bodies, hung renewals abandoned at a tenth of the span, a
 * stepped service clock, Retry-After, copies made by fork, malformed answers and
 * failing callbacks in the renewal thread, and calls waiting at a span's end.
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { FakeLeaseScript } from "./fake-lease-service";
import {
	expectExpiredWithinWait,
	expectHungRenewalsAbandoned,
	expectIncreasing,
	expectLeaseIdInBodiesOnly,
	expectReanchored,
	expectRenewalPace,
	expectRetryAfterKept,
	failed,
	gaps,
	outageOfTwoThirds,
	type Run,
	refusedTwice,
	routes,
	runHolderProcess,
} from "./holder-runs";

const DRIVER = resolve(__dirname, "python-holder-driver.py");
const MODULE_DIR = resolve(__dirname, "../../examples/python-holder");

if (spawnSync("python3", ["--version"]).status !== 0) {
	throw new Error(
		"npm test runs the example Python lease holder: install Python 3.8 or later (python3 on PATH)",
	);
}

/** Runs the driver in `config` against a fake service scripted by `script`; resolves when it exits. */
function runHolder(script: FakeLeaseScript, config: Record<string, unknown>): Promise<Run> {
	// -W: Python 3.12+ warns about fork() in a process with threads, which the fork tests do on purpose
	return runHolderProcess(script, "python3", (url) => [
		"-B",
		"-W",
		"ignore::DeprecationWarning",
		DRIVER,
		MODULE_DIR,
		JSON.stringify({ url, ...config }),
	]);
}

describe("the Python holder's life on a 1.5 s span", { timeout: 10_000 }, () => {
	let life: Run;
	beforeAll(async () => {
		life = await runHolder({ spanMs: 1500 }, { mode: "issue", seconds: 1.25 });
	}, 10_000);

	it("renews a third of a span after each grant, never right after the acquire", () => {
		expectRenewalPace(life);
	});

	it("sends the lease ID in JSON bodies only: POST …/renew and POST …/release", () => {
		expectLeaseIdInBodiesOnly(life);
	});
});

// Concurrent: each run mostly sleeps, and the file stays within a few seconds.
describe.concurrent("the Python holder under stress", { timeout: 15_000 }, () => {
	it("abandons hung renewals at a tenth of the span and retries at once: three in a row cost no call", async () => {
		const run = await runHolder(
			{ spanMs: 1500, renew: (n) => (n < 3 ? "hang" : "grant") },
			{ mode: "issue", seconds: 1.7 },
		);
		expectHungRenewalsAbandoned(run);
	});

	it("rides out an outage of two thirds of the span from just after a renewal", async () => {
		const run = await runHolder(
			{ spanMs: 1500, renew: outageOfTwoThirds(1500) },
			{ mode: "issue", seconds: 2.1 },
		);
		expect(failed(run.calls)).toEqual([]);
		expect(run.stats.renewals_failed).toBeGreaterThanOrEqual(3);
		expectIncreasing(run.calls);
	});

	it("re-anchors when the service's clock steps a span ahead and back, issuing again at its old last tick", async () => {
		// The second answer reads 2.5 spans ahead; every later one is on time again.
		const run = await runHolder(
			{ spanMs: 1000, renew: (n) => (n === 0 ? { stepMs: 2500 } : "grant") },
			{ mode: "issue", seconds: 4.4 },
		);
		expectReanchored(run, 1);
	});

	it("waits a refused acquire's Retry-After: calls meanwhile fail at once and send nothing", async () => {
		const run = await runHolder(
			{ spanMs: 1500, acquire: refusedTwice },
			// max_wait 2 s: a refusal must not wait it out
			{ mode: "issue", seconds: 2.4, interval: 0.05, maxWait: 2 },
		);
		expectRetryAfterKept(run, failed(run.calls));
	});

	it.each(["os", "libc"])(
		"a copy made by %s fork never renews nor releases the original's lease; it acquires its own",
		async (fork) => {
			const run = await runHolder(
				{ spanMs: 1500 },
				// max_wait 2 s: the copy's span starts where the original's ends, up to a span ahead
				{ mode: "fork", fork, seconds: 0.6, issue: true, maxWait: 2 },
			);
			const [original, own] = run.leaseIds;
			expect(run.leaseIds).toHaveLength(2);
			expect(run.requests.filter((request) => request.leaseId === original)).toEqual([]);
			expect(routes(run, "release").map((request) => request.leaseId)).toEqual([own]);
			expect(run.calls).toHaveLength(1);
			expect(run.calls[0]?.ids).toHaveLength(1);
		},
	);

	it("survives an empty 200 and a callback's exception in its renewal thread, each a failed renewal", async () => {
		const run = await runHolder(
			{ spanMs: 1500, renew: (n) => (n === 0 ? "empty" : "grant") },
			{ mode: "issue", seconds: 2, grantRaisesOnce: "RuntimeError" },
		);
		expect(failed(run.calls)).toEqual([]);
		expect(run.stats.renewals_failed).toBe(2);
		expect(routes(run, "renew").length).toBeGreaterThanOrEqual(4);
		expectIncreasing(run.calls);
	});

	it("runs its renewal thread again at the span's end if it ended anyway (SystemExit)", async () => {
		const run = await runHolder(
			{ spanMs: 1500 },
			{ mode: "issue", seconds: 2.6, grantRaisesOnce: "SystemExit", maxWait: 0.3 },
		);
		expect(failed(run.calls)).toEqual([]);
		// the first renewal's callback ended the thread; the next renewal comes at the span's end
		const [, second] = gaps(
			[...routes(run, "acquire"), ...routes(run, "renew")].map((request) => request.t),
		);
		expect(second).toBeGreaterThan(900);
		expect(routes(run, "renew").length).toBeGreaterThanOrEqual(3);
		expectIncreasing(run.calls);
	});

	it("settles every call waiting at the span's end within max_wait, with lease_expired", async () => {
		const run = await runHolder(
			{ spanMs: 1000, renew: () => "hang" },
			{ mode: "issue", seconds: 1.6, threads: 4, maxWait: 0.2 },
		);
		expectExpiredWithinWait(run);
	});
});
