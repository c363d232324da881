/**
 * What the ULID and UUIDv7 factory tests share: the inputs every text ID factory
 * refuses, and a walk of a clock that steps forward and back, as a property's input.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { expectIdError } from "./oracle";

interface TextIdFactory {
	next(ms: number): string;
	nextBatch(ms: number, count: number): string[];
}

/** A broken clock reading is the service's fault (internal); a count must be a whole number. */
export function expectBadInputsRefused(factory: TextIdFactory, ms: number): void {
	for (const broken of [-1, 0.5]) expectIdError(() => factory.next(broken), "internal");
	// Not a number at all: a clock fault, retryable (test/core/clock-faults.test.ts).
	expectIdError(() => factory.next(Number.NaN), "clock_regression");
	for (const count of [-1, 1.5, Number.NaN]) {
		expectIdError(() => factory.nextBatch(ms, count), "invalid_count");
	}
	expect(factory.nextBatch(ms, 0)).toEqual([]);
}

/** A start time and steps of up to 50 ms back or 20 ms forward, each with a number of IDs. */
export const clockWalk = {
	start: fc.integer({ min: 0, max: 2 ** 40 }),
	steps: fc.array(fc.record({ step: fc.integer({ min: -50, max: 20 }), count: fc.nat(40) }), {
		maxLength: 60,
	}),
};

/**
 * Calls `issue` `count` times at each step's clock reading (never below 0), with the
 * highest reading so far; the IDs it returns, in order (undefined: none issued).
 */
export function walkClock(
	start: number,
	steps: { step: number; count: number }[],
	issue: (clock: number, maxClock: number) => string | undefined,
): string[] {
	let clock = start;
	let maxClock = -1;
	const ids: string[] = [];
	for (const { step, count } of steps) {
		clock = Math.max(0, clock + step);
		for (let i = 0; i < count; i++) {
			maxClock = Math.max(maxClock, clock);
			const id = issue(clock, maxClock);
			if (id !== undefined) ids.push(id);
		}
	}
	return ids;
}
