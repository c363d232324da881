/**
 * The named-sequence operations, one implementation for every transport: each takes
 * input the transport has checked (a valid name, settings, a count within MAX_BATCH
 * or MAX_BLOCK_COUNT) and answers the wire types of src/wire/index.ts, or throws a service
 * error. Ordered mode is one object call per request; pooled mode serves from this
 * isolate's buffer of segments (./sequence-pools.ts). A retired sequence refuses every
 * call (`sequence_retired`); pooled buffers of it end as described at `retireSequence`.
 *
 *   await createSequence(env, config, { name: "orders", settings: checkSequenceSettings({}) });
 *   await nextInSequence(env, config, { name: "orders", count: 2 }, (work) => ctx.waitUntil(work));
 *   // { type: "sequence", name: "orders", first: "1", count: 2, numbers: ["1", "2"] }
 */

import { IdError } from "../../ids/errors";
import { windowStart } from "../../ids/minute-tally";
import type { Background } from "../../ids/pools/id-pool";
import {
	checkSequenceSettings,
	type NumberRange,
	numbersOf,
	readSequenceNumber,
	type SequenceSettings,
	settingsView,
	type TakenNumbers,
} from "../../ids/sequences";
import type {
	SequenceHistory,
	SequenceList,
	SequenceNumbers,
	SequenceRange,
	SequenceStatus,
} from "../../wire";
import type { Config } from "../config/config";
import { DEFAULT_HISTORY_MINUTES } from "../contracts/ops";
import { serviceError, withStatus } from "../errors";
import { askCatalog, directoryStub, shardStub } from "../object/catalog-calls";
import type {
	CreateResult,
	HistoryResult,
	IssuedResult,
	RetireResult,
	StatusResult,
} from "../object/object-protocol";
import { callSequence } from "../object/sequence-calls";
import { isolateSequencePools, MAX_BUFFERS, type SequencePools } from "./sequence-pools";

/** A sequence named by a checked name. */
export interface SequenceRef {
	name: string;
}
/** A sequence and a checked count (≥ 1; at most MAX_BATCH for next, MAX_BLOCK_COUNT for reserve). */
export interface SequenceCount extends SequenceRef {
	count: number;
}
export interface SequenceCreate extends SequenceRef {
	settings: SequenceSettings;
}
/** `to`: a checked sequence number (`readSequenceNumber`). */
export interface SequenceAdvance extends SequenceRef {
	to: bigint;
}

/** Names per page of the list when the caller gives no limit. */
const DEFAULT_LIST_LIMIT = 100;

/** A create as its contract read it (../contracts/sequences.ts): the settings with their defaults. */
export function createInput(input: {
	name: string;
	start?: number | string;
	mode?: string;
	reset?: string;
	timeZone?: string;
}): SequenceCreate {
	const { name, ...given } = input;
	return { name, settings: checkSequenceSettings(given) };
}

/** An advance as its contract read it: `to` as a number of the sequence. */
export function advanceInput(input: { name: string; to: number | string }): SequenceAdvance {
	return { name: input.name, to: readSequenceNumber("to", input.to) };
}

/**
 * Creates a sequence (`created`: answer 201), or finds it with the same settings (200); else `sequence_exists`.
 * Either success records the name in the catalog's directory and its shard before
 * answering (again is a no-op). The sequence exists once its object answered, so a
 * catalog that cannot take the name (unreachable, or failing) changes nothing the
 * caller is told: the create answers its status all the same, the failure is one log
 * line, and the catalog catches up from the object's first report, which its create
 * scheduled (a shard that hears of a name first by a report lists it), or from a
 * create again. Never a 500 or 503 for a sequence that exists.
 */
