/**
 * Calls to the Snowflake Durable Objects: the stub of a worker ID's object (placed
 * in its region), the retry and error policy around a call, and the layout check
 * on what it issued. The operations (../operations/snowflake.ts) are its only callers.
 */
import type { IssuedRuns } from "../../ids/pools/id-pool";
import type { IdRun } from "../../ids/snowflake/generator";
import type { Config } from "../config/config";
import { placementFor } from "../config/placement";
import { serviceError } from "../errors";
import type { ObjectFailure } from "./object-answers";
import { callWithRetry } from "./object-answers";
import type { IssueResult, SnowflakeStub } from "./object-protocol";

/** The worker ID's object, created in its region (AUTO_REGIONS) if this is its first use. */
function snowflakeStub(env: Env, config: Config, workerId: number): SnowflakeStub {
	const id = env.SNOWFLAKE.idFromName(String(workerId));
	return env.SNOWFLAKE.get(id, placementFor(config, workerId));
}

/**
 * Calls a worker ID's object and answers what it answered, its refusals included
 * (as values). A Durable Object error marked `.overloaded` is answered 503 at once
 * (retrying adds load); one marked `.retryable` is tried once more on a fresh stub.
 * A retried call may waste IDs, never repeat them. An object of an earlier version
 * (mid-deployment) without the method called is `503 unavailable`, and so is a
 * refusal with a code this version does not know (an object of a later one).
 */
export async function callObject<T extends { ok: true } | ObjectFailure>(
	env: Env,
	config: Config,
	workerId: number,
	call: (stub: SnowflakeStub) => Promise<T>,
): Promise<T> {
	return callWithRetry(
		() => snowflakeStub(env, config, workerId),
		call,
		`worker ID ${workerId}`,
		" or spread load over more worker IDs",
	);
}

/** `callObject`, with a refusal thrown as the service error it names. */
export async function callSnowflake<T extends { ok: true } | ObjectFailure>(
	env: Env,
	config: Config,
	workerId: number,
	call: (stub: SnowflakeStub) => Promise<T>,
): Promise<Extract<T, { ok: true }>> {
	const result = await callObject(env, config, workerId, call);
	if (result.ok) return result as Extract<T, { ok: true }>;
	throw refusalOf(result as ObjectFailure);
}

/** The service error an object's refusal names. */
export function refusalOf(failure: ObjectFailure) {
	return serviceError(failure.code, failure.detail, failure.retryAfterSeconds);
}

/**
 * `count` IDs of `workerId` as runs, from its object, checked to be issued under
 * this Worker's layout: during a gradual deployment the object may run another
 * version than the Worker, and runs of another layout formatted with this one
 * would be other worker IDs' IDs.
 */
export async function issueRuns(
	env: Env,
	config: Config,
	workerId: number,
	count: number,
): Promise<IdRun[]> {
	const result = await callSnowflake<IssueResult>(env, config, workerId, (stub) =>
		stub.issue(workerId, count),
	);
	const own = config.layout.fingerprint();
	if (result.layout === own) return result.runs;
	if (result.layout === undefined) {
		// An object of the previous version, which does not say its layout: wait for it to update.
		throw serviceError(
			"unavailable",
			`worker ID ${workerId}'s object runs an older version of the service; retry shortly`,
			1,
		);
	}
	throw serviceError(
		"layout_mismatch",
		`worker ID ${workerId}'s object issues under another Snowflake layout (${result.layout}) than this Worker (${own}); deploy one layout everywhere`,
	);
}

/** `count` IDs of `workerId`, as the block the pools and operations hand on. */
export async function issueBlock(
	env: Env,
	config: Config,
	workerId: number,
	count: number,
): Promise<IssuedRuns> {
	return { workerId, runs: await issueRuns(env, config, workerId, count) };
}
