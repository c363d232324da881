/**
 * What keeps one Durable Object namespace on one Snowflake layout. Each worker ID's
 * object stores the layout it issues under, and compares it once with the
 * namespace's, held by one more object (named `NAMESPACE_LAYOUT_NAME`): the first
 * layout a worker ID started under (its stored one, for a worker ID that issued
 * before this object existed), which never changes. A worker ID that has never
 * issued takes it. So after the SNOWFLAKE_* settings change in place, every worker ID
 * refuses alike, instead of used ones refusing while unused ones issue IDs of the
 * new layout (which sort below the old ones, and under other field widths may equal
 * them).
 */
import { serviceError } from "../errors";

/** The object holding the namespace's layout (worker IDs are named by digits only). */
export const NAMESPACE_LAYOUT_NAME = "layout";

/**
 * Written after the fingerprint by an object that granted a span to a lease holder.
 * Versions without leases compare the stored layout with their own fingerprint, so
 * they refuse (`layout_mismatch`, this text in the message) to issue anything for a
 * leased worker ID during a deployment or after a rollback; its mark would keep them
 * above every span anyway. This version reads the fingerprint before it.
 */
const LEASED =
	" with worker-ID leases (an edge-ids version with leases wrote it: deploy that version)";

/** The stored layout value of an object that has leased spans. */
export function withLeases(fingerprint: string): string {
	return fingerprint + LEASED;
}

/** A stored layout value read back: the fingerprint, and whether spans were leased under it. */
export function storedLayout(
	value: string | undefined,
): { fingerprint: string; leased: boolean } | undefined {
	if (value === undefined) return undefined;
	const leased = value.endsWith(LEASED);
	return { fingerprint: leased ? value.slice(0, -LEASED.length) : value, leased };
}

/** How to get going again after a layout change, locally and in production. */
const RECOVERY =
	"locally, start from fresh state (delete .wrangler/state, or run wrangler dev with --persist-to a new directory); " +
	'in production, restore the SNOWFLAKE_* settings, or deploy the new layout as a new Worker with new Durable Object namespaces (docs/PRODUCTION.md, "Changing the layout")';

/** A worker ID whose stored layout (`stored`) is not the configured one. */
export function storedLayoutMismatch(workerId: number, stored: string, configured: string) {
	return serviceError(
		"layout_mismatch",
		`worker ID ${workerId} issued IDs under the Snowflake layout ${stored}, but the service is configured with ${configured}; IDs of both could collide, so it refuses. To recover: ${RECOVERY}`,
	);
}

/** A worker ID that never issued, in a namespace whose worker IDs issue under `held`. */
export function namespaceLayoutMismatch(workerId: number, held: string, configured: string) {
	return serviceError(
		"layout_mismatch",
		`this deployment's worker IDs issue under the Snowflake layout ${held}, but the service is configured with ${configured}; worker ID ${workerId} does not start under another layout, since IDs of both could collide. To recover: ${RECOVERY}`,
	);
}

/**
 * A worker ID that issued under `stored` in a namespace whose worker IDs issue under
 * `held` (the namespace recorded another layout first, e.g. an unused worker ID
 * started under a changed layout before any used one after an upgrade).
 */
export function storedNamespaceMismatch(workerId: number, stored: string, held: string) {
	return serviceError(
		"layout_mismatch",
		`worker ID ${workerId} issued IDs under the Snowflake layout ${stored}, but this deployment's worker IDs issue under ${held}; IDs of both could collide, so it refuses. To recover: ${RECOVERY}`,
	);
}

/** The namespace's layout object could not be reached: transient. */
export function namespaceLayoutUnreachable(workerId: number) {
	return serviceError(
		"unavailable",
		`worker ID ${workerId} could not check the deployment's Snowflake layout before its first ID; retry shortly`,
		1,
	);
}
