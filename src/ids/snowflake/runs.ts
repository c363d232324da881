/**
 * Where a Snowflake generator (generator.ts) stands in its ticks, and the arithmetic of
 * runs: the ticks `count` IDs take from a clock tick on, and a run taken from one of them.
 * No clock, no waits: the generator decides when a tick may be issued.
 */
import type { SnowflakeLayout } from "./layout";
import { newTickRoom } from "./options";

/**
 * IDs issued within one tick: sequences `firstSequence … firstSequence + count - 1`.
 * A batch is a few runs, which is also the compact form that crosses RPC hops.
 */
export interface IdRun {
	tick: number;
	firstSequence: number;
	count: number;
}

/** The last tick issued in and its last sequence; runs are taken above them only. */
export class TickCursor {
	private readonly layout: SnowflakeLayout;
	private readonly random: () => number;
	private readonly sequenceStartLimit: number;
	private readonly newTickRoom: number; // IDs a new tick surely holds (highest random start)
	private last: number; // of the last ID issued (or a tick given away, as if full)
	private sequence: number;

	/** From tick `last` (-1: none yet), as if full. `random` in [0, 1) picks a new tick's first sequence. */
	constructor(layout: SnowflakeLayout, last: number, random: () => number) {
		this.layout = layout;
		this.random = random;
		// Leaf's fix for all-even IDs at low load: a small random start (< 2% of capacity).
		this.sequenceStartLimit = 2 ** Math.floor(layout.sequenceBits / 2);
		this.newTickRoom = newTickRoom(layout);
		this.last = last;
		this.sequence = layout.maxSequence;
	}

	/** The tick of the last ID issued (or given away). */
	get lastTick(): number {
		return this.last;
	}

	/** The ticks `count` IDs start and (at the latest) end in, the clock in tick `tick`. */
	span(count: number, tick: number): { first: number; last: number } {
		const roomLeft = this.layout.maxSequence - this.sequence;
		// A new tick (the clock's, or the next after a full one), else the last one.
		const first = tick > this.last ? tick : roomLeft > 0 ? this.last : this.last + 1;
		const room = first === this.last ? roomLeft : this.newTickRoom;
		// Stryker disable next-line ConditionalExpression,EqualityOperator: ceil((count - room) / …) is 0 when count <= room
		const last = count <= room ? first : first + Math.ceil((count - room) / this.newTickRoom);
		return { first, last };
	}

	/** Up to `wanted` IDs from `tick` (at or above the last tick). */
	take(tick: number, wanted: number): IdRun {
		const first =
			tick > this.last ? Math.floor(this.random() * this.sequenceStartLimit) : this.sequence + 1;
		const count = Math.min(wanted, this.layout.maxSequence - first + 1);
		this.last = tick;
		this.sequence = first + count - 1;
		return { tick, firstSequence: first, count };
	}

	/** The next sequence of the last tick if the clock is in it (`tick`) and it has room, taken; else undefined. */
	nextInLast(tick: number): number | undefined {
		// Room left means an ID was issued in the last tick: it is in the layout.
		if (this.sequence < this.layout.maxSequence && tick === this.last) return ++this.sequence;
		return undefined;
	}

	/** Goes on above `tick` (given away: someone else's), as if it were full. */
	skipTo(tick: number): void {
		this.last = tick;
		this.sequence = this.layout.maxSequence;
	}
}
