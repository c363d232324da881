/**
 * When an object's once-a-minute alarm fires, and which catalog shard hears it. Every
 * active object reports once a minute; at 1,024 worker IDs and 1,000,000 active
 * sequences that is ~1,000,000 reports a minute, so they are spread two ways
 * (docs/SCALING.md has the arithmetic):
 * - over the minute: an object's alarm fires at its own offset in the minute, from
 *   REPORT_LAG_MS to REPORT_LAG_MS + REPORT_SPREAD_MS past the end of the minute it counted
 *   (a sequence's offset from a hash of its name, a worker ID's from its number);
 * - over CATALOG_SHARDS catalog shards: a sequence reports to the shard its name hashes
 *   to (other bits of the same hash than its offset's), and each shard sums up its
 *   sequences for the root once a minute, in SUMMARY_WINDOW_MS after the reports' spread.
 *
 *   untilMinuteAlarm(Date.parse("2026-01-01T12:00:30Z"), 0);     // 31_000: at 12:01:01
 *   untilMinuteAlarm(Date.parse("2026-01-01T12:00:30Z"), 20_000); // 51_000: at 12:01:21
 *   shardOf("orders"); // 0-511, the same in every isolate
 */

const MINUTE_MS = 60_000;
/** The earliest a report fires after its minute's end: calls of the minute's last instant are counted. */
const REPORT_LAG_MS = 1_000;
/** Reports spread over this much of the next minute (offsets in [0, REPORT_SPREAD_MS)). */
export const REPORT_SPREAD_MS = 40_000;
/** The shards' summaries to the root go out in this window, after the reports' spread. */
const SUMMARY_START_MS = 45_000;
const SUMMARY_WINDOW_MS = 13_000;
/** Catalog shards that take sequences' reports. */
export const CATALOG_SHARDS = 512;
/** Worker IDs whose offsets are spread apart (the default layout's 10 bits). */
const WORKER_ID_SLOTS = 1_024;

/** Milliseconds from `nowMs` to the alarm at `offsetMs` in the minute after `nowMs`'s. */
export function untilMinuteAlarm(nowMs: number, offsetMs: number): number {
	return MINUTE_MS - (((nowMs % MINUTE_MS) + MINUTE_MS) % MINUTE_MS) + REPORT_LAG_MS + offsetMs;
}

/**
 * A 32-bit hash of a name (FNV-1a, then murmur3's finaliser so that names differing in
 * their last character spread over every bit). Stable: shards and offsets never move.
 */
export function nameHash(name: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < name.length; i++) {
		hash ^= name.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193);
	}
	hash ^= hash >>> 16;
	hash = Math.imul(hash, 0x85ebca6b);
	hash ^= hash >>> 13;
	hash = Math.imul(hash, 0xc2b2ae35);
	hash ^= hash >>> 16;
	return hash >>> 0;
}

/** The catalog shard of a sequence: the hash's low bits. */
export function shardOf(name: string): number {
	return nameHash(name) % CATALOG_SHARDS;
}

/** A sequence's report offset in the minute: the hash's other bits (independent of its shard). */
export function sequenceReportOffset(name: string): number {
	return Math.floor(nameHash(name) / CATALOG_SHARDS) % REPORT_SPREAD_MS;
}

/** A worker ID's report offset: the 1,024 worker IDs evenly apart (~39 ms). */
export function workerIdReportOffset(workerId: number): number {
	return Math.floor(((workerId % WORKER_ID_SLOTS) * REPORT_SPREAD_MS) / WORKER_ID_SLOTS);
}

/**
 * When a shard that took reports at `nowMs` sends its summary: its own instant in the
 * summary window of `nowMs`'s minute, or of the next one once that has passed.
 */
export function untilShardSummary(nowMs: number, shard: number): number {
	const intoMinute = ((nowMs % MINUTE_MS) + MINUTE_MS) % MINUTE_MS;
	const slot =
		SUMMARY_START_MS + Math.floor(((shard % CATALOG_SHARDS) * SUMMARY_WINDOW_MS) / CATALOG_SHARDS);
	return slot > intoMinute ? slot - intoMinute : MINUTE_MS - intoMinute + slot;
}
