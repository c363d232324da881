/**
 * What a lease holder (lease-holder.ts) needs of the service, as plain structural
 * types: `idsClient` and an `IdService` binding both have these methods (the wire
 * types in src/wire/index.ts carry more fields). Also the holder's checks of an answer
 * and its own refusals, each documented by when it is returned.
 */
import { describeValue, IdError, type IdErrorCode } from "../../errors";
import { type LayoutConfig, SnowflakeLayout } from "../../snowflake/layout";

/** The codes a holder rejects with: the core's, and these of its own or the service's. */
export type LeaseHolderErrorCode =
	| IdErrorCode
	| "lease_expired"
	| "lease_lost"
	| "layout_mismatch"
	| "aborted";

/** A grant as the holder reads it: a span `[from, to)` of ticks of `workerId`. */
export interface LeaseGrantFields {
	workerId: number;
	leaseId: string;
	from: number;
	to: number;
	serverNowMs: number;
	layout: LayoutConfig;
}

export interface LeaseRefFields {
	workerId: number;
	leaseId: string;
}

/** The service's lease methods (`LeaseRpc` in src/wire/index.ts). A failure carries its code. */
export interface LeaseSource {
	acquireLease(options?: {
		holder?: string | undefined;
		workerId?: number | undefined;
	}): PromiseLike<LeaseGrantFields>;
	/** `call.signal` aborts when the holder gives up on the renewal (its deadline passed). */
	renewLease(
		lease: LeaseRefFields,
		call?: { signal?: AbortSignal | undefined },
	): PromiseLike<LeaseGrantFields>;
	releaseLease(lease: LeaseRefFields): PromiseLike<unknown>;
}

/**
 * A failure's code: an error's `code` (the HTTP client's `IdsError`, the core's
 * `IdError`), else the code its message starts with (an RPC rejection).
 */
export function failureCode(error: unknown): string | undefined {
	const code = (error as { code?: unknown } | null)?.code;
	if (typeof code === "string") return code;
	if (error instanceof Error) return /^([a-z_]+): /.exec(error.message)?.[1];
	return undefined;
}

/**
 * The seconds a refusal asks to wait: an error's `retryAfter` (the HTTP client's
 * `IdsError`) or `retryAfterSeconds` (the core's `IdError`), else the
 * `(retry after N s)` an RPC rejection's message ends with.
 */
export function failureRetryAfter(error: unknown): number | undefined {
	const fields = error as { retryAfter?: unknown; retryAfterSeconds?: unknown } | null;
	const seconds = fields?.retryAfter ?? fields?.retryAfterSeconds;
	if (typeof seconds === "number") return Number.isFinite(seconds) ? seconds : undefined;
	if (!(error instanceof Error)) return undefined;
	const match = /\(retry after ([0-9]+) s\)$/.exec(error.message);
	return match ? Number(match[1]) : undefined;
}

/**
 * The grant once it is one: integer ticks with `from < to` inside the layout, a
 * worker ID of the layout, a lease ID, a finite clock reading. Throws `internal`
 * naming the field otherwise (an answer that is not the service's), and
 * `invalid_config` when its layout is not a valid one.
 */
export function checkedGrant(grant: LeaseGrantFields): {
	grant: LeaseGrantFields;
	layout: SnowflakeLayout;
} {
	const layout = new SnowflakeLayout(grant.layout);
	const { workerId, leaseId, from, to, serverNowMs } = grant;
	const wrong = (field: string, value: unknown) =>
		new IdError(
			"internal",
			`a lease answer's ${field} is ${describeValue(value)}; the service answers integer ticks with from < to within its layout, a worker ID of the layout, a lease ID and its clock reading`,
		);
	if (!Number.isSafeInteger(workerId) || workerId < 0 || workerId > layout.maxWorkerId) {
		throw wrong("workerId", workerId);
	}
	if (typeof leaseId !== "string" || leaseId === "") throw wrong("leaseId", leaseId);
	if (!Number.isSafeInteger(from) || from < 0) throw wrong("from", from);
	if (!Number.isSafeInteger(to) || to <= from || to > layout.tickLimit) throw wrong("to", to);
	if (!Number.isFinite(serverNowMs)) throw wrong("serverNowMs", serverNowMs);
	return { grant, layout };
}

