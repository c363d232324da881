/**
 * The Java client's leased generator (examples/java, dev.edgeids.LeasedSnowflakeGenerator)
 * under the same stress as the Python holder (python-holder.test.ts), run by
 * dev.edgeids.HolderDriver (the Java test tree) against the scripted stand-in for
 * the service (fake-lease-service.ts) on the real clock with spans of 1–1.5 s:
 * renewals a third of a span after each grant, the lease ID only in bodies, hung
 * renewals abandoned at a tenth of the span, a stepped service clock, Retry-After,
 * malformed answers and a failing listener on the renewal thread, calls waiting at
 * a span's end, and no thread left after close(). A JVM does not fork: the Python
 * holder's fork cases have no Java counterpart.
 *
 * Compiled by scripts/lib/java-build.ts (cached by source hash); without javac 17+
 * the file skips, saying why.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { buildJava, JAVA_FLAGS, javaMissing } from "../../scripts/lib/java-build";
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
	outageOfTwoThirds,
	type Run,
	refusedTwice,
	routes,
	runHolderProcess,
} from "./holder-runs";

const missing = javaMissing();
let classes = "";

/** Runs the driver in `config` against a fake service scripted by `script`; resolves when it exits. */
function runHolder(script: FakeLeaseScript, config: Record<string, unknown>): Promise<Run> {
	return runHolderProcess(script, "java", (url) => [
		...JAVA_FLAGS,
		"-cp",
		classes,
		"dev.edgeids.HolderDriver",
		JSON.stringify({ url, ...config }),
	]);
}

describe.skipIf(missing)("the Java holder's life on a 1.5 s span", { timeout: 20_000 }, () => {
	let life: Run;
	beforeAll(async () => {
		classes = buildJava();
		life = await runHolder({ spanMs: 1500 }, { seconds: 1.25 });
	}, 60_000);

	it("renews a third of a span after each grant, never right after the acquire", () => {
		expectRenewalPace(life);
	});

	it("sends the lease ID in JSON bodies only, and leaves no thread behind after close()", () => {
		expectLeaseIdInBodiesOnly(life);
		expect(life.stats.threads).toBe(0);
		expect(life.stats.releases).toBe(1);
	});
});

// One JVM at a time: unlike the Python drivers, which mostly sleep, JVMs starting together
// compete for the cores while their JIT compilers run, which the timings would feel.
describe.skipIf(missing)("the Java holder under stress", { timeout: 30_000 }, () => {
	beforeAll(() => {
		classes = buildJava();
	}, 60_000);

	it("abandons hung renewals at a tenth of the span and retries at once: three in a row cost no call", async () => {
		const run = await runHolder(
			{ spanMs: 1500, renew: (n) => (n < 3 ? "hang" : "grant") },
			{ seconds: 1.7 },
		);
		expectHungRenewalsAbandoned(run);
	});

	it("rides out an outage of two thirds of the span from just after a renewal", async () => {
		const run = await runHolder({ spanMs: 1500, renew: outageOfTwoThirds(1500) }, { seconds: 2.1 });
		expect(failed(run.calls)).toEqual([]);
		expect(run.stats.renewals_failed).toBeGreaterThanOrEqual(3);
		expectIncreasing(run.calls);
	});

	it("re-anchors when the service's clock steps a span ahead and back, issuing again at its old last tick", async () => {
		const run = await runHolder(
			{ spanMs: 1000, renew: (n) => (n === 0 ? { stepMs: 2500 } : "grant") },
			{ seconds: 4.4 },
		);
		expectReanchored(run, 2);
	});

	it("waits a refused acquire's Retry-After: calls meanwhile fail at once and send nothing", async () => {
		const run = await runHolder(
			{ spanMs: 1500, acquire: refusedTwice },
			{ seconds: 2.4, interval: 0.05, maxWait: 2 },
		);
		// The first call sent the first acquire (and started the JVM's HTTP client); the others sent nothing.
		expect(run.calls[0]?.code).toBe("no_free_worker_id");
		expectRetryAfterKept(run, failed(run.calls.slice(1)));
	});

	it("survives an empty 200 and a listener's exception on its renewal thread, each a failed renewal", async () => {
		const run = await runHolder(
			{ spanMs: 1500, renew: (n) => (n === 0 ? "empty" : "grant") },
			{ seconds: 2, grantThrowsOnce: true },
		);
		expect(failed(run.calls)).toEqual([]);
		expect(run.stats.renewals_failed).toBe(2);
		expect(routes(run, "renew").length).toBeGreaterThanOrEqual(4);
		expectIncreasing(run.calls);
	});

	it("settles every call waiting at the span's end within maxWait, with lease_expired", async () => {
		const run = await runHolder(
			{ spanMs: 1000, renew: () => "hang" },
			{ seconds: 1.6, threads: 4, maxWait: 0.2 },
		);
		// 200 ms of slack, not the Python run's 100: four calling threads, the renewal thread and
		// the JIT's on 2 shared cores; a full suite beside it once took a call to 335 ms.
		expectExpiredWithinWait(run, 200);
		expect(run.stats.threads).toBe(0);
	});
});

if (missing) describe.skip(missing, () => it("runs the Java holder", () => {}));
