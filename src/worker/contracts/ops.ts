/**
 * The inputs of the operations view: the per-minute history of the fleet, of one
 * worker ID or of one named sequence, the pages of `GET /stats`, and the leases and
 * metrics, which take none (their contracts refuse every name, as any operation
 * refuses a name it does not take). Read by every transport (./fields.ts).
 *
 *   readInput(statsHistoryContract, limits, { minutes: 90 }, { workerId: 7 }); // { workerId: 7, minutes: 90 }
 *   readInput(sequenceHistoryContract, limits, {}, { name: "orders" });         // { name: "orders" }
 */
import { contract, field } from "./fields";
import { ownedWorkerId } from "./ids";
import { sequenceNameField } from "./sequences";

/** The longest history window, in minutes: the day every object keeps. */
export const MAX_HISTORY_MINUTES = 1440;
/** The window when none is asked for: the last hour. */
export const DEFAULT_HISTORY_MINUTES = 60;

const minutes = field
	.between(
		"invalid_request",
		`The window: the last 1-${MAX_HISTORY_MINUTES} minutes (the current one included); default ${DEFAULT_HISTORY_MINUTES}`,
		() => 1,
		() => MAX_HISTORY_MINUTES,
		" (the last day, minute by minute)",
	)
	.orAbsent();

/** Per-minute counts of one worker ID (named), or of the whole fleet (absent). */
export const statsHistoryContract = contract("statsHistory", {
	workerId: ownedWorkerId.orAbsent(),
	minutes,
});
/** Per-minute counts of one named sequence (`GET /sequences/:name/history`). */
export const sequenceHistoryContract = contract("sequenceHistory", {
	name: sequenceNameField,
	minutes,
});
export const fleetLeasesContract = contract("leases", {});

/** The rows a `GET /stats` page holds when no limit is asked for, and at most. */
export const DEFAULT_STATS_LIMIT = 100;
export const MAX_STATS_LIMIT = 1000;

/** A page's cursor: `w:<worker ID>` (worker IDs after it follow) or `s:<sequence name>`. */
export const STATS_CURSOR_PATTERN = /^(w:[0-9]{1,7}|s:[A-Za-z0-9][A-Za-z0-9._-]{0,63})$/;

/** One page of the fleet's worker IDs, then sequences, with the fleet's totals. */
export const fleetStatsContract = contract("fleetStats", {
	limit: field
		.between(
			"invalid_request",
			`How many rows (worker IDs and sequences) a page holds: an integer in [1, ${MAX_STATS_LIMIT}]; default ${DEFAULT_STATS_LIMIT}`,
			() => 1,
			() => MAX_STATS_LIMIT,
		)
		.orAbsent(),
	cursor: field
		.text(
			"invalid_request",
			"The previous page's cursor: the rows after it are listed",
			"the cursor a previous page answered (w:<worker ID> or s:<sequence name>)",
			{
				test: (text) => STATS_CURSOR_PATTERN.test(text),
				pattern: STATS_CURSOR_PATTERN,
				maxLength: 66,
			},
		)
		.orAbsent(),
});
export const metricsContract = contract("metrics", {});
