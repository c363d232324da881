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
import { decodeContract, rangeContract } from "../contracts/forms";
import {
	blocksContract,
	snowflakeContract,
	statsContract,
	typeidContract,
	ulidContract,
	uuidv7Contract,
} from "../contracts/ids";
import {
	acquireContract,
	leaseStatusContract,
	releaseContract,
	renewContract,
} from "../contracts/leases";
import {
	fleetLeasesContract,
	fleetStatsContract,
	metricsContract,
	statsHistoryContract,
} from "../contracts/ops";
import {
	advanceContract,
	createContract,
	listContract,
	nextContract,
	reserveContract,
	sequenceStatusContract,
} from "../contracts/sequences";

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
/** The lease routes: the body only, never the URL's query. */
const bodyOnly = { body: true, query: false } as const;

export const http = {
	snowflakeAuto: httpInput(snowflakeContract, auto),
	snowflakeAutoPost: httpInput(snowflakeContract, { ...auto, ...withBody }),
	snowflakeNamed: httpInput(snowflakeContract, named),
	snowflakeNamedPost: httpInput(snowflakeContract, { ...named, ...withBody }),
	blocksAuto: httpInput(blocksContract, auto),
	blocksAutoPost: httpInput(blocksContract, { ...auto, ...withBody }),
	blocksNamed: httpInput(blocksContract, named),
	blocksNamedPost: httpInput(blocksContract, { ...named, ...withBody }),
	stats: httpInput(statsContract, named),
	ulid: httpInput(ulidContract),
	ulidPost: httpInput(ulidContract, withBody),
	uuidv7: httpInput(uuidv7Contract),
	uuidv7Post: httpInput(uuidv7Contract, withBody),
	typeid: httpInput(typeidContract),
	typeidPost: httpInput(typeidContract, withBody),
	range: httpInput(rangeContract),
	decode: httpInput(decodeContract, { path: ["id"] }),
	acquire: httpInput(acquireContract, bodyOnly),
	/** `POST /leases/:workerId/renew` with `{"leaseId": …}`. */
	renew: httpInput(renewContract, { ...named, ...bodyOnly }),
	/** `POST /leases/:workerId/release` with `{"leaseId": …}`. */
	release: httpInput(releaseContract, { ...named, ...bodyOnly }),
	leaseStatus: httpInput(leaseStatusContract, { ...named, query: false }),
	fleetLeases: httpInput(fleetLeasesContract),
	fleetStats: httpInput(fleetStatsContract),
	metrics: httpInput(metricsContract),
	fleetHistory: httpInput(statsHistoryContract, auto),
	workerIdHistory: httpInput(statsHistoryContract, named),
	/** `PUT /sequences/:name` with its settings. */
	sequenceCreate: httpInput(createContract, { ...sequence, ...withBody }),
	sequenceNext: httpInput(nextContract, sequence),
	sequenceNextPost: httpInput(nextContract, { ...sequence, ...withBody }),
	sequenceReserve: httpInput(reserveContract, { ...sequence, ...withBody }),
	/** `POST /sequences/:name/advance` with `{"to": N}`. */
	sequenceAdvance: httpInput(advanceContract, { ...sequence, ...withBody }),
	sequenceStatus: httpInput(sequenceStatusContract, sequence),
	sequenceList: httpInput(listContract),
};
