/**
 * The errors of the ID core. Each is an `IdError` whose `code` says what failed;
 * the service around the core adds its own codes (see src/worker/errors.ts) and
 * maps every code to an HTTP status, and RPC callers read the code from the
 * message.
 *
 *   try {
 *     factory.nextBatch(Date.now(), 10);
 *   } catch (error) {
 *     if (error instanceof IdError && error.code === "overloaded") retryLater(error.retryAfterSeconds);
 *   }
 */
export type IdErrorCode =
	/** Returned when a worker ID is outside the layout's worker field or the owned set. */
	| "invalid_worker_id"
	/** Returned when a batch size is not an integer in the allowed range. */
	| "invalid_count"
	/** Returned when a text is not a Snowflake, ULID or UUID, or is out of its range. */
	| "invalid_id"
	/** Returned when a layout to decode with is unknown or impossible (a request's, not the config's). */
	| "invalid_layout"
	/** Returned when a text form asked for is not one the kind has (`format`). */
	| "invalid_format"
	/** Returned when a TypeID or Snowflake prefix breaks TypeID's rule (`^([a-z]([a-z_]*[a-z])?)?$`, at most 63 characters). */
	| "invalid_prefix"
	/** Returned when a time window for ID bounds is empty, reversed, unreadable or outside the kind's time range. */
	| "invalid_range"
	/** Returned when a layout or a worker-ID set does not validate. */
	| "invalid_config"
	/** Returned when the clock has passed the last instant a layout (or a 48-bit time) can represent. */
	| "layout_exhausted"
	/** Returned when the clock went back further than the generator may wait out. */
	| "clock_regression"
	/** Returned when a generator cannot issue more in this tick without repeating (retry shortly). */
	| "overloaded"
	/** Returned when the host gives the core something impossible, e.g. a negative clock reading. */
	| "internal";

/**
 * A failure with a machine-readable code and a human-readable detail.
 * `Code` is the core's codes unless a wider union is named explicitly
 * (`new IdError<ServiceErrorCode>(…)`), so the core cannot raise a code it does
 * not declare.
 */
export class IdError<Code extends string = IdErrorCode> extends Error {
	override readonly name = "IdError";
	readonly code: Code;
	/** What was wrong and what is allowed, without the code prefix. */
	readonly detail: string;
	/** For retryable refusals (clock_regression, overloaded): seconds until a retry can succeed. */
	readonly retryAfterSeconds: number | undefined;

	constructor(code: NoInfer<Code>, detail: string, retryAfterSeconds?: number) {
		// The message starts with the code because only the message survives an
		// RPC boundary (own properties of a thrown error are dropped).
		super(`${code}: ${detail}`);
		this.code = code;
		this.detail = detail;
		this.retryAfterSeconds = retryAfterSeconds;
	}
}

/** The most characters of a refused value a message repeats. */
export const SHOWN_CHARS = 64;

/**
 * A value as an error message shows it: text quoted and numbers as written, each cut
 * to 64 characters; anything else by its type (`a bigint 5n`, `an array of 3 items`,
 * `an object`, `a function`, `a symbol`). Never throws and never runs the value's own
 * code (no `toJSON`, no `toString`), whatever a caller sent: a BigInt, a cycle, a
 * 100 KB array.
 *
 *   describeValue("fast");        // "\"fast\""
 *   describeValue(5n);            // "a bigint 5n"
 *   describeValue([1, 2, 3]);     // "an array of 3 items"
 */
export function describeValue(value: unknown): string {
	switch (typeof value) {
		case "string":
			return JSON.stringify(cut(value));
		case "number":
		case "boolean":
		case "undefined":
			return String(value);
		case "bigint":
			return `a bigint ${cut(`${value}`)}n`;
		case "symbol":
			return "a symbol";
		case "function":
			return "a function";
	}
	if (value === null) return "null";
	if (Array.isArray(value)) {
		return `an array of ${value.length} item${value.length === 1 ? "" : "s"}`;
	}
	return "an object";
}

function cut(text: string): string {
	return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
}

/** The smallest and largest count a call accepts, and how it must be written (for messages). */
export interface CountRule {
	min: number;
	max: number;
	/** Appended to the range in messages, e.g. "written once in decimal digits". */
	spelling?: string;
}

/** Returned when `got` is not an integer in `[rule.min, rule.max]`. */
export function invalidCount(rule: CountRule, got: unknown): IdError {
	const spelling = rule.spelling ? `, ${rule.spelling}` : "";
	return new IdError(
		"invalid_count",
		`count must be an integer in [${rule.min}, ${rule.max}]${spelling}; got ${describeValue(got)}`,
	);
}

/**
 * The one count check of the project: the count itself when it is an integer in
 * `[rule.min, rule.max]`, else `invalid_count`. The generators accept any batch
 * size they can produce; the service narrows it to `[1, MAX_BATCH]`.
 *
 *   checkCount(5, { min: 1, max: 10_000 }); // 5
 *   checkCount(0, { min: 1, max: 10_000 }); // throws invalid_count: count must be an integer in [1, 10000]; got 0
 */
export function checkCount(count: unknown, rule: CountRule): number {
	if (
		// Stryker disable next-line ConditionalExpression: Number.isInteger is false for every non-number too; the typeof narrows the type
		typeof count === "number" &&
		Number.isInteger(count) &&
		count >= rule.min &&
		count <= rule.max
	) {
		return count;
	}
	throw invalidCount(rule, count);
}
