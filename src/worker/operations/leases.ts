/**
 * The worker-ID lease operations, behind both HTTP (`/leases`) and RPC
 * (`acquireLease`, `renewLease`, `releaseLease`, `leaseStatus`), as
 * ./snowflake.ts is for IDs. Each is one request to the worker ID's object,
 * except an acquire without a worker ID, which probes candidates (./lease-search.ts).
 * Each takes its input checked by its contract (../contracts/leases.ts). The Worker
 * makes the leaseId and sends the object only its hash.
 *
 *   const grant = await acquireLease(env, config, { holder: "pod-7" });
 *   // { workerId: 600, leaseId: "…", from, to, fromMs, toMs, serverNowMs, layout }
 */

import type { GrantedSpan } from "../../ids/leases/keeper";
import type { WorkerIdSet } from "../../ids/pools/worker-id-set";
import type { LeaseGrant, LeaseState } from "../../wire";
import type { Config } from "../config/config";
import type { ContractInput } from "../contracts/fields";
import {
	type acquireContract,
	leasedIds,
	type leaseStatusContract,
	type releaseContract,
	type renewContract,
} from "../contracts/leases";
import { limitsOf } from "../contracts/limits";
import { serviceError } from "../errors";
import { leaseHashOf, newLeaseId } from "../object/lease-secret";
import type { ObjectFailure } from "../object/object-answers";
import type { LeaseStatusResult, ReleaseResult, SpanResult } from "../object/object-protocol";
import { callObject, callSnowflake, refusalOf } from "../object/snowflake-calls";
import { spendAcquire } from "./lease-acquire-limit";
import { MAX_ACQUIRE_PROBES, probeOrder, searchFreeWorkerId } from "./lease-search";

/** A grant and how many objects were asked for it (for the log line). */
export interface Acquired {
	grant: LeaseGrant;
	probes: number;
}

/** What an acquire asks for. */
export type AcquireInput = ContractInput<typeof acquireContract>;

/**
 * A span of a worker ID for a holder: the one named (if free), else one of
 * LEASE_WORKER_IDS that is. `409 no_free_worker_id` with Retry-After when none of
 * those tried is free; `429 rate_limited` when the caller is over LEASE_ACQUIRE_LIMIT.
 */
export async function acquireLease(
	env: Env,
	config: Config,
	input: AcquireInput,
	/** The HTTP caller whose LEASE_ACQUIRE_LIMIT budget it spends; none (RPC): not limited. */
	caller?: string,
): Promise<Acquired> {
	leasedIds(limitsOf(config)); // 409 leases_disabled when off (the contract said so first)
	const leased = config.leaseWorkerIds as WorkerIdSet;
	const holder = input.holder ?? null;
	const named = input.workerId;
	await spendAcquire(env, config, caller);
	const leaseId = newLeaseId();
	const leaseHash = await leaseHashOf(leaseId);
	const probe = async (workerId: number, maxLeadMs: number | undefined) => {
		const result = await callObject<SpanResult>(env, config, workerId, (stub) =>
			stub.acquireLease(workerId, { leaseHash, holder, maxLeadMs }),
		);
		return result.ok ? { ok: true as const, value: result } : result;
	};
	if (named !== undefined) {
		const answer = await probe(named, undefined);
		if (!answer.ok) throw refusalOf(answer);
		return { grant: grantOf(config, named, leaseId, answer.value), probes: 1 };
	}
	const candidates = probeOrder(leased, MAX_ACQUIRE_PROBES, Math.random);
	const outcome = await searchFreeWorkerId(candidates, probe, (refusal) => {
		throw refusalOf(refusal as ObjectFailure);
	});
	if (!outcome.found) {
		throw serviceError(
			"no_free_worker_id",
			`no free worker ID among the ${candidates.length} of LEASE_WORKER_IDS (${leased}) tried: each is held by a holder or in its grace; retry later, or give LEASE_WORKER_IDS more worker IDs`,
			outcome.retryAfterSeconds ?? 1,
		);
	}
	const grant = grantOf(config, outcome.workerId, leaseId, outcome.value);
	return { grant, probes: outcome.probes };
}

/** The lease's span moved on (`to` at least a span past the object's clock), or `lease_lost`. */
export async function renewLease(
	env: Env,
	config: Config,
	input: ContractInput<typeof renewContract>,
): Promise<LeaseGrant> {
	const { workerId, leaseId } = input;
	const leaseHash = await leaseHashOf(leaseId);
	const result = await callSnowflake<SpanResult>(env, config, workerId, (stub) =>
		stub.renewLease(workerId, leaseHash),
	);
	return grantOf(config, workerId, leaseId, result);
}

/** Frees the worker ID at once; its span's unused tail is never issued again. */
export async function releaseLease(
	env: Env,
	config: Config,
	input: ContractInput<typeof releaseContract>,
): Promise<void> {
	const { workerId } = input;
	const leaseHash = await leaseHashOf(input.leaseId);
	await callSnowflake<ReleaseResult>(env, config, workerId, (stub) =>
		stub.releaseLease(workerId, leaseHash),
	);
}

/** The worker ID's lease state: held, grace or free, with its holder label and span; never its leaseId. */
export async function leaseStatus(
	env: Env,
	config: Config,
	{ workerId }: ContractInput<typeof leaseStatusContract>,
): Promise<LeaseState> {
	const { status, layout } = await callSnowflake<LeaseStatusResult>(env, config, workerId, (stub) =>
		stub.leaseStatus(workerId),
	);
	checkLayout(config, workerId, layout);
	return { workerId, ...status };
}

/** The answer to a holder: the span in ticks and ms, the object's clock, this layout. */
function grantOf(
	config: Config,
	workerId: number,
	leaseId: string,
	result: { span: GrantedSpan; layout: string },
): LeaseGrant {
	checkLayout(config, workerId, result.layout);
	const { layout } = config;
	const { from, to, serverNowMs } = result.span;
	return {
		workerId,
		leaseId,
		from,
		to,
		fromMs: layout.msOf(from),
		toMs: layout.msOf(to),
		serverNowMs,
		layout: layout.toJSON(),
	};
}

/** Ticks of another layout are other times (and other IDs): never hand them on. */
function checkLayout(config: Config, workerId: number, layout: string): void {
	const own = config.layout.fingerprint();
	if (layout === own) return;
	throw serviceError(
		"layout_mismatch",
		`worker ID ${workerId}'s object runs under another Snowflake layout (${layout}) than this Worker (${own}); deploy one layout everywhere`,
	);
}