export async function createSequence(
	env: Env,
	input: SequenceCreate,
): Promise<{ created: boolean; status: SequenceStatus }> {
	const { name, settings } = input;
	const { created, status } = await callSequence<CreateResult>(env, name, (stub) =>
		stub.create(name, settingsView(settings)),
	).catch((error: unknown) => {
		// A retired name is in the way of the create: a conflict, not a sequence gone.
		throw isRetired(error) ? withStatus(error, 409) : error;
	});
	const createdAtMs = Date.parse(status.created);
	// The directory lists the name; its shard holds its counts (the first report would
	// make that row too). Neither takes the other's writes: a create never queues behind
	// reports, which go to the shards only.
	const listed = { ...status.settings };
	try {
		await Promise.all([
			askCatalog(
				() => directoryStub(env),
				(directory) => directory.registerSequence(name, listed, createdAtMs),
			),
			askCatalog(
				() => shardStub(env, name),
				(shard) => shard.addSequence(name, listed, createdAtMs),
			),
		]);
	} catch (error) {
		console.error(
			JSON.stringify({
				operation: "createSequence",
				event: "catalog_write_failed",
				name,
				message: error instanceof Error ? error.message : String(error),
			}),
		);
	}
	return { created, status };
}

/**
 * `count` consecutive numbers. Ordered: from the object, larger than every number
 * any call got before this one began. Pooled (once this isolate has seen the name
 * is): from this isolate's buffer, unless POOL_MAX_AGE_MS is 0 (pools off).
 * `background` (`ctx.waitUntil`) lets a refill run on after the response.
 */
export async function nextInSequence(
	env: Env,
	config: Config,
	input: SequenceCount,
	background?: Background,
	pools: SequencePools = isolateSequencePools,
): Promise<SequenceNumbers> {
	const { name, count } = input;
	if (config.poolMaxAgeMs > 0 && pools.isPooled(name)) {
		return numbersAnswer(name, await takePooled(env, config, input, pools, background));
	}
	const issued = await callSequence<IssuedResult>(env, name, (stub) => stub.next(name, count));
	if (issued.mode === "pooled") pools.markPooled(name);
	return numbersAnswer(name, {
		first: BigInt(issued.first),
		last: BigInt(issued.last),
		count: issued.count,
		period: issued.period,
	});
}

/** Takes from a closed buffer tried before `buffer_closed` is answered (503, retry). */
const CLOSED_BUFFER_TRIES = 3;

/**
 * `count` numbers from this isolate's buffer of `name`. A buffer closed while the
 * call waited in it (the isolate's least recently used of more than MAX_BUFFERS
 * pooled names) is replaced: the call takes from the new one, so its numbers still
 * lie above every number the isolate handed out. Only when that keeps happening (an
 * isolate serving far more than MAX_BUFFERS names at once) is it `buffer_closed`,
 * 503 with Retry-After.
 */
async function takePooled(
	env: Env,
	config: Config,
	input: SequenceCount,
	pools: SequencePools,
	background?: Background,
): Promise<TakenNumbers> {
	const { name, count } = input;
	const fetchBy =
		(method: "segment" | "next") =>
		async (size: number): Promise<NumberRange> => {
			const issued = await callSequence<IssuedResult>(env, name, (stub) =>
				stub[method](name, size),
			).catch((error: unknown) => {
				if (isRetired(error)) pools.forget(name);
				throw error;
			});
			return { first: BigInt(issued.first), last: BigInt(issued.last), period: issued.period };
		};
	for (let tries = 1; ; tries++) {
		try {
			// A segment; more than one holds goes straight to the object, as an ordered call does.
			const buffer = pools.buffer(config, name, fetchBy("segment"), fetchBy("next"));
			return await buffer.take(count, background);
		} catch (error) {
			if (!(error instanceof IdError && error.code === "buffer_closed")) throw error;
			if (tries >= CLOSED_BUFFER_TRIES) {
				throw serviceError(
					"buffer_closed",
					`the buffer of pooled sequence "${name}" was closed under this call ${tries} times in a row (this isolate serves more than ${MAX_BUFFERS} pooled sequences at once); retry`,
					1,
				);
			}
		}
	}
}

