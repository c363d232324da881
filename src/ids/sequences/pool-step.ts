/**
 * Pooled mode's segment size: Leaf's dynamic step, improved. Leaf doubles or
 * halves a segment by how long the last one lasted against a fixed 15 minutes, so
 * it needs several segments to follow a change of load, and a quiet server keeps
 * a segment for hours. Here the step is what the isolate's measured rate uses in
 * a target refill interval (`numbers per second × targetRefillMs`), bounded to
 * [minStep, maxStep], in one move; and a segment is used for at most
 * POOL_MAX_AGE_MS (the Worker's var of that name: how long pooled numbers may be
 * held), so the target interval must not be longer than that age.
 *
 *   const rules = checkPoolStepRules({ minStep: 10, maxStep: 100_000, targetRefillMs: 500, maxAgeMs: 1000 });
 *   stepForRate(rules, measuredRate(4_000, 1_000)); // 2000: 4,000 numbers/s for 500 ms
 *   stepForRate(rules, 0);                          // 10, the smallest
 */
import { IdError } from "../errors";

export interface PoolStepRules {
	/** The smallest segment (and the first, before a rate is measured). */
	minStep: number;
	/** The largest segment: bounds what an isolate can lose when it ends. */
	maxStep: number;
	/** How long a segment should last at the measured rate. */
	targetRefillMs: number;
	/** POOL_MAX_AGE_MS: a segment is used for at most this long after its fetch began. */
	maxAgeMs: number;
}

/** The segment sizes a pooled sequence uses unless told otherwise. */
export const DEFAULT_POOL_STEP = { minStep: 10, maxStep: 100_000 } as const;

/** The rules when they are sane integers, else `invalid_config` naming the field. */
export function checkPoolStepRules(rules: PoolStepRules): PoolStepRules {
	const integer = (name: keyof PoolStepRules, min: number, max: number) => {
		const value = rules[name];
		if (!Number.isSafeInteger(value) || value < min || value > max) {
			throw new IdError(
				"invalid_config",
				`${name} must be an integer in [${min}, ${max}], got ${value}`,
			);
		}
	};
	integer("minStep", 1, Number.MAX_SAFE_INTEGER);
	integer("maxStep", rules.minStep, Number.MAX_SAFE_INTEGER);
	integer("maxAgeMs", 1, Number.MAX_SAFE_INTEGER);
	integer("targetRefillMs", 1, rules.maxAgeMs);
	return { ...rules };
}

/**
 * Numbers per second from `numbers` handed out in `elapsedMs`; an interval under
 * 1 ms (a frozen Workers clock) counts as 1 ms, so a burst reads as a high rate.
 */
export function measuredRate(numbers: number, elapsedMs: number): number {
	return (numbers * 1000) / Math.max(1, elapsedMs);
}

/** The segment size for `numbersPerSecond`: its use over `targetRefillMs`, within [minStep, maxStep]. */
export function stepForRate(rules: PoolStepRules, numbersPerSecond: number): number {
	const wanted = Math.ceil((numbersPerSecond * rules.targetRefillMs) / 1000);
	// NaN (no rate) falls to the smallest step: Math.max/min would carry it through.
	if (!(wanted > rules.minStep)) return rules.minStep;
	return Math.min(rules.maxStep, wanted);
}
