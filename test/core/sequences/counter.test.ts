import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SequenceRuling, SequenceState } from "../../../src/ids/sequences/counter";
import {
	advanceTo,
	issueRange,
	newSequenceState,
	numbersOf,
	readStoredState,
	storedState,
} from "../../../src/ids/sequences/counter";
import { MAX_SEQUENCE_NUMBER } from "../../../src/ids/sequences/numbers";
import { checkSequenceSettings } from "../../../src/ids/sequences/settings";

const at = (iso: string) => Date.parse(iso);
const T0 = at("2026-11-27T12:00:00.000Z");

/** The ruling's state and value; fails the test on a refusal. */
function granted<T>(ruling: SequenceRuling<T>): { state: SequenceState; value: T } {
	if (!ruling.ok) throw new Error(`refused: ${ruling.refusal.message}`);
	return ruling;
}

describe("the ordered counter", () => {
	it("issues consecutive numbers from start, counting numbers and calls", () => {
		const settings = checkSequenceSettings({});
		const created = newSequenceState(settings, T0);
		expect(created).toEqual({
			next: 1n,
			period: null,
			issued: 0n,
			requests: 0,
			createdAt: T0,
			lastIssuedAt: null,
		});
		const first = granted(issueRange(created, settings, 3, T0 + 5));
		expect(first.value).toEqual({ first: 1n, last: 3n, count: 3, period: null });
		expect(numbersOf(first.value)).toEqual(["1", "2", "3"]);
		const second = granted(issueRange(first.state, settings, 2, T0 + 9));
		expect(second.value).toEqual({ first: 4n, last: 5n, count: 2, period: null });
		expect(second.state).toEqual({
			next: 6n,
			period: null,
			issued: 5n,
			requests: 2,
			createdAt: T0,
			lastIssuedAt: T0 + 9,
		});
		// Pure: the state passed in is unchanged.
		expect(created.next).toBe(1n);
	});

	it("starts where the settings say, 0 included", () => {
		const settings = checkSequenceSettings({ start: 0 });
		const { value } = granted(issueRange(newSequenceState(settings, T0), settings, 1, T0));
		expect(value.first).toBe(0n);
	});

	it("issues up to 2^63 - 1 and then refuses, issuing nothing", () => {
		const settings = checkSequenceSettings({ start: `${MAX_SEQUENCE_NUMBER - 2n}` });
		const state = newSequenceState(settings, T0);
		const tooMany = issueRange(state, settings, 4, T0);
		expect(tooMany).toEqual({
			ok: false,
			refusal: expect.objectContaining({ code: "sequence_exhausted" }),
		});
		expect(tooMany.ok ? "" : tooMany.refusal.message).toBe(
			"sequence_exhausted: 4 numbers from 9223372036854775805 would pass 9223372036854775807 (2^63 - 1), the largest a sequence issues: 3 left",
		);
		const last = granted(issueRange(state, settings, 3, T0));
		expect(numbersOf(last.value)).toEqual([
			"9223372036854775805",
			"9223372036854775806",
			"9223372036854775807",
		]);
		const after = issueRange(last.state, settings, 1, T0);
		expect(after.ok ? "" : after.refusal.message).toBe(
			"sequence_exhausted: 1 numbers from 9223372036854775808 would pass 9223372036854775807 (2^63 - 1), the largest a sequence issues: 0 left",
		);
	});

	it("says when a sequence with a reset starts again", () => {
		const settings = checkSequenceSettings({ start: `${MAX_SEQUENCE_NUMBER}`, reset: "daily" });
		const state = granted(issueRange(newSequenceState(settings, T0), settings, 1, T0)).state;
		const refused = issueRange(state, settings, 1, T0);
		expect(refused.ok ? "" : refused.refusal.detail).toMatch(
			/: 0 left; the next period \(daily, UTC\) starts again at 9223372036854775807$/,
		);
		// The next day starts again.
		const nextDay = granted(issueRange(state, settings, 1, T0 + 86_400_000));
		expect(nextDay.value).toMatchObject({ first: MAX_SEQUENCE_NUMBER, period: "2026-11-28" });
	});

	it("refuses a count that is not a positive integer and a clock that reads no time", () => {
		const settings = checkSequenceSettings({});
		const state = newSequenceState(settings, T0);
		for (const count of [0, -1, 1.5, Number.NaN]) {
			expect(issueRange(state, settings, count, T0)).toMatchObject({
				ok: false,
				refusal: {
					code: "invalid_count",
					detail: `count must be a positive integer; got ${count}`,
				},
			});
		}
		for (const reading of [Number.NaN, Number.POSITIVE_INFINITY, -5]) {
			expect(issueRange(state, settings, 1, reading)).toMatchObject({
				ok: false,
				refusal: { code: "clock_regression", retryAfterSeconds: 1 },
			});
			expect(advanceTo(state, settings, 5n, reading)).toMatchObject({ ok: false });
		}
	});

	it("advances forward only", () => {
		const settings = checkSequenceSettings({});
		let state = granted(issueRange(newSequenceState(settings, T0), settings, 10, T0)).state;
		const moved = granted(advanceTo(state, settings, 1000n, T0));
		expect(moved.value).toEqual({ next: 1000n, moved: true, period: null });
		state = moved.state;
		for (const to of [1000n, 999n, 11n, 0n]) {
			const still = granted(advanceTo(state, settings, to, T0));
			expect(still.value).toEqual({ next: 1000n, moved: false, period: null });
			expect(still.state).toBe(state);
		}
		expect(granted(issueRange(state, settings, 1, T0)).value.first).toBe(1000n);
		// Advancing counts as no issue.
		expect(state).toMatchObject({ issued: 10n, requests: 1 });
		expect(granted(advanceTo(state, settings, MAX_SEQUENCE_NUMBER, T0)).state.next).toBe(
			MAX_SEQUENCE_NUMBER,
		);
	});

	it("survives the round trip through what the object stores", () => {
		const settings = checkSequenceSettings({ start: `${2n ** 62n}`, reset: "monthly" });
		const state = granted(issueRange(newSequenceState(settings, T0), settings, 7, T0)).state;
		const stored = storedState(state);
		expect(stored).toEqual({
			next: `${2n ** 62n + 7n}`,
			period: "2026-11",
			issued: "7",
			requests: 1,
			createdAt: T0,
			lastIssuedAt: T0,
		});
		expect(readStoredState(JSON.parse(JSON.stringify(stored)))).toEqual(state);
	});
});