/** A range of `count` numbers no one else gets (either mode), straight from the object. */
export async function reserveInSequence(env: Env, input: SequenceCount): Promise<SequenceRange> {
	const { name, count } = input;
	const { first, last, period } = await callSequence<IssuedResult>(env, name, (stub) =>
		stub.reserve(name, count),
	);
	return {
		type: "sequence-range",
		name,
		first,
		last,
		count,
		...(period === null ? {} : { period }),
	};
}

/** The next number becomes at least `to`, never less; answers the status. */
export async function advanceSequence(env: Env, input: SequenceAdvance): Promise<SequenceStatus> {
	const { name, to } = input;
	return (await callSequence<StatusResult>(env, name, (stub) => stub.advance(name, `${to}`)))
		.status;
}

export async function sequenceStatus(env: Env, input: SequenceRef): Promise<SequenceStatus> {
	const { name } = input;
	return (await callSequence<StatusResult>(env, name, (stub) => stub.status(name))).status;
}

/** Per-minute counts for the last `minutes` minutes (default 60), the current one included, from its object. */
export async function sequenceHistory(
	env: Env,
	input: { name: string; minutes?: number },
): Promise<SequenceHistory> {
	const { name } = input;
	const minutes = input.minutes ?? DEFAULT_HISTORY_MINUTES;
	const nowMs = Date.now();
	const sinceMs = windowStart(nowMs, minutes);
	const result = await callSequence<HistoryResult>(env, name, (stub) =>
		stub.history(name, sinceMs),
	);
	return { name, minutes, history: result.minutes, serverNowMs: nowMs };
}

/**
 * Retires a sequence for good (`confirm` was checked to be its name): its last status,
 * with `retiredAt`; the same again when it was retired already. Its object keeps only a
 * tombstone; the catalog's directory and the name's shard drop it (a failed write answers 503, and the retry, finding
 * it retired, writes it again). Pooled: this isolate's buffer is dropped at once;
 * another isolate's stops at its next segment fetch (refused), and hands out numbers
 * of a segment it took before the retire for at most POOL_MAX_AGE_MS after it.
 */
export async function retireSequence(
	env: Env,
	input: { name: string; confirm: string },
	pools: SequencePools = isolateSequencePools,
): Promise<SequenceStatus> {
	const { name } = input;
	const { status } = await callSequence<RetireResult>(env, name, (stub) => stub.retire(name));
	pools.forget(name);
	const { issued, requests, retiredAt } = status;
	const retired = { name, retiredAtMs: Date.parse(retiredAt ?? ""), issued, requests };
	// The directory stops listing the name; its shard drops its row and keeps its counts.
	await Promise.all([
		askCatalog(
			() => directoryStub(env),
			(directory) => directory.retireSequence(retired),
		),
		askCatalog(
			() => shardStub(env, name),
			(shard) => shard.retireInShard(retired),
		),
	]);
	return status;
}

/** A page of the names created (starting with `prefix`, if given), in name order, from the catalog's directory; `cursor` is null on the last page. */
export async function listSequences(
	env: Env,
	input: { limit?: number; cursor?: string; prefix?: string },
): Promise<SequenceList> {
	const limit = input.limit ?? DEFAULT_LIST_LIMIT;
	const { names, more } = await askCatalog(
		() => directoryStub(env),
		(directory) => directory.sequenceNames(input.cursor ?? null, limit, input.prefix ?? ""),
	);
	return { type: "sequence-list", names, cursor: more ? (names.at(-1) ?? null) : null };
}

function isRetired(error: unknown): error is IdError<"sequence_retired"> {
	return error instanceof IdError && error.code === "sequence_retired";
}

function numbersAnswer(
	name: string,
	range: { first: bigint; last: bigint; count: number; period: string | null },
): SequenceNumbers {
	const { first, count, period } = range;
	return {
		type: "sequence",
		name,
		first: `${first}`,
		count,
		numbers: numbersOf(range),
		...(period === null ? {} : { period }),
	};
}
