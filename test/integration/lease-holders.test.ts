/**
 * Lease holders in three languages as processes (the Python holder, the TypeScript
 * one and the Java client's; without javac 17+ the Java one is left out) against the
 * real bundle in Miniflare lending four worker IDs (five with the Java holder),
 * with short spans: one frozen past its span and grace so that another takes its
 * worker ID, one forking a child with a copy of its lease, their wall clocks an
 * hour off either way. Every ID they issue, checked in one ledger, lies in a span
 * its process was granted, each process's IDs increase, and none repeats.
 */
import type { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { javaMissing } from "../../scripts/lib/java-build";
import { runHolders } from "./lease-holders";
import { SHORT_GRACE_MS, SHORT_LEASES, SHORT_SPAN_MS, startServiceAndConsumer } from "./setup";

const withJava = javaMissing() === undefined;

const TOKEN = "holders-secret";
let mf: Miniflare;
let url: string;

beforeAll(async () => {
	const vars = { ...SHORT_LEASES, LEASE_WORKER_IDS: withJava ? "900-904" : "900-903" };
	const started = await startServiceAndConsumer({ apiToken: TOKEN, vars });
	mf = started.mf;
	url = started.url.origin;
}, 120_000);
afterAll(() => mf?.dispose());

describe(`lease holders in Python, TypeScript${withJava ? " and Java" : ""}, as processes, against the service`, () => {
	it("issue only in their spans, in order, never an ID twice; a frozen one loses its worker ID to another", async () => {
		const { codes, ledger, summaries, childGrants } = await runHolders(
			url,
			TOKEN,
			SHORT_SPAN_MS,
			SHORT_GRACE_MS,
			withJava,
		);
		expect(codes).toEqual(withJava ? [0, 0, 0, 0, 0] : [0, 0, 0, 0]);
		expect(ledger.report.firstViolations).toEqual([]);
		expect(ledger.clean()).toBe(true);
		expect(ledger.report.ids).toBeGreaterThan(1_000_000);
		expect(ledger.report.processes).toBe(withJava ? 6 : 5);
		if (withJava)
			expect(summaries.java).toMatchObject({ acquires: 1, releases: 1, leases_lost: 0 });
		// Four holders (five with Java) and a forked child over four (five) worker IDs, one taken over.
		expect(ledger.report.leases).toBeGreaterThanOrEqual(5);
		expect(ledger.report.reLeases).toBeGreaterThanOrEqual(1);
		expect(summaries["py-frozen"]).toMatchObject({ leases_lost: 1 });
		// The child acquired a lease of its own: its first grant is none of its parent's.
		expect(childGrants.length).toBeGreaterThan(0);
		// Their wall clocks ran an hour off, and made no difference: every ID is in its span.
		expect(ledger.report.wallClockMinMs).toBeLessThan(-3_500_000);
		expect(ledger.report.wallClockMaxMs).toBeGreaterThan(3_500_000);
	}, 60_000);
});
