/**
 * Named sequences, the runtime-neutral rules: names, settings, periods, the
 * ordered counter's transitions over the state its object stores, pooled mode's
 * step, and the double buffer over ranges. No Workers APIs; clocks are readings
 * or injected. The Worker's sequence object and `edge-ids/client` build on these.
 *
 *   const settings = checkSequenceSettings({ reset: "daily", timeZone: "Europe/London" });
 *   let state = newSequenceState(settings, Date.now());
 *   const ruling = issueRange(state, settings, 2, Date.now());
 *   if (ruling.ok) ({ state } = ruling); // persist, then answer numbersOf(ruling.value)
 */
export {
	type Advanced,
	advanceTo,
	enterPeriod,
	type IssuedRange,
	issueRange,
	newSequenceState,
	numbersOf,
	readStoredState,
	type SequenceRuling,
	type SequenceState,
	type StoredSequenceState,
	storedState,
} from "./counter";
export { checkSequenceName, MAX_SEQUENCE_NAME_LENGTH, SEQUENCE_NAME_PATTERN } from "./names";
export { MAX_SEQUENCE_NUMBER, readSequenceNumber } from "./numbers";
export { comparePeriods, periodOf, readClock } from "./periods";
export {
	checkPoolStepRules,
	DEFAULT_POOL_STEP,
	measuredRate,
	type PoolStepRules,
	stepForRate,
} from "./pool-step";
export {
	type FetchRange,
	type NumberRange,
	RangeBuffer,
	type RangeBufferOptions,
	type RangeBufferStats,
	type TakenNumbers,
} from "./range-buffer";
export { SequenceRefusal, type SequenceRefusalCode } from "./refusals";
export {
	checkSequenceSettings,
	checkTimeZone,
	SEQUENCE_MODES,
	SEQUENCE_RESETS,
	type SequenceMode,
	type SequenceReset,
	type SequenceSettings,
	type SequenceSettingsView,
	sameSettings,
	sequenceExists,
	settingsView,
} from "./settings";
