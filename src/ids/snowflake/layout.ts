/**
 * Snowflake layouts: how a 63-bit ID (below a zero sign bit) splits into time,
 * worker ID and sequence. `SnowflakeLayout` validates a configuration once and
 * then converts between clock readings, ticks, fields and IDs; no I/O.
 *
 *   const layout = new SnowflakeLayout(TWITTER_LAYOUT);
 *   layout.maxWorkerId;                                          // 1023
 *   layout.compose({ tick: layout.tickOf(Date.now()), workerId: 7, sequence: 0 }); // a bigint ID
 *   layout.decompose(1541815603606036480n);                      // { tick, workerId, sequence }
 *   new Date(layout.exhaustsAt).toISOString();                   // "2080-07-10T17:30:30.209Z"
 */
import { IdError } from "../errors";

/**
 * How a 64-bit Snowflake ID is cut up: a zero sign bit, then time (in
 * `timeUnitMs` ticks since `epoch`), worker ID and sequence, high to low.
 */
export interface LayoutConfig {
	/** Milliseconds since 1970 at which tick 0 starts. */
	epoch: number;
	timeBits: number;
	workerBits: number;
	sequenceBits: number;
	/** Length of one tick: 1 for Twitter, 10 for Sonyflake, 1000 for UidGenerator. */
	timeUnitMs: number;
}

/** Twitter's layout: 41 time bits of 1 ms from 2010-11-04, 10 worker bits, 12 sequence bits. */
export const TWITTER_LAYOUT: LayoutConfig = Object.freeze({
	epoch: 1288834974657,
	timeBits: 41,
	workerBits: 10,
	sequenceBits: 12,
	timeUnitMs: 1,
});

/** The latest instant a JavaScript Date can hold (year 275760). */
export const MAX_DATE_MS = 8.64e15;
/** Worker and sequence fields stay within 30 bits so they are plain small integers. */
const MAX_FIELD_BITS = 30;

/** The three fields of a Snowflake ID. */
export interface SnowflakeFields {
	/** Ticks since the layout's epoch. */
	tick: number;
	workerId: number;
	sequence: number;
}

/**
 * A validated layout: the bit widths sum to 63, each field fits, the epoch and
 * unit are sane integers; anything else throws `invalid_config` naming the field.
 */
export class SnowflakeLayout implements LayoutConfig {
	readonly epoch: number;
	readonly timeBits: number;
	readonly workerBits: number;
	readonly sequenceBits: number;
	readonly timeUnitMs: number;
	readonly maxWorkerId: number;
	readonly maxSequence: number;
	/** The first tick the layout cannot represent (2^timeBits). */
	readonly tickLimit: number;
	/** `epoch + 2^timeBits × timeUnitMs`: the first instant the layout cannot represent. */
	readonly exhaustsAt: number;
	/** Bits below the time field (worker + sequence). */
	readonly lowBits: number;
	/** Under Twitter's own layout (bits, unit and epoch), its split into datacenter (high 5) and machine (low 5). */
	readonly hasDatacenterSplit: boolean;

	private readonly lowShift: bigint;
	private readonly sequenceShift: bigint;

