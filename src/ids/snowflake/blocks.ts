/**
 * Blocks: many Snowflake IDs in a few bytes. A block `{first, count}` is `count`
 * consecutive integers starting at `first` (decimal text: 64-bit IDs do not fit
 * a double). Inside one tick consecutive sequences are consecutive integers, so
 * each run of the generator is exactly one block; a new tick starts a new block.
 */
import { IdError } from "../errors";
import { snowflakeIdOf } from "./base32";
import { checkRun } from "./decimal";
import type { IdRun } from "./generator";
import type { SnowflakeLayout } from "./layout";

export interface SnowflakeBlock {
	/** The first ID, in decimal. */
	first: string;
	count: number;
}

/** One block per run, in order. Throws `internal` for a run that does not fit the layout. */
export function blocksOfRuns(
	layout: SnowflakeLayout,
	workerId: number,
	runs: IdRun[],
): SnowflakeBlock[] {
	return runs.map((run) => {
		checkRun(layout, run);
		return {
			first: String(layout.compose({ tick: run.tick, workerId, sequence: run.firstSequence })),
			count: run.count,
		};
	});
}

/** The runs of blocks from one worker ID (what a pool holds). Returned when a block is malformed: `invalid_id`. */
export function runsOfBlocks(layout: SnowflakeLayout, blocks: SnowflakeBlock[]): IdRun[] {
	return blocks.map((block) => {
		if (!/^[0-9]{1,20}$/.test(block.first) || !Number.isInteger(block.count) || block.count < 1) {
			throw new IdError(
				"invalid_id",
				`a block needs a decimal "first" and a positive count; got ${JSON.stringify(block)}`,
			);
		}
		const fields = layout.decompose(BigInt(block.first));
		if (fields.sequence + block.count - 1 > layout.maxSequence) {
			throw new IdError("invalid_id", `block ${block.first} (+${block.count}) crosses a tick`);
		}
		return { tick: fields.tick, firstSequence: fields.sequence, count: block.count };
	});
}

/**
 * Every ID of the blocks, in order, as decimal strings; lazily, so a million IDs cost no array.
 * Returned when a block's `first` is not a Snowflake's decimal text: `invalid_id`.
 */
export function* expandBlocks(blocks: Iterable<SnowflakeBlock>): Generator<string> {
	for (const block of blocks) {
		let id = snowflakeIdOf(block.first);
		for (let i = 0; i < block.count; i++, id++) yield String(id);
	}
}
