/**
 * Every ID a load run was given, kept compactly (8 bytes per Snowflake, 16 per
 * ULID/UUID) so that duplicates over the whole run are found by sorting at the end.
 */

/** 64-bit values in chunks of 1 M (8 MB). */
class U64Store {
	private chunks: BigUint64Array[] = [];
	private used = 0;
	length = 0;
	push(value: bigint) {
		let chunk = this.chunks.at(-1);
		if (!chunk || this.used === chunk.length) {
			chunk = new BigUint64Array(1 << 20);
			this.chunks.push(chunk);
			this.used = 0;
		}
		chunk[this.used++] = value;
		this.length++;
	}
	/** All values, in insertion order, in one new array. */
	toArray(): BigUint64Array {
		const all = new BigUint64Array(this.length);
		let offset = 0;
		for (const chunk of this.chunks) {
			const n = Math.min(chunk.length, this.length - offset);
			all.set(chunk.subarray(0, n), offset);
			offset += n;
		}
		return all;
	}
	/** How many values repeat an earlier one. */
	duplicates(): number {
		let total = 0;
		for (const extra of repeatedValues(this.toArray()).values()) total += extra;
		return total;
	}
}

/** Values that occur more than once in a sorted copy of `values`, with their extra counts. */
function repeatedValues(values: BigUint64Array): Map<bigint, number> {
	const sorted = values.slice().sort();
	const repeated = new Map<bigint, number>();
	for (let i = 1; i < sorted.length; i++) {
		if (sorted[i] === sorted[i - 1]) {
			const v = sorted[i] as bigint;
			repeated.set(v, (repeated.get(v) ?? 0) + 1);
		}
	}
	return repeated;
}

/** 128-bit values as two 64-bit halves; duplicates are found on the low half, then confirmed. */
export class U128Store {
	readonly hi = new U64Store();
	readonly lo = new U64Store();
	get length() {
		return this.lo.length;
	}
	push(value: bigint) {
		this.hi.push(value >> 64n);
		this.lo.push(value & 0xffff_ffff_ffff_ffffn);
	}
	duplicates(): number {
		const los = this.lo.toArray();
		const candidates = repeatedValues(los);
		if (candidates.size === 0) return 0;
		const his = this.hi.toArray();
		const seen = new Set<string>();
		let duplicates = 0;
		for (let i = 0; i < los.length; i++) {
			if (!candidates.has(los[i] as bigint)) continue;
			const key = `${his[i]}:${los[i]}`;
			if (seen.has(key)) duplicates++;
			else seen.add(key);
		}
		return duplicates;
	}
}
