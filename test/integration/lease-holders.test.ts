/**
 * Lease holders in two languages as processes (the Python holder and the
 * TypeScript one), one frozen past its span and grace so that another takes its
 * worker ID, one forking a child with a copy of its lease: every ID they issue,
 * checked in one ledger, lies in a span its process was granted, each process's
 * IDs increase, and none repeats.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHolders } from "./lease-holders";
import { startLeaseStandIn } from "./lease-stand-in";

const SPAN_MS = 1_500;
const GRACE_MS = 200;
let service: Awaited<ReturnType<typeof startLeaseStandIn>>;

beforeAll(async () => {
	service = await startLeaseStandIn([900, 901, 902, 903], SPAN_MS, GRACE_MS);
});
afterAll(() => service?.stop());

describe("lease holders in Python and TypeScript, as processes", () => {
	it("issue only in their spans, in order, never an ID twice; a frozen one loses its worker ID to another", async () => {
		const { codes, ledger, summaries, childGrants } = await runHolders(
			service.url,
			"token",
			SPAN_MS,
			GRACE_MS,
		);
		expect(codes).toEqual([0, 0, 0, 0]);
		expect(ledger.report.firstViolations).toEqual([]);
		expect(ledger.clean()).toBe(true);
		expect(ledger.report.ids).toBeGreaterThan(1_000_000);
		expect(ledger.report.processes).toBe(5);
		// Four holders and a forked child over four worker IDs, one taken over.
		expect(ledger.report.leases).toBeGreaterThanOrEqual(5);
		expect(summaries["py-frozen"]).toMatchObject({ leases_lost: 1 });
		// The child acquired a lease of its own: its first grant is none of its parent's.
		expect(childGrants.length).toBeGreaterThan(0);
	}, 60_000);
});
