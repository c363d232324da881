/**
 * Run by client-leases.test.ts in its own Node process: a leased generator that is
 * never closed must not keep the process alive (its renewal timer is unref'd).
 */
import { createLeasedGenerator } from "../../src/client";
import { grantNow } from "../shared/lease-grants";

const ids = await createLeasedGenerator({
	source: {
		acquireLease: async () => grantNow(900, "never-closed"),
		renewLease: async ({ workerId, leaseId }) => grantNow(workerId, leaseId),
		releaseLease: async () => {},
	},
});
console.log(`${(await ids.next(3)).length} issued`);
