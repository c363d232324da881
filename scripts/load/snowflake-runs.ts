/**
 * A Snowflake answer read as runs of consecutive positions per worker ID, the
 * form the ledger keeps. A position is (tick − base tick) · 2^sequenceBits +
 * sequence: within one worker ID, IDs compare as their positions do, and the
 * last sequence of a tick is adjacent to the first of the next, so a batch or
 * a block across many ticks is one run. The texts are parsed here on purpose,
 * not with src/ids: the run is a black box checked by an independent reading.
 */
import type { SnowflakeLayout } from "../../src/ids/snowflake/layout";

/** What `GET /layout` answers (only its shape is taken from src/ids). */
export type Layout = ReturnType<SnowflakeLayout["toJSON"]>;

/** Consecutive positions [start, end] of one worker ID. */
export interface Run {
	workerId: number;
	start: number;
	end: number;
}

const SNOWFLAKE_TEXT = /^[0-9]{1,19}$/;
const MAX_SNOWFLAKE = 2n ** 63n - 1n;

/** Appends [start, end] to `runs`, extending the last run when it continues it. */
function appendRun(runs: Run[], workerId: number, start: number, end: number) {
	const last = runs.at(-1);
	if (last && last.workerId === workerId && start === last.end + 1) last.end = end;
	else runs.push({ workerId, start, end });
}

/** Converts between Snowflakes and (worker ID, position) under one layout. */
export class SnowflakeReader {
	private readonly sequenceShift: bigint;
	private readonly timeShift: bigint;
	private readonly sequenceSpan: number;

	constructor(
		readonly layout: Layout,
		/** Tick 0 of the positions: a little before the run began. */
		readonly baseTick: number,
	) {
		this.sequenceShift = BigInt(layout.sequenceBits);
		this.timeShift = BigInt(layout.workerBits + layout.sequenceBits);
		this.sequenceSpan = 2 ** layout.sequenceBits;
	}

	/** Worker ID, position and sequence of an ID. */
	read(id: bigint): { workerId: number; position: number; sequence: number } {
		const tick = Number(id >> this.timeShift);
		const workerId = Number((id >> this.sequenceShift) & BigInt(this.layout.maxWorkerId));
		const sequence = Number(id & BigInt(this.sequenceSpan - 1));
		return { workerId, position: (tick - this.baseTick) * this.sequenceSpan + sequence, sequence };
	}

	/** The ID at a position of a worker ID (for messages). */
	idAt(workerId: number, position: number): bigint {
		const tick = this.baseTick + Math.floor(position / this.sequenceSpan);
		const sequence = position - (tick - this.baseTick) * this.sequenceSpan;
		return (
			(BigInt(tick) << this.timeShift) | (BigInt(workerId) << this.sequenceShift) | BigInt(sequence)
		);
	}

	/** Unix ms of the tick a position lies in. */
	timeOf(position: number): number {
		const tick = this.baseTick + Math.floor(position / this.sequenceSpan);
		return this.layout.epoch + tick * this.layout.timeUnitMs;
	}

	/**
	 * An ID list as runs, in answer order (consecutive IDs of one worker ID
	 * coalesce), or the first text that is no Snowflake.
	 */
	runsOfIds(ids: string[]): Run[] | { malformed: string } {
		const runs: Run[] = [];
		for (const text of ids) {
			if (!SNOWFLAKE_TEXT.test(text) || BigInt(text) > MAX_SNOWFLAKE) return { malformed: text };
			const { workerId, position } = this.read(BigInt(text));
			appendRun(runs, workerId, position, position);
		}
		return runs;
	}

	/** Blocks `{first, count}` as runs, or the first block that is malformed or crosses a tick. */
	runsOfBlocks(blocks: unknown[]): Run[] | { malformed: string } {
		const runs: Run[] = [];
		for (const block of blocks) {
			const { first, count } = (block ?? {}) as { first?: unknown; count?: unknown };
			if (
				typeof first !== "string" ||
				!SNOWFLAKE_TEXT.test(first) ||
				!Number.isSafeInteger(count) ||
				(count as number) < 1 ||
				BigInt(first) + BigInt(count as number) - 1n > MAX_SNOWFLAKE
			) {
				return { malformed: `block ${JSON.stringify(block)}` };
			}
			const { workerId, position, sequence } = this.read(BigInt(first));
			const end = position + (count as number) - 1;
			if (sequence + (count as number) > this.sequenceSpan) {
				return { malformed: `block ${first} (+${count}) crosses a tick` };
			}
			appendRun(runs, workerId, position, end);
		}
		return runs;
	}
}
