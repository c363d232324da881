/**
 * ULID (https://github.com/ulid/spec): 48-bit millisecond time + 80 random bits,
 * 26 Crockford base32 characters, uppercase, sortable as strings.
 *
 *   const ulids = new UlidFactory();            // randomness: crypto.getRandomValues
 *   ulids.next(Date.now());                     // "01J9Z3…": 26 characters
 *   ulids.nextBatch(Date.now(), 3);             // three, strictly increasing
 *   decodeUlid("01aryz6s41tsv4rrffq69g5fav");   // { type: "ulid", id: "01ARYZ6S41…", timestamp, time, randomness, uuid }
 *   ulidToUuid("01ARYZ6S41TSV4RRFFQ69G5FAV");   // "01563e3a-b5d3-d676-4c61-efb99302bd5b"
 */

import { cryptoRandomBytes, isoTime, type RandomBytes } from "../clock";
import { checkCount, IdError } from "../errors";
import { ANY_BATCH, RandomPool } from "../random";
import {
	CROCKFORD_ALLOWED,
	CROCKFORD_ALPHABET,
	checkReading,
	decodeBits,
	decodeTime,
	describeCharAt,
	digitValue,
	encodeBits,
	encodeTime,
	findInvalidDigit,
	incrementBase32,
	TIME_CHARS,
} from "./crockford";
import { bytesToHex, formatUuid, parseUuid } from "./uuid";

export const ULID_LENGTH = 26;
/** The largest ULID: 128 one bits. */
export const MAX_ULID = "7ZZZZZZZZZZZZZZZZZZZZZZZZZ";

/** 80 random bits (16 characters) per new millisecond; the pool holds 16 draws. */
const RANDOM_BYTES = 10;
const RANDOM_CHARS = 16;
const POOL_BYTES = 16 * RANDOM_BYTES;

/**
 * Monotonic ULIDs for one isolate. A later millisecond draws 80 fresh random
 * bits; the same millisecond, or a clock that went back, reuses the last
 * timestamp and adds 1 to the random part, so IDs strictly increase.
 */
export class UlidFactory {
	private readonly pool: RandomPool;
	private lastMs = -1;
	/** The time and the first 15 of the 16 random characters of the last ULID. */
	// Stryker disable next-line StringLiteral: the first next() sets it (every reading is above lastMs = -1)
	private prefix = "";
	/** The first 15 random characters alone: what a carry out of the last digit increments. */
	// Stryker disable next-line StringLiteral: the first next() sets it (every reading is above lastMs = -1)
	private randomHead = "";
	/** Value of the 16th random digit. Kept as a number: 31 of 32 increments touch only it. */
	private randomLast = 0;

	/** @param random where the 80 random bits come from. Default: `crypto.getRandomValues`. */
	constructor(random: RandomBytes = cryptoRandomBytes) {
		this.pool = new RandomPool(random, POOL_BYTES);
	}

	/**
	 * The next ULID at `nowMs` (unix ms, a 48-bit integer; else `layout_exhausted`,
	 * `clock_regression` for a reading that is not a finite number, or `internal`).
	 * Throws `overloaded` if 2^80 ULIDs were asked for in one millisecond.
	 */
	next(nowMs: number): string {
		checkReading(nowMs, "ULID");
		if (nowMs > this.lastMs) {
			const random = encodeBits(this.pool.bytes(RANDOM_BYTES), 0);
			this.lastMs = nowMs;
			this.randomHead = random.slice(0, RANDOM_CHARS - 1);
			this.randomLast = digitValue(random.charCodeAt(RANDOM_CHARS - 1));
			this.prefix = encodeTime(nowMs) + this.randomHead;
		} else if (this.randomLast < 31) {
			this.randomLast++;
		} else {
			this.carry();
		}
		return this.prefix + CROCKFORD_ALPHABET.charAt(this.randomLast);
	}

	/** `count` ULIDs (0 or more) at `nowMs`, strictly increasing, as `next` makes them. */
	nextBatch(nowMs: number, count: number): string[] {
		checkCount(count, ANY_BATCH);
		const ids: string[] = [];
		for (let i = 0; i < count; i++) ids.push(this.next(nowMs));
		return ids;
	}

	private carry(): void {
		const head = incrementBase32(this.randomHead);
		if (head === undefined) {
			// All 80 bits are 1: wrapping to 0 would repeat or reorder IDs, so refuse
			// (state untouched) until the clock reaches the next millisecond.
			throw new IdError(
				"overloaded",
				"the 80-bit random part of ULIDs overflowed within one millisecond; retry in the next millisecond",
				1,
			);
		}
		this.randomHead = head;
		this.randomLast = 0;
		this.prefix = this.prefix.slice(0, TIME_CHARS) + head;
	}
}

/** A ULID taken apart: what `decodeUlid` and `/decode/:id` answer for a ULID. */
export interface DecodedUlid {
	type: "ulid";
	/** Canonical form: uppercase, aliases resolved. */
	id: string;
	/** Unix milliseconds. */
	timestamp: number;
	/** The same instant as an ISO 8601 string. */
	time: string;
	/** The 80 random bits as 20 lowercase hex digits. */
	randomness: string;
	/** The same 128 bits as a lowercase 8-4-4-4-12 UUID. */
	uuid: string;
}

/**
 * Validates and decodes a ULID (case-insensitive; I and L read as 1, O as 0).
 * Throws `invalid_id` naming the first bad character, a wrong length, or a value
 * above `7ZZZZZZZZZZZZZZZZZZZZZZZZZ`.
 *
 *   decodeUlid("01aryz6s41tsv4rrffq69g5fav").time; // "2016-07-30T22:36:16.385Z"
 */
export function decodeUlid(text: string): DecodedUlid {
	const bytes = ulidBytes(text);
	const timestamp = decodeTime(text.slice(0, TIME_CHARS));
	return {
		type: "ulid",
		id: encodeBits(bytes, 2),
		timestamp,
		time: isoTime(timestamp),
		randomness: bytesToHex(bytes.subarray(6)),
		uuid: formatUuid(bytes),
	};
}

/** The ULID's 128 bits as a lowercase UUID. */
export function ulidToUuid(ulid: string): string {
	return formatUuid(ulidBytes(ulid));
}

/** Any UUID's 128 bits as a canonical ULID. */
export function uuidToUlid(uuid: string): string {
	// 26 characters carry 130 bits: two zero bits in front make 128 fit.
	return encodeBits(parseUuid(uuid).bytes, 2);
}

/** Validates a ULID and returns its 16 bytes. */
function ulidBytes(text: string): Uint8Array {
	if (text.length !== ULID_LENGTH) {
		throw new IdError(
			"invalid_id",
			`ULID must be ${ULID_LENGTH} ${CROCKFORD_ALLOWED}; got ${text.length} characters`,
		);
	}
	const invalid = findInvalidDigit(text);
	if (invalid >= 0) {
		throw new IdError(
			"invalid_id",
			`ULID must be ${ULID_LENGTH} ${CROCKFORD_ALLOWED}; found ${describeCharAt(text, invalid)} at position ${invalid + 1}`,
		);
	}
	// The first character carries only 3 of the 128 bits; 8 or above would need 129.
	if (digitValue(text.charCodeAt(0)) > 7) {
		throw new IdError(
			"invalid_id",
			`ULID must not exceed ${MAX_ULID} (128 bits), so its first character must be 0-7; found ${describeCharAt(text, 0)}`,
		);
	}
	return decodeBits(text, 2);
}
