/**
 * Which contract each route reads and where its names come from: the path
 * (`/snowflake/:workerId`), the query, and for POST a JSON body too. Plain data, read
 * by the routes (./read-request.ts) and by the OpenAPI document (./openapi/), which
 * shows each route's parameters from the same declarations.
 *
 *   http.snowflakeNamedPost; // snowflake's contract: workerId from the path, the rest in the query or body
 */
import type { Contract } from "../contracts/fields";
import { namesTaken } from "../contracts/fields";
import * as forms from "../contracts/forms";
import * as ids from "../contracts/ids";
import * as leaf from "../contracts/leaf";
import * as leases from "../contracts/leases";
import * as ops from "../contracts/ops";
import * as sequences from "../contracts/sequences";

/** How a route reads an operation's contract; `P` the path's names, `W` those it takes nowhere. */
export interface HttpInput<
	C extends Contract = Contract,
	P extends string = string,
	W extends string = string,
	B extends boolean = boolean,
> {
	readonly contract: C;
	/** Names read from the path (`/snowflake/:workerId`). */
	readonly path: readonly P[];
	/** Names the route takes nowhere (`/snowflake` picks the worker ID itself). */
	readonly without: readonly W[];
	/** Whether a JSON body may carry the open names (POST). */
	readonly body: B;
	/** Whether the query may carry them (not the lease routes: a leaseId or label stays out of URLs). */
	readonly query: boolean;
}

function httpInput<
	C extends Contract,
	const P extends string = never,
	const W extends string = never,
	const B extends boolean = false,
>(
	contract: C,
	how: { path?: readonly P[]; without?: readonly W[]; body?: B; query?: boolean } = {},
): HttpInput<C, P, W, B> {
	return {
		contract,
		path: how.path ?? [],
		without: how.without ?? [],
		body: how.body ?? (false as B),
		query: how.query ?? true,
	};
}

/** The names a route's body may carry. */
export function openNames(input: HttpInput): string[] {
	return namesTaken(input.contract, [...input.path, ...input.without]);
}

/** The names a route's query may carry. */
export function queryNames(input: HttpInput): string[] {
	return input.query ? openNames(input) : [];
}

const auto = { without: ["workerId"] } as const;
const named = { path: ["workerId"] } as const;
const withBody = { body: true } as const;
/** The sequence routes: `/sequences/:name/…`. */
const sequence = { path: ["name"] } as const;
/** The Leaf routes: `/api/…/get/:key`. */
const leafKey = { path: ["key"] } as const;
/** The lease routes: the body only, never the URL's query. */
const bodyOnly = { body: true, query: false } as const;

export const http = {
	snowflakeAuto: httpInput(ids.snowflakeContract, auto),
	snowflakeAutoPost: httpInput(ids.snowflakeContract, { ...auto, ...withBody }),
	snowflakeNamed: httpInput(ids.snowflakeContract, named),
	snowflakeNamedPost: httpInput(ids.snowflakeContract, { ...named, ...withBody }),
	blocksAuto: httpInput(ids.blocksContract, auto),
	blocksAutoPost: httpInput(ids.blocksContract, { ...auto, ...withBody }),
	blocksNamed: httpInput(ids.blocksContract, named),
	blocksNamedPost: httpInput(ids.blocksContract, { ...named, ...withBody }),
	stats: httpInput(ids.statsContract, named),
	ulid: httpInput(ids.ulidContract),
	ulidPost: httpInput(ids.ulidContract, withBody),
	uuidv7: httpInput(ids.uuidv7Contract),
	uuidv7Post: httpInput(ids.uuidv7Contract, withBody),
	typeid: httpInput(ids.typeidContract),
	typeidPost: httpInput(ids.typeidContract, withBody),
	range: httpInput(forms.rangeContract),
	decode: httpInput(forms.decodeContract, { path: ["id"] }),
	acquire: httpInput(leases.acquireContract, bodyOnly),
	/** `POST /leases/:workerId/renew` with `{"leaseId": …}`. */
	renew: httpInput(leases.renewContract, { ...named, ...bodyOnly }),
	/** `POST /leases/:workerId/release` with `{"leaseId": …}`. */
	release: httpInput(leases.releaseContract, { ...named, ...bodyOnly }),
	leaseStatus: httpInput(leases.leaseStatusContract, { ...named, query: false }),
	fleetLeases: httpInput(ops.fleetLeasesContract),
	fleetStats: httpInput(ops.fleetStatsContract),
	metrics: httpInput(ops.metricsContract),
	fleetHistory: httpInput(ops.statsHistoryContract, auto),
	workerIdHistory: httpInput(ops.statsHistoryContract, named),
	/** `PUT /sequences/:name` with its settings. */
	sequenceCreate: httpInput(sequences.createContract, { ...sequence, ...withBody }),
	sequenceNext: httpInput(sequences.nextContract, sequence),
	sequenceNextPost: httpInput(sequences.nextContract, { ...sequence, ...withBody }),
	sequenceReserve: httpInput(sequences.reserveContract, { ...sequence, ...withBody }),
	/** `POST /sequences/:name/advance` with `{"to": N}`. */
	sequenceAdvance: httpInput(sequences.advanceContract, { ...sequence, ...withBody }),
	sequenceStatus: httpInput(sequences.sequenceStatusContract, sequence),
	/** `DELETE /sequences/:name` with `{"confirm": name}`: the body only. */
	sequenceRetire: httpInput(sequences.retireContract, { ...sequence, ...bodyOnly }),
	sequenceList: httpInput(sequences.listContract),
	sequenceHistory: httpInput(ops.sequenceHistoryContract, sequence),
	/** leaf-server's routes: `/api/segment/get/:key`, `/api/snowflake/get/:key`, `/decodeSnowflakeId`. */
	leafSegment: httpInput(leaf.leafSegmentContract, leafKey),
	leafSegmentPost: httpInput(leaf.leafSegmentContract, { ...leafKey, ...withBody }),
	leafSnowflake: httpInput(leaf.leafSnowflakeContract, leafKey),
	leafSnowflakePost: httpInput(leaf.leafSnowflakeContract, { ...leafKey, ...withBody }),
	leafDecode: httpInput(leaf.leafDecodeContract),
};
