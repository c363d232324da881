/**
 * `IdService`, the service's RPC entrypoint for other Workers (its class comment
 * below says how to bind it and how refusals cross).
 *
 *   const [id] = (await env.IDS.snowflake({ count: 1 })).ids;
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import { describeValue } from "../../ids/errors";
import type { DecodedId } from "../../ids/forms/decode";
import type { DecodedForeign } from "../../ids/forms/foreign-layouts";
import type {
	AcquireLeaseOptions,
	AdvanceSequenceOptions,
	CreateSequenceOptions,
	DecodeOptions,
	FleetLeases,
	FleetStats,
	FleetStatsOptions,
	IdRange,
	IdServiceRpc,
	LayoutInfo,
	LeaseGrant,
	LeaseRef,
	LeaseState,
	ListSequencesOptions,
	NextInSequenceOptions,
	RangeOptions,
	ReserveInSequenceOptions,
	RetireSequenceOptions,
	SequenceHistory,
	SequenceHistoryOptions,
	SequenceList,
	SequenceNumbers,
	SequenceRange,
	SequenceStatus,
	Settled,
	SettledRpc,
	SnowflakeBlocks,
	SnowflakeBlocksOptions,
	SnowflakeOptions,
	SnowflakeStatsInfo,
	StatsHistory,
	StatsHistoryOptions,
	TypeIdIds,
	TypeIdOptions,
	UlidOptions,
	UuidV7Options,
} from "../../wire";
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
	fleetStatsContract,
	sequenceHistoryContract,
	statsHistoryContract,
} from "../contracts/ops";
import {
	advanceContract,
	createContract,
	listContract,
	nextContract,
	reserveContract,
	retireContract,
	sequenceStatusContract,
} from "../contracts/sequences";
import { app } from "../http/app";
import {
	formOperations,
	leaseOperations,
	opsOperations,
	sequenceOperations,
	snowflakeOperations,
} from "../on-first-use";
import type { SnowflakeIds } from "../operations/snowflake";
import { type UlidIds, type UuidV7Ids, ulidIds, uuidv7Ids } from "../operations/stateless";
import { askedNote } from "../request-note";
import { leaseRefOf, rpcArgs, rpcCall } from "./rpc-call";
import { trustedEnv } from "./trusted-env";

/**
 * The service for other Workers, over a service binding:
 * `services = [{ binding = "IDS", service = "edge-ids", entrypoint = "IdService" }]`.
 * The HTTP routes' operations, contracts and values: a bad value gets HTTP's code and
 * message. Callers through a binding are trusted (no token). A failure rejects with an
 * Error whose message starts with its code (`invalid_count: …`), since only the message
 * crosses RPC; `idErrorCode(error)` (src/client) reads it back. `fetch` serves the HTTP
 * API too. `IdServiceRpc` (src/wire) is these methods as plain types.
 */
export class IdService extends WorkerEntrypoint<Env> implements IdServiceRpc, SettledRpc {
	async snowflake(options: SnowflakeOptions = {}): Promise<SnowflakeIds> {
		// A named worker ID is one object call; an auto call says how the pool served it.
		const asking = askedNote("snowflake", options);
		if (options?.workerId !== undefined) asking.source = "direct";
		return rpcCall(this.env, "snowflake", asking, async (config, note) => {
			const input = rpcArgs(snowflakeContract, config, options);
			const { body, source } = await (await snowflakeOperations()).snowflakeIds(
				this.env,
				config,
				input,
				{ background: (work) => this.ctx.waitUntil(work) },
			);
			note({ source });
			return body;
		});
	}

	/** Many IDs as `{first, count}` runs of one worker ID; `expandBlocks` (edge-ids/ids) lists them. */
	async snowflakeBlocks(options: SnowflakeBlocksOptions): Promise<SnowflakeBlocks> {
		return rpcCall(
			this.env,
			"snowflakeBlocks",
			askedNote("snowflake-blocks", options),
			async (config) =>
				(await snowflakeOperations()).snowflakeBlocks(
					this.env,
					config,
					rpcArgs(blocksContract, config, options),
				),
		);
	}

	async ulid(options: UlidOptions = {}): Promise<UlidIds> {
		return rpcCall(this.env, "ulid", askedNote("ulid", options), (config) =>
			ulidIds(config, rpcArgs(ulidContract, config, options)),
		);
	}

	async uuidv7(options: UuidV7Options = {}): Promise<UuidV7Ids> {
		return rpcCall(this.env, "uuidv7", askedNote("uuidv7", options), (config) =>
			uuidv7Ids(config, rpcArgs(uuidv7Contract, config, options)),
		);
	}

	/** UUIDv7s in TypeID form (`user_01j…`), monotonic with `uuidv7`'s; `prefix` omitted: bare TypeIDs. */
	async typeid(options: TypeIdOptions = {}): Promise<TypeIdIds> {
		return rpcCall(this.env, "typeid", askedNote("typeid", options), async (config) =>
			(await formOperations()).typeidIds(config, rpcArgs(typeidContract, config, options)),
		);
	}

