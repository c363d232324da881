/**
 * The Python lease holder (examples/python-holder/edge_ids_leases.py) under stress,
 * run by python-holder-driver.py against a scripted stand-in for the service
 * (fake-lease-service.ts) on the real clock with spans of 1–1.5 s:
 *
 *     const { calls, requests } = await python.run({ spanMs: 1500, renew: () => "hang" }, { seconds: 2 });
 *
 * renewals a third of a span after each grant and never right after an acquire,
 * the lease ID only in bodies, hung renewals abandoned at a tenth of the span, a
 * stepped service clock, Retry-After, copies made by fork, malformed answers and
 * failing callbacks in the renewal thread, and calls waiting at a span's end. The
 * scenarios every holder language runs are in holder-scenarios.ts; fork and a
 * renewal thread ended by SystemExit are Python's own.
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
	expectIncreasing,
	expectLeaseIdInBodiesOnly,
	expectRenewalPace,
	failed,
	gaps,
	type Run,
	routes,
	runHolderProcess,
} from "./holder-runs";
import { type HolderLanguage, stressScenarios } from "./holder-scenarios";

const DRIVER = resolve(__dirname, "python-holder-driver.py");
const MODULE_DIR = resolve(__dirname, "../../examples/python-holder");

if (spawnSync("python3", ["--version"]).status !== 0) {
	throw new Error(
		"npm test runs the example Python lease holder: install Python 3.8 or later (python3 on PATH)",
	);
}

const python: HolderLanguage = {
	// -W: Python 3.12+ warns about fork() in a process with threads, which the fork tests do on purpose
	run: (script, config) =>
		runHolderProcess(script, "python3", (url) => [
			"-B",
			"-W",
			"ignore::DeprecationWarning",
			DRIVER,
			MODULE_DIR,
			JSON.stringify({ url, mode: "issue", ...config }),
		]),
	callbackFailsOnce: { grantRaisesOnce: "RuntimeError" },
	firstCallAcquires: false,
	reanchorRenewals: 1,
	spanEndSlackMs: 100,
	countsThreads: false,
};

describe("the Python holder's life on a 1.5 s span", { timeout: 10_000 }, () => {
	let life: Run;
	beforeAll(async () => {
		life = await python.run({ spanMs: 1500 }, { seconds: 1.25 });
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
	stressScenarios(python);

	it.each(["os", "libc"])(
		"a copy made by %s fork never renews nor releases the original's lease; it acquires its own",
		async (fork) => {
			const run = await python.run(
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

	it("runs its renewal thread again at the span's end if it ended anyway (SystemExit)", async () => {
		const run = await python.run(
			{ spanMs: 1500 },
			{ seconds: 2.6, grantRaisesOnce: "SystemExit", maxWait: 0.3 },
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
});