describe("periods of the ordered counter", () => {
	const daily = checkSequenceSettings({ start: 100, reset: "daily" });

	it("starts again at start after midnight, and keeps the later period when the clock steps back", () => {
		const before = at("2026-11-27T23:59:59.000Z");
		let state = newSequenceState(daily, before);
		const late = granted(issueRange(state, daily, 2, before));
		expect(late.value).toEqual({ first: 100n, last: 101n, count: 2, period: "2026-11-27" });
		const after = granted(issueRange(late.state, daily, 2, at("2026-11-28T00:00:00.000Z")));
		expect(after.value).toEqual({ first: 100n, last: 101n, count: 2, period: "2026-11-28" });
		// The clock steps back across midnight: still the 28th, and no number of it twice.
		const back = granted(issueRange(after.state, daily, 1, at("2026-11-27T23:59:58.000Z")));
		expect(back.value).toEqual({ first: 102n, last: 102n, count: 1, period: "2026-11-28" });
		state = back.state;
		// ... and forward again within the 28th: the count goes on.
		const forward = granted(issueRange(state, daily, 1, at("2026-11-28T00:00:01.000Z")));
		expect(forward.value).toMatchObject({ first: 103n, period: "2026-11-28" });
	});

	it("enters the new period before advancing, so advance moves the new period's counter", () => {
		const state = granted(issueRange(newSequenceState(daily, T0), daily, 5, T0)).state;
		const moved = granted(advanceTo(state, daily, 102n, T0 + 86_400_000));
		expect(moved.value).toEqual({ next: 102n, moved: true, period: "2026-11-28" });
		const noop = granted(advanceTo(state, daily, 100n, T0 + 86_400_000));
		expect(noop.value).toEqual({ next: 100n, moved: false, period: "2026-11-28" });
	});

	it("dates periods in the sequence's zone (Kathmandu, +5:45)", () => {
		const settings = checkSequenceSettings({ reset: "daily", timeZone: "Asia/Kathmandu" });
		const state = newSequenceState(settings, at("2026-11-27T18:14:59.999Z"));
		expect(state.period).toBe("2026-11-27");
		const next = granted(issueRange(state, settings, 1, at("2026-11-27T18:15:00.000Z")));
		expect(next.value).toMatchObject({ first: 1n, period: "2026-11-28" });
	});

	it("property: answers are consecutive, and every number is larger than all before in its period", () => {
		const op = fc.oneof(
			fc.record({
				take: fc.integer({ min: 1, max: 50 }),
				step: fc.integer({ min: -7_200_000, max: 7_200_000 }),
			}),
			fc.record({
				advance: fc.bigInt({ min: 0n, max: 3_000n }),
				step: fc.integer({ min: -600_000, max: 600_000 }),
			}),
		);
		fc.assert(
			fc.property(
				fc.array(op, { maxLength: 120 }),
				fc.constantFrom("never", "daily"),
				(ops, reset) => {
					const settings = checkSequenceSettings({ reset });
					let clock = at("2026-11-27T20:00:00.000Z");
					let state = newSequenceState(settings, clock);
					const highest = new Map<string | null, bigint>();
					let lastPeriod: string | null = state.period;
					for (const o of ops) {
						clock += o.step;
						const ruling =
							"take" in o
								? issueRange(state, settings, o.take, clock)
								: advanceTo(state, settings, o.advance, clock);
						const { state: nextState, value } = granted<unknown>(ruling);
						state = nextState;
						expect(state.period === lastPeriod || (state.period ?? "") > (lastPeriod ?? "")).toBe(
							true,
						);
						lastPeriod = state.period;
						if ("take" in o) {
							const range = value as {
								first: bigint;
								last: bigint;
								count: number;
								period: string | null;
							};
							expect(range.last - range.first + 1n).toBe(BigInt(o.take));
							expect(range.first).toBeGreaterThan(highest.get(range.period) ?? -1n);
							highest.set(range.period, range.last);
						}
					}
				},
			),
		);
	});
});