	/** The tightest `[min, max]` of every ID of `kind` timed in `[from, to)`: `WHERE id BETWEEN`. */
	async range(options: RangeOptions): Promise<IdRange> {
		return rpcCall(this.env, "range", askedNote("range", options), async (config) =>
			(await formOperations()).idRange(config, rpcArgs(rangeContract, config, options)),
		);
	}

	/**
	 * What an ID says; `options` reads a Snowflake-like ID of another system:
	 * `{ layout: "discord" }` or explicit `{ timeBits, workerBits, sequenceBits, epoch?, timeUnitMs? }`.
	 */
	async decode(id: string, options: DecodeOptions = {}): Promise<DecodedId | DecodedForeign> {
		return rpcCall(this.env, "decode", {}, async (config) =>
			(await snowflakeOperations()).decode(
				config,
				rpcArgs(decodeContract, config, options, { id }),
			),
		);
	}

	/** The active Snowflake layout, as `GET /layout` answers it. */
	async layout(): Promise<LayoutInfo> {
		return rpcCall(this.env, "layout", {}, (config) => config.layout.toJSON());
	}

	/** A worker ID's object: IDs issued, requests, clock regressions, lease writes… */
	async stats(workerId: number): Promise<SnowflakeStatsInfo> {
		return rpcCall(this.env, "stats", askedNote("snowflake-stats", { workerId }), async (config) =>
			(await snowflakeOperations()).snowflakeStats(
				this.env,
				config,
				rpcArgs(statsContract, config, {}, { workerId }).workerId,
			),
		);
	}

	/** Every leased worker ID held or in grace, from the fleet catalog; never a leaseId. */
	async leases(): Promise<FleetLeases> {
		return rpcCall(this.env, "leases", { kind: "leases" }, async (config) =>
			(await opsOperations()).fleetLeases(this.env, config),
		);
	}

	/** A page of the worker IDs that have issued, then of the sequences, with counts, the fleet's totals and the layout's end. */
	async fleetStats(options: FleetStatsOptions = {}): Promise<FleetStats> {
		return rpcCall(this.env, "fleetStats", { kind: "fleet-stats" }, async (config) =>
			(await opsOperations()).fleetStats(
				this.env,
				config,
				rpcArgs(fleetStatsContract, config, options),
			),
		);
	}

	/** Per-minute counts of a worker ID, or of the fleet without one, for the last 1-1440 minutes. */
	async statsHistory(options: StatsHistoryOptions = {}): Promise<StatsHistory> {
		return rpcCall(this.env, "statsHistory", askedNote("stats-history", options), async (config) =>
			(await opsOperations()).statsHistory(
				this.env,
				config,
				rpcArgs(statsHistoryContract, config, options),
			),
		);
	}

	/**
	 * A span of a worker ID of LEASE_WORKER_IDS for a Snowflake generator of the
	 * caller's own (`createLeasedGenerator` in edge-ids/client runs one): the one
	 * named, or a free one. Keep its `leaseId` secret; renew every third of a span.
	 */
	async acquireLease(options: AcquireLeaseOptions = {}): Promise<LeaseGrant> {
		return rpcCall(this.env, "acquireLease", askedNote("lease", options), async (config, note) => {
			const { grant, probes } = await (await leaseOperations()).acquireLease(
				this.env,
				config,
				rpcArgs(acquireContract, config, options),
			);
			note({ probes });
			return grant;
		});
	}

	/** The lease's span moved on; `lease_lost` once released or taken over. */
	async renewLease(lease: LeaseRef): Promise<LeaseGrant> {
		return rpcCall(this.env, "renewLease", askedNote("lease", lease), async (config) =>
			(await leaseOperations()).renewLease(
				this.env,
				config,
				rpcArgs(renewContract, config, {}, leaseRefOf(lease)),
			),
		);
	}

	/** Frees the worker ID at once (the span's unused ticks are never issued again). */
	async releaseLease(lease: LeaseRef): Promise<void> {
		return rpcCall(this.env, "releaseLease", askedNote("lease", lease), async (config) =>
			(await leaseOperations()).releaseLease(
				this.env,
				config,
				rpcArgs(releaseContract, config, {}, leaseRefOf(lease)),
			),
		);
	}

	/** A worker ID's lease state (held, grace or free), holder label and span; never its leaseId. */
	async leaseStatus(workerId: number): Promise<LeaseState> {
		return rpcCall(
			this.env,
			"leaseStatus",
			askedNote("lease-status", { workerId }),
			async (config) =>
				(await leaseOperations()).leaseStatus(
					this.env,
					config,
					rpcArgs(leaseStatusContract, config, {}, { workerId }),
				),
		);
	}

