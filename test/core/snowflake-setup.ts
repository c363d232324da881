/**
 * What the SnowflakeGenerator tests share: a Twitter layout with epoch 0 (clock
 * readings are ticks), a generator for worker 7 that records its persisted marks,
 * and the fields of the IDs it issues.
 */

import {
	SnowflakeGenerator,
	type SnowflakeGeneratorOptions,
} from "../../src/ids/snowflake/generator";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";

/** Twitter's bits with epoch 0, so clock readings are ticks. */
export const layout = new SnowflakeLayout({ ...TWITTER_LAYOUT, epoch: 0 });

export function generator(
	clock: SnowflakeGeneratorOptions["clock"],
	options: Partial<SnowflakeGeneratorOptions> = {},
) {
	const marks: number[] = [];
	const gen = new SnowflakeGenerator({
		layout,
		workerId: 7,
		clock,
		maxBackwardMs: 1000,
		leaseMs: 1000,
		persistMark: (tick) => {
			marks.push(tick);
		},
		random: () => 0,
		...options,
	});
	return { gen, marks };
}

export const fieldsOf = (ids: string[]) => ids.map((id) => layout.decompose(BigInt(id)));
