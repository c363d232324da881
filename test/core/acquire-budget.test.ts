/** The per-caller budget of lease acquires (src/ids/leases/acquire-budget.ts) on scripted clock readings. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AcquireBucket, takeAcquire } from "../../src/ids/leases/acquire-budget";

/** Takes `count` acquires at `now`, answering how many were granted and the bucket after. */
function takeMany(
	bucket: AcquireBucket | undefined,
	perMinute: number,
	now: number,
	count: number,
) {
	let granted = 0;
	let last: ReturnType<typeof takeAcquire> | undefined;
	for (let i = 0; i < count; i++) {
		last = takeAcquire(bucket, perMinute, now);
		bucket = last.bucket;
		if (last.ok) granted++;
	}
	return { granted, bucket, last };
}

describe("takeAcquire", () => {
	it("grants a full minute's budget at once, then refuses with the seconds until the next", () => {
		const { granted, bucket, last } = takeMany(undefined, 600, 1_000, 601);
		expect(granted).toBe(600);
		expect(last).toEqual({ ok: false, bucket: { tokens: 0, atMs: 1_000 }, retryAfterSeconds: 1 });
		// 600 a minute: one every 100 ms.
		expect(takeAcquire(bucket, 600, 1_099).ok).toBe(false);
		expect(takeAcquire(bucket, 600, 1_100)).toEqual({
			ok: true,
			bucket: { tokens: 0, atMs: 1_100 },
		});
	});

	it("says how long until the next acquire at a low limit", () => {
		const { bucket } = takeMany(undefined, 3, 0, 3);
		expect(takeAcquire(bucket, 3, 0)).toMatchObject({ ok: false, retryAfterSeconds: 20 });
		expect(takeAcquire(bucket, 3, 15_000)).toMatchObject({ ok: false, retryAfterSeconds: 5 });
		expect(takeAcquire(bucket, 3, 20_000).ok).toBe(true);
	});

	it("refills nothing on a clock that went back or reads NaN, and keeps counting", () => {
		const { bucket } = takeMany(undefined, 60, 50_000, 60);
		for (const now of [10_000, Number.NaN, Number.POSITIVE_INFINITY]) {
			const taken = takeAcquire(bucket, 60, now);
			expect(taken).toEqual({
				ok: false,
				bucket: { tokens: 0, atMs: 50_000 },
				retryAfterSeconds: 1,
			});
		}
		expect(takeAcquire(bucket, 60, 51_000).ok).toBe(true);
	});

	it("never grants more than the limit plus what a minute refills, over any schedule", () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 50 }),
				fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 300 }),
				(perMinute, steps) => {
					let bucket: AcquireBucket | undefined;
					let now = 0;
					let granted = 0;
					for (const step of steps) {
						now += step;
						const taken = takeAcquire(bucket, perMinute, now);
						bucket = taken.bucket;
						if (taken.ok) granted++;
						else expect(taken.retryAfterSeconds).toBeGreaterThanOrEqual(1);
					}
					expect(granted).toBeLessThanOrEqual(perMinute + Math.floor((now * perMinute) / 60_000));
				},
			),
		);
	});
});
