/**
 * What a lease holder reads from the service's answers (src/ids/lease-source.ts): a
 * failure's code however the transport carried it, and a grant checked field by field.
 */
import { describe, expect, it } from "vitest";
import { IdError } from "../../src/ids/errors";
import { checkedGrant, failureCode } from "../../src/ids/lease-source";
import { grant } from "./lease-script";

const good = grant({ from: 1_000, to: 31_000, serverNowMs: 1_000 });

describe("failureCode", () => {
	it("reads an error's code, else the code its message starts with (an RPC rejection)", () => {
		expect(failureCode(new IdError("clock_regression", "back"))).toBe("clock_regression");
		expect(failureCode({ code: "unavailable" })).toBe("unavailable");
		expect(failureCode(new Error("lease_lost: this lease was released"))).toBe("lease_lost");
		// Only at the start, only lowercase words with underscores, then ": ".
		expect(failureCode(new Error("the service said lease_lost: gone"))).toBeUndefined();
		expect(failureCode(new Error("Lease_lost: gone"))).toBeUndefined();
		expect(failureCode(new Error("network down"))).toBeUndefined();
		expect(failureCode(Object.assign(new Error("lease_lost: x"), { code: 7 }))).toBe("lease_lost");
		for (const nothing of [null, undefined, "lease_lost: text", 42]) {
			expect(failureCode(nothing)).toBeUndefined();
		}
	});
});

describe("checkedGrant", () => {
	it("passes the service's answer through, with its layout", () => {
		const { grant: checked, layout } = checkedGrant(good);
		expect(checked).toBe(good);
		expect(layout.maxWorkerId).toBe(1_023);
		// The layout's ends are grants too: worker IDs 0 and 1,023.
		for (const workerId of [0, 1_023]) {
			expect(checkedGrant({ ...good, workerId }).grant.workerId).toBe(workerId);
		}
	});

	it.each([
		["workerId", -1],
		["workerId", 1.5],
		["workerId", 1_024],
		["leaseId", ""],
		["leaseId", 7],
		["from", -1],
		["from", 0.5],
		["to", 1_000],
		["serverNowMs", Number.POSITIVE_INFINITY],
	])("refuses a %s of %s (internal), naming the field and the value", (field, value) => {
		expect(() => checkedGrant({ ...good, [field]: value })).toThrow(
			expect.objectContaining({
				code: "internal",
				detail: expect.stringMatching(new RegExp(`^a lease answer's ${field} is `)),
			}),
		);
	});
});
