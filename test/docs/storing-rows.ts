/**
 * The orders docs/STORING.md's snippets store: made in three adjacent one-second
 * windows, each window holding its first and last possible Snowflake (worker ID 0,
 * sequence 0 at its first millisecond; the largest worker ID and sequence at its
 * last), so a bound one off selects a row too many or too few. Every ID of a row
 * is made at the same millisecond, so each column's range selects the same rows.
 */
import {
	type BoundsKind,
	idBounds,
	SnowflakeLayout,
	snowflakeText,
	TWITTER_LAYOUT,
	TypeIdFactory,
	UlidFactory,
	UuidV7Factory,
} from "../../src/ids";

export interface Order {
	id: string;
	ref: string;
	sessionId: string;
	traceId: string;
	userId: string;
}

export interface Window {
	from: number;
	to: number;
}

const layout = new SnowflakeLayout(TWITTER_LAYOUT);
const START = Date.parse("2026-11-01T09:30:00Z");
export const WINDOWS: Window[] = [0, 1, 2].map((i) => ({
	from: START + i * 1000,
	to: START + (i + 1) * 1000,
}));

/** Milliseconds into a window, with the fields of the Snowflake made then. */
const MOMENTS = [
	{ offset: 0, workerId: 0, sequence: 0 },
	{ offset: 1, workerId: 7, sequence: 3 },
	{ offset: 500, workerId: 512, sequence: 2048 },
	{ offset: 999, workerId: layout.maxWorkerId, sequence: layout.maxSequence },
];

function makeOrders(): Order[][] {
	const ulids = new UlidFactory();
	const uuids = new UuidV7Factory();
	const users = new TypeIdFactory("user");
	return WINDOWS.map(({ from }) =>
		MOMENTS.map(({ offset, workerId, sequence }) => {
			const ms = from + offset;
			const id = layout.compose({ tick: layout.tickOf(ms), workerId, sequence });
			return {
				id: id.toString(),
				ref: snowflakeText(id, { format: "base32", prefix: "order" }),
				sessionId: ulids.next(ms),
				traceId: uuids.next(ms),
				userId: users.next(ms),
			};
		}),
	);
}

/** The orders of each window, in ID order. */
export const ORDERS_BY_WINDOW = makeOrders();

/** Every order, in an insertion order that is not ID order (last window first, each reversed). */
export const ALL_ORDERS = ORDERS_BY_WINDOW.flatMap((orders) => [...orders].reverse()).reverse();

/** An ID column of the doc's table, the kind of bounds it takes, and the order field it holds. */
export interface IdColumn {
	column: "id" | "ref" | "session_id" | "trace_id" | "user_id";
	field: keyof Order;
	bounds(window: Window): { min: string; max: string };
}

/** What `/range` answers (idBounds is its computation) for each column of the doc's table. */
function boundsOf(kind: BoundsKind, prefix?: string) {
	return (window: Window) => idBounds({ kind, ...window, layout, prefix });
}

export const ID_COLUMNS: IdColumn[] = [
	{ column: "id", field: "id", bounds: boundsOf("snowflake") },
	{ column: "ref", field: "ref", bounds: boundsOf("snowflake", "order") },
	{ column: "session_id", field: "sessionId", bounds: boundsOf("ulid") },
	{ column: "trace_id", field: "traceId", bounds: boundsOf("uuidv7") },
	{ column: "user_id", field: "userId", bounds: boundsOf("typeid", "user") },
];

/** The Snowflake the doc's table shows rounded by a driver that reads numbers. */
export const ROUNDED_EXAMPLE = { id: "2125669199362674745", asNumber: "2125669199362674700" };
