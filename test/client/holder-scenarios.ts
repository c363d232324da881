/**
 * The stress scenarios every lease-holder language runs (java-holder.test.ts,
 * python-holder.test.ts): each one's script for the fake service, the driver's
 * config and the checks on the run. A language says how to run its driver and
 * where it differs (its words for a failing callback, its scheduling slack); its
 * file calls `stressScenarios` inside a describe, which decides whether they run
 * one at a time or concurrently:
 *
 *     describe.concurrent("the Python holder under stress", () => stressScenarios(python));
 */
import { expect, it } from "vitest";
import type { FakeLeaseScript } from "./fake-lease-service";
import {
	expectExpiredWithinWait,
	expectHungRenewalsAbandoned,
	expectIncreasing,
	expectReanchored,
	expectRetryAfterKept,
	failed,
	outageOfTwoThirds,
	type Run,
	refusedTwice,
	routes,
} from "./holder-runs";

/** How one language's driver runs, and where its holder is held to a different figure. */
export interface HolderLanguage {
	/** Runs the driver with `config` against a fake service scripted by `script`; resolves when it exits. */
	run(script: FakeLeaseScript, config: Record<string, unknown>): Promise<Run>;
	/** The driver's config that makes the holder's callback fail once on its renewal thread. */
	callbackFailsOnce: Record<string, unknown>;
	/** Whether the first call sends the acquire (a lazily started client) rather than the constructor. */
	firstCallAcquires: boolean;
	/** Renewals beyond three a second that re-anchoring on a stepped clock may cost. */
	reanchorRenewals: number;
	/** Scheduling slack over the 200 ms wait for calls at a span's end (see expectExpiredWithinWait). */
	spanEndSlackMs: number;
	/** Whether the driver's stats count threads left after close() (then none may be). */
	countsThreads: boolean;
}

interface Scenario {
	title: string;
	script: FakeLeaseScript;
	config: Record<string, unknown>;
	/** Whether the language's failing callback joins the config. */
	callbackFailsOnce?: true;
	expect(run: Run, language: HolderLanguage): void;
}

const SCENARIOS: Scenario[] = [
	{
		title:
			"abandons hung renewals at a tenth of the span and retries at once: three in a row cost no call",
		script: { spanMs: 1500, renew: (n) => (n < 3 ? "hang" : "grant") },
		config: { seconds: 1.7 },
		expect: expectHungRenewalsAbandoned,
	},
	{
		title: "rides out an outage of two thirds of the span from just after a renewal",
		script: { spanMs: 1500, renew: outageOfTwoThirds(1500) },
		config: { seconds: 2.1 },
		expect(run) {
			expect(failed(run.calls)).toEqual([]);
			expect(run.stats.renewals_failed).toBeGreaterThanOrEqual(3);
			expectIncreasing(run.calls);
		},
	},
	{
		title:
			"re-anchors when the service's clock steps a span ahead and back, issuing again at its old last tick",
		// The second answer reads 2.5 spans ahead; every later one is on time again.
		script: { spanMs: 1000, renew: (n) => (n === 0 ? { stepMs: 2500 } : "grant") },
		config: { seconds: 4.4 },
		expect: (run, language) => expectReanchored(run, language.reanchorRenewals),
	},
	{
		title: "waits a refused acquire's Retry-After: calls meanwhile fail at once and send nothing",
		script: { spanMs: 1500, acquire: refusedTwice },
		// maxWait 2 s: a refusal must not wait it out
		config: { seconds: 2.4, interval: 0.05, maxWait: 2 },
		expect(run, language) {
			if (!language.firstCallAcquires) return expectRetryAfterKept(run, failed(run.calls));
			// The first call sent the first acquire; the others sent nothing.
			expect(run.calls[0]?.code).toBe("no_free_worker_id");
			expectRetryAfterKept(run, failed(run.calls.slice(1)));
		},
	},
	{
		title:
			"survives an empty 200 and a callback's exception on its renewal thread, each a failed renewal",
		script: { spanMs: 1500, renew: (n) => (n === 0 ? "empty" : "grant") },
		config: { seconds: 2 },
		callbackFailsOnce: true,
		expect(run) {
			expect(failed(run.calls)).toEqual([]);
			expect(run.stats.renewals_failed).toBe(2);
			expect(routes(run, "renew").length).toBeGreaterThanOrEqual(4);
			expectIncreasing(run.calls);
		},
	},
	{
		title:
			"settles every call waiting at the span's end within its maximum wait, with lease_expired",
		script: { spanMs: 1000, renew: () => "hang" },
		config: { seconds: 1.6, threads: 4, maxWait: 0.2 },
		expect(run, language) {
			expectExpiredWithinWait(run, language.spanEndSlackMs);
			if (language.countsThreads) expect(run.stats.threads).toBe(0);
		},
	},
];

/** Declares one test per scenario, for `language`, in the describe around the call. */
export function stressScenarios(language: HolderLanguage) {
	for (const scenario of SCENARIOS) {
		it(scenario.title, async () => {
			const failing = scenario.callbackFailsOnce ? language.callbackFailsOnce : {};
			const run = await language.run(scenario.script, { ...scenario.config, ...failing });
			scenario.expect(run, language);
		});
	}
}
