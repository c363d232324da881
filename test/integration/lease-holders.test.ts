/**
 * Lease holders in two languages as processes (the Python holder and the
 * TypeScript one) against the real bundle in Miniflare lending four worker IDs,
 * with short spans: one frozen past its span and grace so that another takes its
 * worker ID, one forking a child with a copy of its lease, their wall clocks an
 * hour off either way. Every ID they issue, checked in one ledger, lies in a span
 * its process was granted, each process's IDs increase, and none repeats.
 */
import type { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHolders } from "./lease-holders";
import { SHORT_GRACE_MS, SHORT_LEASES, SHORT_SPAN_MS, startServiceAndConsumer } from "./setup";

const TOKEN = "holders-secret";
let mf: Miniflare;
let url: string;

beforeAll(async () => {
	const started = await startServiceAndConsumer({ apiToken: TOKEN, vars: SHORT_LEASES });
	mf = started.mf;
	url = started.url.origin;
}, 120_000);
afterAll(() => mf?.dispose());

describe("lease holders in Python and TypeScript, as processes, against the service", () => {
	it("issue only in their spans, in order, never an ID twice; a frozen one loses its worker ID to another", async () => {
		const { codes, ledger, summaries, childGrants } = await runHolders(
			url,
			TOKEN,
			SHORT_SPAN_MS,
			SHORT_GRACE_MS,
		);
		expect(codes).toEqual([0, 0, 0, 0]);
		expect(ledger.report.firstViolations).toEqual([]);
		expect(ledger.clean()).toBe(true);
		expect(ledger.report.ids).toBeGreaterThan(1_000_000);
		expect(ledger.report.processes).toBe(5);
		// Four holders and a forked child over four worker IDs, one taken over.
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
