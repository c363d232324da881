/**
 * The inputs of the operations view: the per-minute history of the fleet, of one
 * worker ID or of one named sequence, and the listings and metrics, which take none (their contracts refuse
 * every name, as any operation refuses a name it does not take). Read by every
 * transport (./fields.ts).
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
export const fleetStatsContract = contract("fleetStats", {});
export const metricsContract = contract("metrics", {});