	constructor(config: LayoutConfig) {
		const { epoch, timeBits, workerBits, sequenceBits, timeUnitMs } = config;
		const integer = (name: string, value: number, min: number, max: number) => {
			if (!Number.isSafeInteger(value) || value < min || value > max) {
				throw new IdError(
					"invalid_config",
					`${name} must be an integer in [${min}, ${max}], got ${value}`,
				);
			}
		};
		// 2^53 ms from 1970 is already past year 275760: 52 is the widest that can fit.
		integer("timeBits", timeBits, 1, 52);
		integer("workerBits", workerBits, 0, MAX_FIELD_BITS);
		integer("sequenceBits", sequenceBits, 1, MAX_FIELD_BITS);
		integer("timeUnitMs", timeUnitMs, 1, 86_400_000);
		integer("epoch", epoch, 0, MAX_DATE_MS);
		if (timeBits + workerBits + sequenceBits !== 63) {
			throw new IdError(
				"invalid_config",
				`timeBits + workerBits + sequenceBits must be 63 (the sign bit makes 64), got ${timeBits} + ${workerBits} + ${sequenceBits} = ${timeBits + workerBits + sequenceBits}`,
			);
		}
		const exhaustsAt = epoch + 2 ** timeBits * timeUnitMs;
		if (exhaustsAt > MAX_DATE_MS) {
			const ticksLeft = (MAX_DATE_MS - epoch) / timeUnitMs;
			const fit =
				ticksLeft >= 2
					? `at most ${Math.floor(Math.log2(ticksLeft))} time bits fit: give the rest to worker and sequence bits`
					: "no time bits fit: choose an earlier epoch or a shorter tick";
			throw new IdError(
				"invalid_config",
				`epoch + 2^timeBits × timeUnitMs must end before year 275760 (${MAX_DATE_MS} ms), which a JavaScript Date can hold; this layout ends at ${exhaustsAt}. With this epoch and a ${timeUnitMs} ms tick ${fit}`,
			);
		}
		this.epoch = epoch;
		this.timeBits = timeBits;
		this.workerBits = workerBits;
		this.sequenceBits = sequenceBits;
		this.timeUnitMs = timeUnitMs;
		this.maxWorkerId = 2 ** workerBits - 1;
		this.maxSequence = 2 ** sequenceBits - 1;
		this.tickLimit = 2 ** timeBits;
		this.exhaustsAt = exhaustsAt;
		this.lowBits = workerBits + sequenceBits;
		// Only Twitter's own layout: another layout with 10 worker bits has no datacenters.
		this.hasDatacenterSplit =
			epoch === TWITTER_LAYOUT.epoch &&
			timeBits === TWITTER_LAYOUT.timeBits &&
			workerBits === TWITTER_LAYOUT.workerBits &&
			sequenceBits === TWITTER_LAYOUT.sequenceBits &&
			timeUnitMs === TWITTER_LAYOUT.timeUnitMs;
		this.lowShift = BigInt(this.lowBits);
		this.sequenceShift = BigInt(sequenceBits);
	}

	/** The tick a clock reading falls in (may be negative before the epoch). */
	tickOf(ms: number): number {
		return Math.floor((ms - this.epoch) / this.timeUnitMs);
	}

	/** Unix ms at which `tick` starts. */
	msOf(tick: number): number {
		return this.epoch + tick * this.timeUnitMs;
	}

	/** A stable string naming everything that decides which IDs are issued. */
	fingerprint(): string {
		return `epoch=${this.epoch};bits=${this.timeBits}/${this.workerBits}/${this.sequenceBits};unit=${this.timeUnitMs}`;
	}

	/** The ID with these fields (not range-checked: the generator only passes valid ones). */
	compose(fields: SnowflakeFields): bigint {
		return (
			(BigInt(fields.tick) << this.lowShift) |
			(BigInt(fields.workerId) << this.sequenceShift) |
			BigInt(fields.sequence)
		);
	}

	/** The fields of an ID below 2^63. */
	decompose(id: bigint): SnowflakeFields {
		return {
			tick: Number(id >> this.lowShift),
			workerId: Number((id >> this.sequenceShift) & BigInt(this.maxWorkerId)),
			sequence: Number(id & BigInt(this.maxSequence)),
		};
	}

	/** What `GET /layout` answers: the configuration, its limits and `exhaustsAt` as ISO text. */
	toJSON() {
		return {
			epoch: this.epoch,
			timeBits: this.timeBits,
			workerBits: this.workerBits,
			sequenceBits: this.sequenceBits,
			timeUnitMs: this.timeUnitMs,
			maxWorkerId: this.maxWorkerId,
			maxSequence: this.maxSequence,
			exhaustsAt: new Date(this.exhaustsAt).toISOString(),
		};
	}
}

/** Twitter's reading of a 10-bit worker ID. */
export function splitTwitterWorkerId(workerId: number): {
	datacenterId: number;
	machineId: number;
} {
	return { datacenterId: workerId >> 5, machineId: workerId & 31 };
}
