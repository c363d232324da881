/**
 * What a lease holder reads from the service's answers (src/ids/leases/holder/lease-source.ts): a
 * failure's code however the transport carried it, and a grant checked field by field.
 */
import { describe, expect, it } from "vitest";
import { IdError } from "../../src/ids/errors";
import {
	checkedGrant,
	failureCode,
	failureRetryAfter,
	layoutChanged,
	leaseExpired,
	spanAhead,
} from "../../src/ids/leases/holder/lease-source";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";
import { grant } from "./lease-script";

const good = grant({ from: 1_000, to: 31_000, serverNowMs: 1_000 });
const layout = new SnowflakeLayout(good.layout);

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

describe("failureRetryAfter", () => {
	it("reads the HTTP client's retryAfter, the core's retryAfterSeconds, else an RPC message's tail", () => {
		expect(failureRetryAfter({ retryAfter: 3 })).toBe(3);
		expect(failureRetryAfter(new IdError("overloaded", "busy", 2))).toBe(2);
		expect(failureRetryAfter({ retryAfter: 4, retryAfterSeconds: 9 })).toBe(4);
		expect(failureRetryAfter({ retryAfter: Number.POSITIVE_INFINITY })).toBeUndefined();
		expect(failureRetryAfter(new Error("overloaded: busy (retry after 5 s)"))).toBe(5);
		expect(
			failureRetryAfter(new Error("overloaded: busy (retry after 5 s) later")),
		).toBeUndefined();
		// Whatever else a rejection may be says no wait, and never throws.
		for (const nothing of [null, undefined, "overloaded (retry after 5 s)", 42]) {
			expect(failureRetryAfter(nothing)).toBeUndefined();
		}
	});
});

describe("checkedGrant", () => {
	it("passes the service's answer through, with its layout", () => {
		const { grant: checked, layout } = checkedGrant(good);
		expect(checked).toBe(good);
		expect(layout.maxWorkerId).toBe(1_023);
		// The layout's ends are grants too: worker IDs 0 and 1,023, tick 0, its last tick.
		for (const workerId of [0, 1_023]) {
			expect(checkedGrant({ ...good, workerId }).grant.workerId).toBe(workerId);
		}
		expect(checkedGrant({ ...good, from: 0 }).grant.from).toBe(0);
		expect(checkedGrant({ ...good, to: layout.tickLimit }).grant.to).toBe(layout.tickLimit);
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
		["to", 1_000.5],
		["to", 2 ** 41 + 1],
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

describe("the holder's own refusals, word for word", () => {
	it("a changed layout, a span that ended unrenewed, a span starting too far ahead", () => {
		const other = new SnowflakeLayout({ ...TWITTER_LAYOUT, timeUnitMs: 10 });
		expect(layoutChanged(layout, other).detail).toBe(
			`the service's layout changed from ${layout.fingerprint()} to ${other.fingerprint()} while this generator ran; IDs under two layouts do not compare, so it issues no more (make a new one)`,
		);
		expect(leaseExpired(7, 31_000, 2_000)).toMatchObject({
			code: "lease_expired",
			retryAfterSeconds: 1,
			detail:
				"worker ID 7's leased span ended at 1970-01-01T00:00:31.000Z (the service's clock) and no renewal extended it within 2000 ms; the service is unreachable or slow: retry shortly",
		});
		expect(spanAhead(7, 2_500.5, 2_000)).toMatchObject({
			code: "overloaded",
			retryAfterSeconds: 3,
			detail:
				"worker ID 7's leased span starts 2501 ms ahead of the service's clock (its last holder released it moments ago, so the span begins after the last one ended), more than the 2000 ms one call waits; retry then",
		});
	});
});
