/**
 * The allocation rules of worker-ID leases (src/ids/leases/span-rules.ts), case by case:
 * clock readings are ticks (epoch 0, 1 ms), spans 30,000 ticks, grace 2,000 ms.
 */
import { describe, expect, it } from "vitest";
import {
	extendSpan,
	grantSpan,
	issueRefusal,
	type LeaseBook,
	type LeaseRecord,
	phaseAt,
	releaseSpan,
	viewOf,
} from "../../src/ids/leases/span-rules";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";
import { FREE_LEASE_VIEW } from "../shared/lease-grants";
import { GRACE_MS, granted, refusal, SPAN_MS, terms } from "./lease-setup";

const fresh: LeaseBook = { mark: -1, lease: undefined };
const ask = { leaseHash: "a", holder: "pod-a" };
const is = (hash: string) => (stored: string) => stored === hash;

/** A book holding lease "a" for [1000, 31000), as granted at 1000. */
const heldA = granted(grantSpan(terms, fresh, ask, 1_000));
const leaseA = heldA.lease as LeaseRecord;

describe("grantSpan", () => {
	it("grants [tick(now), tick(now + span)) on a fresh worker ID, the mark at to - 1", () => {
		expect(heldA).toEqual({
			mark: 30_999,
			lease: { leaseHash: "a", holder: "pod-a", from: 1_000, to: 31_000, released: false },
		});
	});

	it("starts above the mark when the mark leads the clock", () => {
		const book = granted(grantSpan(terms, { mark: 5_000, lease: undefined }, ask, 1_000));
		expect(book.lease).toMatchObject({ from: 5_001, to: 31_000 });
		expect(book.mark).toBe(30_999);
	});

	it("grants one tick when the mark is a whole span ahead, and nothing further ahead", () => {
		const book = granted(grantSpan(terms, { mark: 30_999, lease: undefined }, ask, 1_000));
		expect(book.lease).toMatchObject({ from: 31_000, to: 31_001 });
		expect(book.mark).toBe(31_000);
		// One tick more (the next acquire+release cycle, the clock unmoved) is too far ahead.
		const released = granted(releaseSpan(terms, book, is("a")));
		const refused = refusal(grantSpan(terms, released, ask, 1_000));
		expect(refused).toMatchObject({ code: "no_free_worker_id", retryAfterSeconds: 1 });
		expect(refused).not.toHaveProperty("startsInMs", expect.anything());
		expect(refused.message).toContain("would start 30001 ms ahead of the clock");
		// Also when the clock went back: Retry-After is the time until it is a span away.
		const back = refusal(grantSpan(terms, { mark: 40_000, lease: undefined }, ask, 1_000));
		expect(back.retryAfterSeconds).toBe(10);
		expect(
			granted(grantSpan(terms, { mark: 40_000, lease: undefined }, ask, 10_001)).lease,
		).toMatchObject({ from: 40_001, to: 40_002 });
	});

	it("bounds acquire/release churn on a stopped clock to a span and a tick ahead", () => {
		// 10 ms ticks: each cycle would move the next span 10 ms further (issue 38, item 6).
		const coarse = {
			...terms,
			layout: new SnowflakeLayout({ ...TWITTER_LAYOUT, epoch: 0, timeUnitMs: 10 }),
		};
		let book: LeaseBook = fresh;
		let grants = 0;
		for (let cycle = 0; cycle < 1_000; cycle++) {
			const ruling = grantSpan(coarse, book, { ...ask, leaseHash: `h${cycle}` }, 5_000);
			if (!ruling.ok) {
				expect(ruling.refusal.code).toBe("no_free_worker_id");
				continue;
			}
			grants++;
			const lease = ruling.book.lease as LeaseRecord;
			expect(coarse.layout.msOf(lease.from) - 5_000).toBeLessThanOrEqual(SPAN_MS);
			book = granted(releaseSpan(coarse, ruling.book, is(lease.leaseHash)));
		}
		expect(grants).toBe(2); // [500, 3500), then the one tick at 3500
		expect(book.mark).toBe(3_500);
	});

	it("refuses a held worker ID until its span and grace end, then grants above the span", () => {
		for (const now of [1_000, 30_999, 31_000, 32_999]) {
			const refused = refusal(grantSpan(terms, heldA, { ...ask, leaseHash: "b" }, now));
			expect(refused.code).toBe("no_free_worker_id");
			expect(refused.retryAfterSeconds).toBe(Math.max(1, Math.ceil((33_000 - now) / 1000)));
			expect(refused.message).not.toContain('"a"');
		}
		const taken = granted(grantSpan(terms, heldA, { ...ask, leaseHash: "b" }, 33_000));
		expect(taken.lease).toMatchObject({ leaseHash: "b", from: 33_000, to: 63_000 });
	});

	it("grants a released worker ID at once, above the released span's tail", () => {
		const released = granted(releaseSpan(terms, heldA, is("a")));
		const book = granted(grantSpan(terms, released, { ...ask, leaseHash: "b" }, 1_500));
		expect(book.lease).toMatchObject({ leaseHash: "b", from: 31_000, to: 31_500 });
		expect(book.mark).toBe(31_499);
	});

	it("refuses with startsInMs a span that would start further ahead than maxLeadMs", () => {
		const released = granted(releaseSpan(terms, heldA, is("a")));
		const refused = refusal(grantSpan(terms, released, { ...ask, maxLeadMs: 1_000 }, 1_500));
		expect(refused).toMatchObject({ code: "no_free_worker_id", startsInMs: 29_500 });
		expect(refused.retryAfterSeconds).toBe(30);
		// Within the bound it is granted.
		expect(
			granted(grantSpan(terms, released, { ...ask, maxLeadMs: 29_500 }, 1_500)).lease,
		).toMatchObject({
			from: 31_000,
		});
	});

	it("refuses a clock before the epoch and a clock reading that is not a number", () => {
		expect(refusal(grantSpan(terms, fresh, ask, -1)).code).toBe("invalid_config");
		for (const now of [Number.NaN, Number.POSITIVE_INFINITY]) {
			expect(refusal(grantSpan(terms, fresh, ask, now))).toMatchObject({
				code: "clock_regression",
				retryAfterSeconds: 1,
			});
		}
	});

	it("cuts the span at the layout's end and refuses past it", () => {
		const small = new SnowflakeLayout({
			epoch: 0,
			timeBits: 15,
			workerBits: 18,
			sequenceBits: 30,
			timeUnitMs: 1,
		});
		const tiny = { ...terms, layout: small };
		expect(granted(grantSpan(tiny, fresh, ask, 30_000)).lease).toMatchObject({
			from: 30_000,
			to: 32_768,
		});
		expect(refusal(grantSpan(tiny, fresh, ask, 32_768)).code).toBe("layout_exhausted");
		expect(refusal(grantSpan(tiny, { mark: 32_767, lease: undefined }, ask, 100)).code).toBe(
			"layout_exhausted",
		);
	});
});

