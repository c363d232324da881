import { describe, expect, it } from "vitest";
import {
	checkPoolStepRules,
	measuredRate,
	stepForRate,
} from "../../../src/ids/sequences/pool-step";

const rules = checkPoolStepRules({
	minStep: 10,
	maxStep: 100_000,
	targetRefillMs: 500,
	maxAgeMs: 1000,
});

describe("pooled mode's step", () => {
	it("is what the measured rate uses in the target refill interval, in one move", () => {
		expect(stepForRate(rules, 4_000)).toBe(2_000);
		expect(stepForRate(rules, 4_001)).toBe(2_001); // rounded up: a segment lasts at least the interval
		expect(stepForRate(rules, 150_000)).toBe(75_000);
	});

	it("stays within [minStep, maxStep], and is the smallest without a rate", () => {
		expect(stepForRate(rules, 0)).toBe(10);
		expect(stepForRate(rules, 19)).toBe(10);
		expect(stepForRate(rules, Number.NaN)).toBe(10);
		expect(stepForRate(rules, 1e9)).toBe(100_000);
		expect(stepForRate(rules, Number.POSITIVE_INFINITY)).toBe(100_000);
	});

	it("measures numbers per second, a frozen clock's interval as 1 ms", () => {
		expect(measuredRate(4_000, 1_000)).toBe(4_000);
		expect(measuredRate(50, 0)).toBe(50_000);
		expect(measuredRate(0, 250)).toBe(0);
	});

	it("refuses rules that cannot hold, naming the field", () => {
		const base = { minStep: 10, maxStep: 100, targetRefillMs: 500, maxAgeMs: 1000 };
		expect(() => checkPoolStepRules({ ...base, minStep: 0 })).toThrow(
			"invalid_config: minStep must be an integer in [1, 9007199254740991], got 0",
		);
		expect(() => checkPoolStepRules({ ...base, maxStep: 9 })).toThrow(
			"invalid_config: maxStep must be an integer in [10, 9007199254740991], got 9",
		);
		expect(() => checkPoolStepRules({ ...base, maxAgeMs: 0 })).toThrow(
			"invalid_config: maxAgeMs must be an integer in [1, 9007199254740991], got 0",
		);
		// A target interval longer than POOL_MAX_AGE_MS would throw away most of each segment.
		expect(() => checkPoolStepRules({ ...base, targetRefillMs: 1001 })).toThrow(
			"invalid_config: targetRefillMs must be an integer in [1, 1000], got 1001",
		);
	});
});
