/**
 * When an object's once-a-minute alarm fires: just past the end of the minute a
 * reading falls in, so a minute's last calls are counted. The Snowflake objects
 * (./minutes.ts) and the sequences' (./sequence-object.ts) report to the fleet
 * catalog from it: at most once a minute, never on the issuing path.
 *
 *   void storage.setAlarm(Date.now() + untilMinuteAlarm(Date.now())); // 12:00:30 → 12:01:01
 */

/** The alarm fires this long after its minute's end: calls of its last instant are counted. */
const ALARM_LAG_MS = 1_000;
const MINUTE_MS = 60_000;

/** Milliseconds from `nowMs` to its minute's alarm. */
export function untilMinuteAlarm(nowMs: number): number {
	return MINUTE_MS - (((nowMs % MINUTE_MS) + MINUTE_MS) % MINUTE_MS) + ALARM_LAG_MS;
}