/** Returned when a later grant's layout is not the one the holder's first grant named. */
export function layoutChanged(
	first: SnowflakeLayout,
	now: SnowflakeLayout,
): IdError<LeaseHolderErrorCode> {
	return new IdError<LeaseHolderErrorCode>(
		"layout_mismatch",
		`the service's layout changed from ${first.fingerprint()} to ${now.fingerprint()} while this generator ran; IDs under two layouts do not compare, so it issues no more (make a new one)`,
	);
}

/** Returned when the span ended and no renewal extended it within `maxWaitMs`. */
export function leaseExpired(
	workerId: number,
	endMs: number,
	maxWaitMs: number,
): IdError<LeaseHolderErrorCode> {
	return new IdError<LeaseHolderErrorCode>(
		"lease_expired",
		`worker ID ${workerId}'s leased span ended at ${new Date(endMs).toISOString()} (the service's clock) and no renewal extended it within ${maxWaitMs} ms; the service is unreachable or slow: retry shortly`,
		1,
	);
}

/** What lies ahead of the service's clock in `spanAhead`, and why. */
const AHEAD = {
	span: (ms: number) =>
		`leased span starts ${ms} ms ahead of the service's clock (its last holder released it moments ago, so the span begins after the last one ended)`,
	lastId: (ms: number) =>
		`last ID lies ${ms} ms ahead of the service's clock (this holder had followed a service clock that stepped ahead, then back; IDs only go up)`,
};

/**
 * Returned when the next tick a holder may issue lies further ahead of the service's
 * clock than one call may wait: a fresh span that starts ahead, or (`lastId`) the
 * holder's last ID after its clock stepped back.
 */
export function spanAhead(
	workerId: number,
	aheadMs: number,
	maxWaitMs: number,
	what: keyof typeof AHEAD = "span",
): IdError<LeaseHolderErrorCode> {
	return new IdError<LeaseHolderErrorCode>(
		"overloaded",
		`worker ID ${workerId}'s ${AHEAD[what](Math.ceil(aheadMs))}, more than the ${maxWaitMs} ms one call waits; retry then`,
		Math.max(1, Math.ceil(aheadMs / 1000)),
	);
}

/**
 * Returned, without asking the service, while a refused acquire's `Retry-After` runs:
 * the refusal's code and the seconds left (also at the message's end, where
 * `idRetryAfter` reads it).
 */
export function acquireDeferred(code: string, leftMs: number): IdError<string> {
	const seconds = Math.max(1, Math.ceil(leftMs / 1000));
	return new IdError<string>(
		code,
		`the service refused a worker-ID lease (${code}) and asked this holder to wait before it asks again; no acquire is sent until then (retry after ${seconds} s)`,
		seconds,
	);
}

/** Returned when the lease was lost again and again within one call. */
export function leaseLostRepeatedly(attempts: number): IdError<LeaseHolderErrorCode> {
	return new IdError<LeaseHolderErrorCode>(
		"lease_lost",
		`the worker-ID lease was lost ${attempts} times within one call (every new lease was released or replaced at once); retry shortly`,
		1,
	);
}

/** Returned by calls made after `close()` or an abort, and by calls they cut short. */
export function holderClosed(aborted: boolean): IdError<LeaseHolderErrorCode> {
	return new IdError<LeaseHolderErrorCode>(
		"aborted",
		aborted
			? "the leased generator was aborted (its signal); it issues no more IDs"
			: "the leased generator was closed; it issues no more IDs",
	);
}

/** A wait or lead option: a finite number of ms, at least 0. */
export function checkMs(name: string, value: number): number {
	// Stryker disable next-line ConditionalExpression: Number.isFinite is false for every value that is no number
	if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value;
	throw new IdError(
		"invalid_config",
		`${name} must be a finite number of ms, at least 0; got ${String(value)}`,
	);
}
