/**
 * A sequence's row as a create and one report leave it in the fleet catalog, for runs
 * that write many rows without the sequences' objects (the fleet-scale run, the tests
 * of bounded answers).
 *
 *   reportedRow("load-0000007", 8, Date.now()); // issued 8 numbers in 8 calls, next is 9
 */
import type { SequenceReport } from "../../../src/worker/object/catalog-sequences";

/** The settings of an ordered sequence from 1 with no reset, as the catalog lists them. */
export const ROW_SETTINGS = { start: "1", mode: "ordered", reset: "never", timeZone: "UTC" };

/** Sequence `name` after `issued` calls of one number each, the last at `nowMs`. */
export function reportedRow(name: string, issued: number, nowMs: number): SequenceReport {
	return {
		name,
		settings: ROW_SETTINGS,
		createdAtMs: nowMs,
		next: String(issued + 1),
		issued: String(issued),
		requests: issued,
		lastIssuedAtMs: nowMs,
		period: null,
	};
}