describe("extendSpan", () => {
	it("moves to on to tick(now + span), keeping from, hash and holder", () => {
		const book = granted(extendSpan(terms, heldA, is("a"), 11_000));
		expect(book).toEqual({ mark: 40_999, lease: { ...leaseA, to: 41_000 } });
	});

	it("renews after to: within the grace, and after it while nobody took the worker ID", () => {
		for (const now of [31_500, 32_999, 50_000]) {
			const book = granted(extendSpan(terms, heldA, is("a"), now));
			expect(book.lease).toMatchObject({ from: 1_000, to: now + 30_000 });
		}
	});

	it("never moves to back, whatever the clock says", () => {
		const book = granted(extendSpan(terms, heldA, is("a"), 500));
		expect(book).toEqual(heldA);
	});

	it("is lease_lost after a takeover, a release, or ticks issued above the span", () => {
		const takenOver = granted(grantSpan(terms, heldA, { ...ask, leaseHash: "b" }, 40_000));
		expect(refusal(extendSpan(terms, takenOver, is("a"), 40_000)).code).toBe("lease_lost");
		const released = granted(releaseSpan(terms, heldA, is("a")));
		expect(refusal(extendSpan(terms, released, is("a"), 2_000)).message).toContain("released");
		const issuedAbove = { ...heldA, mark: 31_000 }; // one tick above the span
		expect(refusal(extendSpan(terms, issuedAbove, is("a"), 33_500)).message).toContain("above");
		expect(refusal(extendSpan(terms, fresh, is("a"), 2_000)).code).toBe("lease_lost");
	});

	it("refuses a foreign leaseId without saying whose lease it is", () => {
		const refused = refusal(extendSpan(terms, heldA, is("z"), 2_000));
		expect(refused.code).toBe("lease_lost");
		expect(refused.message).not.toMatch(/pod-a|"a"/);
	});
});

describe("releaseSpan", () => {
	it("marks the lease released, the mark unchanged; a second release changes nothing", () => {
		const once = granted(releaseSpan(terms, heldA, is("a")));
		expect(once).toEqual({ mark: heldA.mark, lease: { ...leaseA, released: true } });
		expect(granted(releaseSpan(terms, once, is("a")))).toBe(once);
	});

	it("is lease_lost for a foreign leaseId or none", () => {
		expect(refusal(releaseSpan(terms, heldA, is("z"))).code).toBe("lease_lost");
		expect(refusal(releaseSpan(terms, fresh, is("a"))).code).toBe("lease_lost");
	});
});

describe("phases and the object's own IDs", () => {
	it("is held before to, in grace until to + grace, then free", () => {
		expect([30_999, 31_000, 32_999, 33_000].map((now) => phaseAt(terms, leaseA, now))).toEqual([
			"held",
			"grace",
			"grace",
			"free",
		]);
		expect(phaseAt(terms, leaseA, Number.NaN)).toBe("held");
		expect(phaseAt(terms, { ...leaseA, released: true }, 2_000)).toBe("free");
		expect(phaseAt(terms, undefined, 2_000)).toBe("free");
	});

	it("refuses the object's own IDs until the last span's end plus the grace, released or not", () => {
		for (const lease of [leaseA, { ...leaseA, released: true }]) {
			const refused = issueRefusal(terms, lease, 32_999);
			expect(refused).toMatchObject({ code: "worker_id_leased", retryAfterSeconds: 1 });
			expect(issueRefusal(terms, lease, 31_000 + GRACE_MS)).toBeUndefined();
		}
		expect(issueRefusal(terms, leaseA, Number.NaN)?.code).toBe("worker_id_leased");
		expect(issueRefusal(terms, undefined, 0)).toBeUndefined();
	});

	it("shows a lease's state, holder and span, never its hash", () => {
		expect(viewOf(terms, undefined, 5)).toEqual(FREE_LEASE_VIEW);
		const view = viewOf(terms, leaseA, 2_000);
		expect(view).toEqual({
			state: "held",
			holder: "pod-a",
			from: 1_000,
			to: 31_000,
			fromMs: 1_000,
			toMs: 31_000,
		});
		expect(JSON.stringify(view)).not.toContain("leaseHash");
	});
});
