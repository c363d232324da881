/**
 * UUIDv7 (RFC 9562 §5.7), monotonic by method 1 of §6.2: a fixed-length counter
 * right after the timestamp. Layout, most significant bit first:
 *
 *   unix_ts_ms 48 | ver 4 (0111) | rand_a 12 | var 2 (10) | rand_b 62
 *
 * The counter is 42 bits: all of rand_a, then the top 30 bits of rand_b. The low
 * 32 bits of rand_b are fresh random bits in every UUID, so IDs from one
 * millisecond are not guessable from each other.
 *
 *   const uuids = new UuidV7Factory();                  // randomness: crypto.getRandomValues
 *   uuids.next(Date.now());                             // "0192…-…-7…-8…-…", lowercase
 *   uuids.nextBatch(Date.now(), 3);                     // three, strictly increasing
 *   uuidV7Timestamp(parseUuid(uuids.next(1e12)).bytes); // 1000000000000
 */

import { cryptoRandomBytes, type RandomBytes } from "../clock";
import { checkCount } from "../errors";
import { ANY_BATCH, RandomPool } from "../random";
import { checkReading, checkTimestamp } from "./crockford";
import { hex } from "./uuid";

const HYPHEN = 0x2d;

/** The counter's 42 bits are kept as two small integers so that all arithmetic stays in 32 bits. */
export const COUNTER_LOW_BITS = 30; // top 30 bits of rand_b, below the 12 of rand_a
const COUNTER_LOW_MAX = 2 ** COUNTER_LOW_BITS - 1;
const COUNTER_HIGH_MAX = 2 ** 12 - 1; // rand_a
/** The largest value of the 42-bit counter (rand_a and the top of rand_b). */
export const MAX_UUIDV7_COUNTER = 2 ** 42 - 1;

/** 4 random bytes per UUID, 8 per seed: 1 KiB is about 250 UUIDs per getRandomValues call. */
const POOL_BYTES = 1024;

/**
 * Monotonic UUIDv7s for one isolate. A later millisecond seeds the 42-bit counter
 * at random (its top bit clear, leaving room to count); the same millisecond, or
 * a clock that went back, adds 1 to it, so IDs strictly increase.
 */
export class UuidV7Factory {
	private readonly pool: RandomPool;
	private readonly seedCounter: (() => number) | undefined;
	private lastMs = -1;
	private counterHigh = 0;
	private counterLow = 0;
	/** "tttttttt-tttt-7hhh-": everything before the variant group, for `lastMs` and `counterHigh`. */
	// Stryker disable next-line StringLiteral: the first next() sets it (every reading is above lastMs = -1)
	private prefix = "";

	/**
	 * @param seedCounter replaces the random counter seed (for tests that start the
	 * counter near its end); must return an integer in [0, MAX_UUIDV7_COUNTER].
	 */
	constructor(random: RandomBytes = cryptoRandomBytes, seedCounter?: () => number) {
		this.pool = new RandomPool(random, POOL_BYTES);
		this.seedCounter = seedCounter;
	}

	/**
	 * The next UUIDv7 at `nowMs` (unix ms, a 48-bit integer; else `layout_exhausted`,
	 * `clock_regression` for a reading that is not a finite number, or `internal`).
	 * When the counter runs out within a millisecond it moves on to the next one
	 * (RFC 9562 §6.2), so the timestamp may run ahead of `nowMs`.
	 */
	next(nowMs: number): string {
		checkReading(nowMs, "UUIDv7");
		if (nowMs > this.lastMs) this.startMillisecond(nowMs);
		else this.incrementCounter(); // same ms, or the clock went back: stay on lastMs
		const variantGroup = 0x8000 | (this.counterLow >>> 16); // variant 10, counter bits 29..16
		const counterTail = this.counterLow & 0xffff;
		const random = this.pool.uint32();
		// One fromCharCode call is about 3x faster than toString(16) + padStart per field.
		return (
			this.prefix +
			String.fromCharCode(
				hexDigit(variantGroup, 12),
				hexDigit(variantGroup, 8),
				hexDigit(variantGroup, 4),
				hexDigit(variantGroup, 0),
				HYPHEN,
				hexDigit(counterTail, 12),
				hexDigit(counterTail, 8),
				hexDigit(counterTail, 4),
				hexDigit(counterTail, 0),
				hexDigit(random, 28),
				hexDigit(random, 24),
				hexDigit(random, 20),
				hexDigit(random, 16),
				hexDigit(random, 12),
				hexDigit(random, 8),
				hexDigit(random, 4),
				hexDigit(random, 0),
			)
		);
	}

	/** `count` UUIDv7s (0 or more) at `nowMs`, strictly increasing, as `next` makes them. */
	nextBatch(nowMs: number, count: number): string[] {
		checkCount(count, ANY_BATCH);
		const ids: string[] = [];
		for (let i = 0; i < count; i++) ids.push(this.next(nowMs));
		return ids;
	}

	private startMillisecond(ms: number): void {
		this.lastMs = ms;
		if (this.seedCounter) {
			const seed = this.seedCounter();
			this.counterHigh = Math.floor(seed / 2 ** COUNTER_LOW_BITS);
			this.counterLow = seed % 2 ** COUNTER_LOW_BITS;
		} else {
			// 41 random bits: the counter's top bit starts at 0, so at least 2^41
			// increments fit in the millisecond before it rolls over (RFC 9562 §6.2).
			this.counterHigh = this.pool.uint32() >>> 21;
			this.counterLow = this.pool.uint32() >>> 2;
		}
		this.updatePrefix();
	}

	private incrementCounter(): void {
		if (this.counterLow < COUNTER_LOW_MAX) {
			this.counterLow++;
		} else if (this.counterHigh < COUNTER_HIGH_MAX) {
			this.counterLow = 0;
			this.counterHigh++;
			this.updatePrefix();
		} else {
			// Counter exhausted: borrow the next millisecond and reseed, which RFC 9562
			// §6.2 allows; IDs keep increasing because the timestamp field grows.
			checkTimestamp(this.lastMs + 1, "UUIDv7");
			this.startMillisecond(this.lastMs + 1);
		}
	}

	private updatePrefix(): void {
		const ms = this.lastMs;
		this.prefix = `${hex(Math.floor(ms / 0x10000), 8)}-${hex(ms % 0x10000, 4)}-${hex(0x7000 | this.counterHigh, 4)}-`;
	}
}

/** Character code of the lowercase hex digit for bits shift+3..shift of `value`. */
function hexDigit(value: number, shift: number): number {
	const nibble = (value >>> shift) & 15;
	return nibble < 10 ? 0x30 + nibble : 0x57 + nibble; // '0'-'9', 'a'-'f'
}
