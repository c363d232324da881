import type { Clock } from "../../../src/ids/clock";
import {
	issueRange,
	newSequenceState,
	type SequenceState,
} from "../../../src/ids/sequences/counter";
import type { NumberRange } from "../../../src/ids/sequences/range-buffer";
import { checkSequenceSettings, type SequenceSettings } from "../../../src/ids/sequences/settings";

/** One fetch the source answered or holds: the range the counter issued for it, and its signal. */
export interface SourceCall {
	size: number;
	range: NumberRange;
	signal: AbortSignal;
	answer: () => void;
	fail: (error: Error) => void;
}

/**
 * Ranges from the real ordered counter (what a sequence's object runs), issued when
 * a fetch is called; `held` answers only when the test says (a slow or hung call).
 */
export class CounterSource {
	readonly calls: SourceCall[] = [];
	readonly settings: SequenceSettings;
	state: SequenceState;

	constructor(
		private readonly clock: Clock,
		private readonly held = false,
		settings: unknown = {},
	) {
		this.settings = checkSequenceSettings(settings);
		this.state = newSequenceState(this.settings, clock.now());
	}

	fetch = (size: number, signal: AbortSignal): Promise<NumberRange> => {
		const ruling = issueRange(this.state, this.settings, size, this.clock.now());
		if (!ruling.ok) return Promise.reject(ruling.refusal);
		this.state = ruling.state;
		const { first, last, period } = ruling.value;
		const range = { first, last, period };
		return new Promise((resolve, reject) => {
			this.calls.push({ size, range, signal, answer: () => resolve(range), fail: reject });
			if (!this.held) resolve(range);
		});
	};

	get sizes(): number[] {
		return this.calls.map((call) => call.size);
	}
}

/** Lets settled promises run their callbacks. */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