	/** Creates the named sequence (or finds it with the same settings); `sequence_exists` with others. */
	async createSequence(name: string, settings?: CreateSequenceOptions): Promise<SequenceStatus> {
		return rpcCall(this.env, "createSequence", { kind: "sequence-create" }, async (config) => {
			const input = rpcArgs(createContract, config, settings, { name });
			const ops = await sequenceOperations();
			return (await ops.createSequence(this.env, ops.createInput(input))).status;
		});
	}

	/** `count` (default 1) consecutive numbers; `unknown_sequence` for a name never created. */
	async nextInSequence(name: string, options?: NextInSequenceOptions): Promise<SequenceNumbers> {
		return rpcCall(
			this.env,
			"nextInSequence",
			askedNote("sequence", options),
			async (config, note) => {
				const { count = 1 } = rpcArgs(nextContract, config, options, { name });
				note({ count });
				return (await sequenceOperations()).nextInSequence(
					this.env,
					config,
					{ name, count },
					(work) => this.ctx.waitUntil(work),
				);
			},
		);
	}

	/** A range of `count` numbers no one else gets, for a process that hands them out itself. */
	async reserveInSequence(name: string, options: ReserveInSequenceOptions): Promise<SequenceRange> {
		return rpcCall(
			this.env,
			"reserveInSequence",
			askedNote("sequence-range", options),
			async (config) =>
				(await sequenceOperations()).reserveInSequence(
					this.env,
					rpcArgs(reserveContract, config, options, { name }),
				),
		);
	}

	/** The next number becomes at least `to`, never less (moving from another counter). */
	async advanceSequence(name: string, options: AdvanceSequenceOptions): Promise<SequenceStatus> {
		return rpcCall(this.env, "advanceSequence", { kind: "sequence-advance" }, async (config) => {
			const input = rpcArgs(advanceContract, config, options, { name });
			const ops = await sequenceOperations();
			return ops.advanceSequence(this.env, ops.advanceInput(input));
		});
	}

	/** The sequence's settings, next number, counts and current period. */
	async sequenceStatus(name: string): Promise<SequenceStatus> {
		return rpcCall(this.env, "sequenceStatus", { kind: "sequence-status" }, async (config) =>
			(await sequenceOperations()).sequenceStatus(
				this.env,
				rpcArgs(sequenceStatusContract, config, {}, { name }),
			),
		);
	}

	/** Retires the sequence for good (`confirm`: its name again); its last status, `retiredAt` with it. */
	async retireSequence(name: string, options: RetireSequenceOptions): Promise<SequenceStatus> {
		return rpcCall(this.env, "retireSequence", { kind: "sequence-retire" }, async (config) =>
			(await sequenceOperations()).retireSequence(
				this.env,
				rpcArgs(retireContract, config, options, { name }),
			),
		);
	}

	/** A page of the sequence names created, in name order; pass the answer's `cursor` for the next. */
	async listSequences(options?: ListSequencesOptions): Promise<SequenceList> {
		return rpcCall(this.env, "listSequences", { kind: "sequence-list" }, async (config) =>
			(await sequenceOperations()).listSequences(this.env, rpcArgs(listContract, config, options)),
		);
	}

	/** Per-minute counts of the sequence for the last 1-1440 minutes (default 60), from its object. */
	async sequenceHistory(name: string, options?: SequenceHistoryOptions): Promise<SequenceHistory> {
		return rpcCall(this.env, "sequenceHistory", { kind: "sequence-history" }, async (config) =>
			(await sequenceOperations()).sequenceHistory(
				this.env,
				rpcArgs(sequenceHistoryContract, config, options, { name }),
			),
		);
	}

	/**
	 * Any method, its refusal answered as a value: `{ value }` or `{ error }` (the message).
	 * No rejection crosses, so workerd reports none as uncaught (`SettledRpc`, src/wire).
	 */
	async settle<M extends keyof IdServiceRpc>(
		method: M,
		...args: Parameters<IdServiceRpc[M]>
	): Promise<Settled<Awaited<ReturnType<IdServiceRpc[M]>>>> {
		// Checked by name at run time: a caller need not be typed.
		if (!settledMethods().has(method)) {
			return {
				error: `not_found: IdService has no method ${describeValue(method)}; it has ${[...settledMethods()].join(", ")}`,
			};
		}
		try {
			const call = this[method] as (...a: unknown[]) => Promise<never>;
			return { value: await call.apply(this, args) };
		} catch (error) {
			return { error: error instanceof Error ? error.message : String(error) };
		}
	}

	/** HTTP over the binding; like RPC, trusted: the token is not asked for. */
	override async fetch(request: Request): Promise<Response> {
		return app.fetch(request, trustedEnv(this.env), this.ctx);
	}
}

/** The methods `settle` may call: this entrypoint's own, but itself, `fetch` and the constructor. */
let settled: ReadonlySet<string> | undefined;
function settledMethods(): ReadonlySet<string> {
	settled ??= new Set(
		Object.getOwnPropertyNames(IdService.prototype).filter(
			(name) => !["constructor", "fetch", "settle"].includes(name),
		),
	);
	return settled;
}
