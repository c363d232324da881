/**
 * A set of integers kept as sorted, disjoint, non-adjacent intervals: what a load
 * run has been given of one worker ID. Adding an interval reports how many of its
 * integers were already in the set (repeats) and merges it with every interval it
 * overlaps or touches, so a billion consecutive IDs cost one interval and memory
 * grows with the number of gaps, not the number of IDs.
 *
 * Values are plain numbers (exact below 2^53): the ledger maps a Snowflake to its
 * position (tick and sequence) relative to the run's start, which stays small.
 */
export class IntervalSet {
	/** Interval i is [starts[i], ends[i]]; ends[i] + 1 < starts[i + 1]. */
	private readonly starts: number[] = [];
	private readonly ends: number[] = [];

	/** How many disjoint intervals the set holds. */
	get intervals(): number {
		return this.starts.length;
	}

	/** How many integers the set holds. */
	get size(): number {
		let total = 0;
		for (let i = 0; i < this.starts.length; i++)
			total += (this.ends[i] as number) - (this.starts[i] as number) + 1;
		return total;
	}

	/** The intervals, in order (for tests and reports). */
	toArray(): [number, number][] {
		return this.starts.map((start, i) => [start, this.ends[i] as number]);
	}

	/**
	 * Adds [start, end] (inclusive, start ≤ end); returns how many of its integers
	 * the set already held. Amortised O(log n): answers arrive mostly in order, so
	 * the common case appends or extends the last interval.
	 */
	add(start: number, end: number): number {
		if (!(Number.isSafeInteger(start) && Number.isSafeInteger(end) && start <= end)) {
			throw new RangeError(`not an interval of safe integers: [${start}, ${end}]`);
		}
		const last = this.starts.length - 1;
		const lastEnd = last >= 0 ? (this.ends[last] as number) : Number.NEGATIVE_INFINITY;
		if (start > lastEnd + 1) {
			this.starts.push(start);
			this.ends.push(end);
			return 0;
		}
		if (start === lastEnd + 1) {
			this.ends[last] = end;
			return 0;
		}
		// The first interval that ends at or after start - 1 (it may touch or overlap).
		let low = 0;
		let high = this.starts.length;
		while (low < high) {
			const mid = (low + high) >>> 1;
			if ((this.ends[mid] as number) < start - 1) low = mid + 1;
			else high = mid;
		}
		let repeats = 0;
		let mergedStart = start;
		let mergedEnd = end;
		let j = low;
		for (; j < this.starts.length && (this.starts[j] as number) <= end + 1; j++) {
			const s = this.starts[j] as number;
			const e = this.ends[j] as number;
			repeats += Math.max(0, Math.min(end, e) - Math.max(start, s) + 1);
			mergedStart = Math.min(mergedStart, s);
			mergedEnd = Math.max(mergedEnd, e);
		}
		this.starts.splice(low, j - low, mergedStart);
		this.ends.splice(low, j - low, mergedEnd);
		return repeats;
	}
}
