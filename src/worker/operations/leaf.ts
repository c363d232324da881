/**
 * What leaf-server's routes answer, from the service's own operations: the next number
 * of a named sequence (Leaf's segment mode), one Snowflake from the auto pool (Leaf's
 * snowflake mode) and an ID taken apart in Leaf's words. Each answer is Leaf's: a
 * number as bare decimal digits (`String.valueOf(id)`), the decode as its map of strings.
 *
 *   await leafSegmentId(env, config, "orders");   // "1001"
 *   await leafSnowflakeId(env, config);           // "1541815603606036480"
 *   leafDecode(config, "1541815603606036480");
 *   // { workerId: "7", sequenceId: "0", timestamp: "1656432000000(2022-06-28 16:00:00.000)" }
 */

import { decodeSnowflake } from "../../ids/forms/decode";
import type { Background } from "../../ids/pools/id-pool";
import type { Config } from "../config/config";
import { nextInSequence } from "./sequences";
import { type AutoContext, snowflakeIds } from "./snowflake";

/** The next number of sequence `key`, in either mode (`unknown_sequence` if never created). */
export async function leafSegmentId(
	env: Env,
	config: Config,
	key: string,
	background?: Background,
): Promise<string> {
	const numbers = await nextInSequence(env, config, { name: key, count: 1 }, background);
	return numbers.first;
}

/** One Snowflake from this isolate's auto pool, and the worker ID it came from, for the log line. */
export async function leafSnowflakeId(
	env: Env,
	config: Config,
	auto: AutoContext = {},
): Promise<{ id: string; workerId: number; source: "pool" | "direct" }> {
	const { body, source } = await snowflakeIds(env, config, {}, auto);
	return { id: body.ids[0] as string, workerId: body.workerId, source };
}

/**
 * A Snowflake of this deployment's layout as leaf-server's `decodeSnowflakeId` answers
 * it: strings only, in the order its map is written (a Java HashMap of these three
 * keys iterates workerId, sequenceId, timestamp), the time `ms(yyyy-MM-dd HH:mm:ss.SSS)`
 * in UTC (Leaf writes the JVM's zone).
 */
export interface LeafDecoded {
	workerId: string;
	sequenceId: string;
	timestamp: string;
}

const pad = (value: number, digits = 2) => String(value).padStart(digits, "0");

/** Unix ms as SimpleDateFormat's `yyyy-MM-dd HH:mm:ss.SSS`, in UTC. */
function leafTime(ms: number): string {
	const at = new Date(ms);
	const date = `${pad(at.getUTCFullYear(), 4)}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`;
	const time = `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())}`;
	return `${date} ${time}.${pad(at.getUTCMilliseconds(), 3)}`;
}

export function leafDecode(config: Config, snowflakeId: string): LeafDecoded {
	const { timestamp, workerId, sequence } = decodeSnowflake(snowflakeId, config.layout);
	return {
		workerId: String(workerId),
		sequenceId: String(sequence),
		timestamp: `${timestamp}(${leafTime(timestamp)})`,
	};
}
