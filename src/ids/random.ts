/**
 * Randomness for the ULID and UUIDv7 factories, drawn from the injected source in
 * blocks (one getRandomValues call per block, not per ID).
 *
 *   const pool = new RandomPool(cryptoRandomBytes, 1024);
 *   pool.bytes(10); // 10 fresh bytes, valid until the next call
 *   pool.uint32();  // 32 fresh bits
 */
import type { RandomBytes } from "./clock";
import type { CountRule } from "./errors";

/** Random bytes drawn in blocks, so the host's getRandomValues runs once per block, not per ID. */
export class RandomPool {
	private readonly random: RandomBytes;
	private readonly buffer: Uint8Array<ArrayBuffer>;
	private readonly view: DataView;
	private offset: number;

	constructor(random: RandomBytes, size: number) {
		this.random = random;
		this.buffer = new Uint8Array(size);
		this.view = new DataView(this.buffer.buffer);
		this.offset = size; // empty: the first use fills it
	}

	/** The next `count` (at most the pool size) unused bytes, as a view valid until the next call. */
	bytes(count: number): Uint8Array {
		const start = this.reserve(count);
		return this.buffer.subarray(start, start + count);
	}

	/** The next 32 unused random bits as an unsigned integer. */
	uint32(): number {
		return this.view.getUint32(this.reserve(4));
	}

	private reserve(count: number): number {
		if (this.offset + count > this.buffer.length) {
			this.random(this.buffer);
			this.offset = 0;
		}
		const start = this.offset;
		this.offset += count;
		return start;
	}
}

/** The batch sizes a factory accepts; the service narrows them to [1, MAX_BATCH] before this. */
export const ANY_BATCH: CountRule = { min: 0, max: Number.MAX_SAFE_INTEGER };
