/**
 * The Java client's leased generator (examples/java, dev.edgeids.LeasedSnowflakeGenerator)
 * under the same stress as the Python holder (python-holder.test.ts), run by
 * dev.edgeids.HolderDriver (the Java test tree) against the scripted stand-in for
 * the service (fake-lease-service.ts) on the real clock with spans of 1–1.5 s:
 * renewals a third of a span after each grant, the lease ID only in bodies, hung
 * renewals abandoned at a tenth of the span, a stepped service clock, Retry-After,
 * malformed answers and a failing listener on the renewal thread, calls waiting at
 * a span's end, and no thread left after close(). A JVM does not fork: the Python
 * holder's fork cases have no Java counterpart. The stress scenarios are the ones
 * every holder language runs (holder-scenarios.ts).
 *
 * Compiled by scripts/lib/java-build.ts (cached by source hash); without javac 17+
 * the file skips, saying why.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { buildJava, JAVA_FLAGS, javaMissing } from "../../scripts/lib/java-build";
import {
	expectLeaseIdInBodiesOnly,
	expectRenewalPace,
	type Run,
	runHolderProcess,
} from "./holder-runs";
import { type HolderLanguage, stressScenarios } from "./holder-scenarios";

const missing = javaMissing();
let classes = "";

const java: HolderLanguage = {
	run: (script, config) =>
		runHolderProcess(script, "java", (url) => [
			...JAVA_FLAGS,
			"-cp",
			classes,
			"dev.edgeids.HolderDriver",
			JSON.stringify({ url, ...config }),
		]),
	callbackFailsOnce: { grantThrowsOnce: true },
	// the first call starts the JVM's HTTP client and sends the acquire
	firstCallAcquires: true,
	reanchorRenewals: 2,
	// not the Python run's 100: four calling threads, the renewal thread and the JIT's on
	// 2 shared cores; a full suite beside it once took a call to 335 ms.
	spanEndSlackMs: 200,
	countsThreads: true,
};

describe.skipIf(missing)(
	`the Java holder's life on a 1.5 s span${missing ? ` (skipped: ${missing})` : ""}`,
	{ timeout: 20_000 },
	() => {
		let life: Run;
		beforeAll(async () => {
			classes = buildJava();
			life = await java.run({ spanMs: 1500 }, { seconds: 1.25 });
		}, 60_000);

		it("renews a third of a span after each grant, never right after the acquire", () => {
			expectRenewalPace(life);
		});

		it("sends the lease ID in JSON bodies only, and leaves no thread behind after close()", () => {
			expectLeaseIdInBodiesOnly(life);
			expect(life.stats.threads).toBe(0);
			expect(life.stats.releases).toBe(1);
		});
	},
);

// One JVM at a time: unlike the Python drivers, which mostly sleep, JVMs starting together
// compete for the cores while their JIT compilers run, which the timings would feel.
describe.skipIf(missing)("the Java holder under stress", { timeout: 30_000 }, () => {
	beforeAll(() => {
		classes = buildJava();
	}, 60_000);

	stressScenarios(java);
});
