import type { RandomBytes } from "./clock";
import { IdError } from "./errors";

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

/** The batch size a factory accepts; the service narrows it to [1, MAX_BATCH] before this. */
export function checkCount(count: number): void {
	if (!Number.isSafeInteger(count) || count < 0) {
		throw new IdError("invalid_count", `count must be a whole number >= 0; got ${count}`);
	}
}
