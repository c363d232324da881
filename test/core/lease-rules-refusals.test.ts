/**
 * The lease rules' refusals word for word, and the clock readings a renewal refuses
 * (not a number, before the epoch, past the layout's end) as an acquire does. Clock
 * readings are ticks (epoch 0, 1 ms), spans 30,000 ticks, grace 2,000 ms, worker ID 600.
 */
import { describe, expect, it } from "vitest";
import {
	extendSpan,
	grantSpan,
	issueRefusal,
	type LeaseBook,
	releaseSpan,
} from "../../src/ids/leases/span-rules";
import { SnowflakeLayout } from "../../src/ids/snowflake/layout";
import { granted, refusal, terms } from "./lease-setup";

const fresh: LeaseBook = { mark: -1, lease: undefined };
const ask = { leaseHash: "a", holder: null };
const is = (hash: string) => (stored: string) => stored === hash;

const heldA = granted(grantSpan(terms, fresh, ask, 1_000)); // [1,000, 31,000)

/** A layout whose time runs out at tick 32,768. */
const tiny = {
	...terms,
	layout: new SnowflakeLayout({
		epoch: 0,
		timeBits: 15,
		workerBits: 18,
		sequenceBits: 30,
		timeUnitMs: 1,
	}),
};

describe("lease refusals, word for word", () => {
	it("a held worker ID, a span starting too far ahead, the object's own IDs, a foreign leaseId", () => {
		expect(refusal(grantSpan(terms, heldA, ask, 2_000)).detail).toBe(
			"worker ID 600 is leased until 1970-01-01T00:00:31.000Z, and its holder may renew for LEASE_GRACE_MS (2000 ms) after that; retry then, or acquire without naming a worker ID",
		);
		const released = granted(releaseSpan(terms, heldA, is("a")));
		expect(refusal(grantSpan(terms, released, { ...ask, maxLeadMs: 0 }, 1_500)).detail).toBe(
			"worker ID 600 is free, but its next span starts 29500 ms ahead of the clock (a released span's unused tail is never issued again)",
		);
		expect(issueRefusal(terms, heldA.lease, 2_000)?.detail).toBe(
			"worker ID 600 is for lease holders (LEASE_WORKER_IDS): the service issues none of its IDs itself, and its last span runs until 1970-01-01T00:00:31.000Z; use the auto route or a worker ID outside LEASE_WORKER_IDS",
		);
		expect(refusal(extendSpan(terms, heldA, is("b"), 2_000)).detail).toBe(
			"worker ID 600 holds no lease with this leaseId: it was taken over after its span and grace ended, or never granted; acquire a new lease",
		);
	});

	it("a clock before the epoch, shown as ISO text while a Date holds it, else as a number", () => {
		// The epoch itself is tick 0, a tick like any other.
		expect(granted(grantSpan(terms, fresh, ask, 0)).lease).toMatchObject({ from: 0, to: 30_000 });
		expect(refusal(grantSpan(terms, fresh, ask, -1)).detail).toBe(
			"the clock (1969-12-31T23:59:59.999Z) is before the Snowflake epoch (1970-01-01T00:00:00.000Z)",
		);
		expect(refusal(grantSpan(terms, fresh, ask, -8.64e15)).detail).toBe(
			"the clock (-271821-04-20T00:00:00.000Z) is before the Snowflake epoch (1970-01-01T00:00:00.000Z)",
		);
		expect(refusal(grantSpan(terms, fresh, ask, -8.64e15 - 1)).detail).toBe(
			"the clock (-8640000000000001) is before the Snowflake epoch (1970-01-01T00:00:00.000Z)",
		);
	});

	it("a layout that ran out", () => {
		expect(refusal(grantSpan(tiny, fresh, ask, 32_768)).detail).toBe(
			"the Snowflake layout runs out of time at 1970-01-01T00:00:32.768Z: no span of worker ID 600 fits; configure a later epoch or more time bits",
		);
	});
});

describe("renewals and the clock", () => {
	it("refuse a reading that is not a number (clock_regression) and one before the epoch, renewing nothing", () => {
		for (const now of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
			expect(refusal(extendSpan(terms, heldA, is("a"), now))).toMatchObject({
				code: "clock_regression",
				retryAfterSeconds: 1,
			});
		}
		expect(refusal(extendSpan(terms, heldA, is("a"), -1)).code).toBe("invalid_config");
	});

	it("renew up to the layout's end, and refuse from its last instant on", () => {
		const held = granted(grantSpan(tiny, fresh, ask, 30_000)); // [30,000, 32,768)
		expect(granted(extendSpan(tiny, held, is("a"), 32_767)).lease).toMatchObject({ to: 32_768 });
		for (const now of [32_768, 40_000]) {
			expect(refusal(extendSpan(tiny, held, is("a"), now)).code).toBe("layout_exhausted");
		}
	});
});
