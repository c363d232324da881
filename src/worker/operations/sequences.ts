/**
 * The named-sequence operations, one implementation for every transport: each takes
 * input the transport has checked (a valid name, settings, a count within MAX_BATCH
 * or MAX_BLOCK_COUNT) and answers the wire types of src/wire/index.ts, or throws a service
 * error. Ordered mode is one object call per request; pooled mode serves from this
 * isolate's buffer of segments (./sequence-pools.ts).
 *
 *   await createSequence(env, config, { name: "orders", settings: checkSequenceSettings({}) });
 *   await nextInSequence(env, config, { name: "orders", count: 2 }, (work) => ctx.waitUntil(work));
 *   // { type: "sequence", name: "orders", first: "1", count: 2, numbers: ["1", "2"] }
 */

import { windowStart } from "../../ids/minute-tally";
import type { Background } from "../../ids/pools/id-pool";
import {
	checkSequenceSettings,
	numbersOf,
	readSequenceNumber,
	type SequenceSettings,
	settingsView,
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
import { askCatalog, directoryStub, shardStub } from "../object/catalog-calls";
import type {
	CreateResult,
	HistoryResult,
	IssuedResult,
	StatusResult,
} from "../object/object-protocol";
import { callSequence } from "../object/sequence-calls";
import { isPooled, markPooled, sequenceBuffer } from "./sequence-pools";

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
 * answering (again is a no-op): a create whose catalog write failed answers 503, and
 * its retry, finding the sequence, writes it (and the object's first report, within two
 * minutes, would too: a shard that hears of a name first by a report lists it).
 */
export async function createSequence(
	env: Env,
	input: SequenceCreate,
): Promise<{ created: boolean; status: SequenceStatus }> {
	const { name, settings } = input;
	const { created, status } = await callSequence<CreateResult>(env, name, (stub) =>
		stub.create(name, settingsView(settings)),
	);
	const createdAtMs = Date.parse(status.created);
	// The directory lists the name; its shard holds its counts (the first report would
	// make that row too). Neither takes the other's writes: a create never queues behind
	// reports, which go to the shards only.
	const listed = { ...status.settings };
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
): Promise<SequenceNumbers> {
	const { name, count } = input;
	if (config.poolMaxAgeMs > 0 && isPooled(config, name)) {
		const buffer = sequenceBuffer(config, name, async (size) => {
			const segment = await callSequence<IssuedResult>(env, name, (stub) =>
				stub.segment(name, size),
			);
			return { first: BigInt(segment.first), last: BigInt(segment.last), period: segment.period };
		});
		return numbersAnswer(name, await buffer.take(count, background));
	}
	const issued = await callSequence<IssuedResult>(env, name, (stub) => stub.next(name, count));
	if (issued.mode === "pooled") markPooled(config, name);
	return numbersAnswer(name, {
		first: BigInt(issued.first),
		last: BigInt(issued.last),
		count: issued.count,
		period: issued.period,
	});
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
