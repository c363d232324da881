/**
 * One call's deadline: a timer of `timeoutMs` and the callers' AbortSignals,
 * merged into one signal (handed to fetch, so the request itself is cancelled)
 * and one `race` (so the call ends even when a custom fetch or an RPC stub
 * ignores the signal). Its reason is an `IdsError`: `timeout` or `aborted`.
 */
import { IdsError } from "./errors";

/** The longest timer the runtimes keep (2^31 - 1 ms); a longer one fires at once. */
const MAX_TIMEOUT_MS = 2_147_483_647;

export interface Deadline {
	/** Aborted when the deadline passes or a caller's signal aborts; its reason is the IdsError. */
	readonly signal: AbortSignal;
	/** `work` (a promise, any thenable or a plain value), or the deadline's IdsError when the deadline comes first. */
	race<T>(work: T | PromiseLike<T>): Promise<T>;
	/** The deadline's IdsError once it has passed (whatever the work threw for it), else `error`. */
	blame(error: unknown): unknown;
	/** Clears the timer and the listeners (call it when the call settles). */
	end(): void;
}

/**
 * Throws `invalid_config` unless `value` is a number of ms a timer can wait
 * (`name` says which option it is).
 */
export function checkTimeoutMs(name: string, value: number): number {
	if (typeof value === "number" && Number.isFinite(value) && value > 0 && value <= MAX_TIMEOUT_MS) {
		return value;
	}
	throw new IdsError(
		"invalid_config",
		`${name} must be a number of milliseconds in (0, ${MAX_TIMEOUT_MS}]; got ${typeof value === "string" ? JSON.stringify(value) : String(value)}`,
		undefined,
		undefined,
	);
}

/** Starts the deadline of one call (`what` names it in the timeout's message). */
export function startDeadline(
	timeoutMs: number,
	signals: readonly (AbortSignal | undefined)[],
	what: string,
): Deadline {
	const controller = new AbortController();
	const timer = setTimeout(() => {
		controller.abort(
			new IdsError("timeout", `${what} had no answer within ${timeoutMs} ms`, undefined, undefined),
		);
	}, timeoutMs);
	const unlisten: (() => void)[] = [];
	const abortBy = (signal: AbortSignal) => {
		controller.abort(
			new IdsError("aborted", `${what} was aborted by the caller's signal`, undefined, undefined, {
				cause: signal.reason,
			}),
		);
	};
	for (const signal of signals) {
		if (!signal) continue;
		if (signal.aborted) {
			abortBy(signal);
			break;
		}
		const listener = () => abortBy(signal);
		signal.addEventListener("abort", listener, { once: true });
		unlisten.push(() => signal.removeEventListener("abort", listener));
	}
	const { signal } = controller;
	return {
		signal,
		race<T>(work: T | PromiseLike<T>): Promise<T> {
			return new Promise<T>((resolve, reject) => {
				const onAbort = () => reject(signal.reason);
				const settle = () => signal.removeEventListener("abort", onAbort);
				// Handled even when the deadline has passed, so a late rejection is never unhandled.
				Promise.resolve(work).then(
					(value) => {
						settle();
						resolve(value);
					},
					(error: unknown) => {
						settle();
						reject(error);
					},
				);
				if (signal.aborted) onAbort();
				else signal.addEventListener("abort", onAbort, { once: true });
			});
		},
		blame(error: unknown): unknown {
			return signal.aborted && signal.reason instanceof IdsError ? signal.reason : error;
		},
		end() {
			clearTimeout(timer);
			for (const remove of unlisten) remove();
		},
	};
}
