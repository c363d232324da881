/**
 * What one request or RPC call's log line says about what it asked for and how it
 * was served, shared by both transports' loggers (./http/middleware/request-log.ts for
 * HTTP, ./rpc/rpc-call.ts for RPC), so neither imports the other.
 */
/**
 * Every `kind` a log line can name: what was asked for. docs/PRODUCTION.md lists them
 * ("Monitoring"), and a docs test holds that list to this one.
 */
export const REQUEST_KINDS = [
	"snowflake",
	"snowflake-blocks",
	"snowflake-stats",
	"ulid",
	"uuidv7",
	"typeid",
	"range",
	"lease",
	"lease-status",
	"leases",
	"fleet-stats",
	"stats-history",
	"metrics",
	"sequence",
	"sequence-range",
	"sequence-create",
	"sequence-advance",
	"sequence-status",
	"sequence-list",
	"sequence-history",
	"sequence-retire",
	"leaf-segment",
	"leaf-snowflake",
] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

/** What a handler may add to its request's log line. */
export interface RequestNote {
	/** What was asked for (REQUEST_KINDS). */
	kind?: RequestKind;
	/** The worker ID named, or (on success) the one an auto request used. */
	workerId?: number;
	/** How many IDs were asked for (on success, answered). */
	count?: number;
	/** Whether Snowflakes came from the isolate's pool or straight from an object call. */
	source?: "pool" | "direct";
	/** Objects asked for a lease acquire (one per candidate worker ID probed). */
	probes?: number;
	/**
	 * Which configured token authorized the request: `current` (API_TOKEN) or `next`
	 * (API_TOKEN_NEXT, during a rotation). Never the token itself.
	 */
	token?: "current" | "next";
}

/**
 * What a request or RPC call asks for, as its log line names it: the worker ID
 * and count only when they are safe integers (never an unparsable or huge input).
 */
export function askedNote(
	kind: RequestKind,
	asked: { workerId?: unknown; count?: unknown } | null | undefined,
): RequestNote {
	const note: RequestNote = { kind };
	if (Number.isSafeInteger(asked?.workerId)) note.workerId = asked?.workerId as number;
	if (Number.isSafeInteger(asked?.count)) note.count = asked?.count as number;
	return note;
}
