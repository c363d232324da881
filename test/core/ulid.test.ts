import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RandomBytes } from "../../src/ids/clock";
import { IdError } from "../../src/ids/errors";
import { MAX_TIMESTAMP_MS } from "../../src/ids/forms/crockford";
import { decodeUlid, UlidFactory, ulidToUuid, uuidToUlid } from "../../src/ids/forms/ulid";
import { expectTextIncreasing } from "../shared/order";
import {
	bigOf,
	bytesOf,
	expectIdError,
	fromBase32,
	SPEC_ALPHABET,
	toBase32,
	uuidOf,
} from "./oracle";
import { clockWalk, expectBadInputsRefused, walkClock } from "./text-id-checks";

/** RandomBytes that fills every request with `pattern` repeated (the pool asks for 160 bytes). */
function repeating(pattern: Uint8Array): RandomBytes {
	return (bytes) => {
		for (let at = 0; at < bytes.length; at += pattern.length) {
			bytes.set(pattern.subarray(0, bytes.length - at), at);
		}
	};
}

/** RandomBytes whose 80-bit draws are the given 16-character base32 strings, in order. */
function drawing(...randomParts: string[]): RandomBytes {
	let next = 0;
	return (bytes) => {
		for (let at = 0; at + 10 <= bytes.length; at += 10) {
			const part = randomParts[next++ % randomParts.length] ?? "";
			bytes.set(bytesOf(fromBase32(part), 10), at);
		}
	};
}

const SPEC_ULID = "01ARYZ6S41TSV4RRFFQ69G5FAV";
const SPEC_UUID = "01563df3-6481-d676-4c61-efb99302bd5b";
const T = 1469918176385;

describe("decodeUlid", () => {
	it("decodes the spec's example", () => {
		expect(decodeUlid(SPEC_ULID)).toEqual({
			type: "ulid",
			id: SPEC_ULID,
			timestamp: 1469918176385,
			time: "2016-07-30T22:36:16.385Z",
			randomness: "d6764c61efb99302bd5b",
			uuid: SPEC_UUID,
		});
	});

	it("decodes the largest ULID", () => {
		expect(decodeUlid("7ZZZZZZZZZZZZZZZZZZZZZZZZZ")).toEqual({
			type: "ulid",
			id: "7ZZZZZZZZZZZZZZZZZZZZZZZZZ",
			timestamp: 281474976710655,
			time: "+010889-08-02T05:31:50.655Z",
			randomness: "ffffffffffffffffffff",
			uuid: "ffffffff-ffff-ffff-ffff-ffffffffffff",
		});
		expect(decodeUlid("00000000000000000000000000").timestamp).toBe(0);
	});

	it("rejects anything above 7ZZZZZZZZZZZZZZZZZZZZZZZZZ", () => {
		for (const tooBig of [
			"80000000000000000000000000",
			"ZZZZZZZZZZZZZZZZZZZZZZZZZZ",
			"8zzzzzzzzzzzzzzzzzzzzzzzzz",
		]) {
			expectIdError(() => decodeUlid(tooBig), "invalid_id", /must not exceed 7Z{25}.*0-7/);
		}
	});

	it("reads lowercase and the I, L, O aliases as the canonical ULID", () => {
		expect(decodeUlid("01aryz6s41tsv4rrffq69g5fav").id).toBe(SPEC_ULID);
		expect(decodeUlid("OLARYZ6S4ITSV4RRFFQ69G5FAV").id).toBe(SPEC_ULID);
		expect(decodeUlid("olaryz6s4itsv4rrffq69g5fav").id).toBe(SPEC_ULID);
		for (const alias of ["I", "i", "L", "l"]) {
			expect(decodeUlid(`0000000000000000000000000${alias}`).id).toBe("00000000000000000000000001");
		}
		for (const alias of ["O", "o"]) {
			expect(decodeUlid(`${alias}${alias}000000000000000000000001`).id).toBe(
				"00000000000000000000000001",
			);
		}
	});

	it("names the bad character, its position and what is allowed", () => {
		const error = expectIdError(
			() => decodeUlid("01ARYUZ6S1TSV4RRFFQ69G5FAV"),
			"invalid_id",
			/found 'U' at position 6/,
		);
		expect(error.detail).toMatch(/26 Crockford base32 characters \(0-9 and A-Z except U/);
		expect(error.message.startsWith("invalid_id: ")).toBe(true);
		expectIdError(
			() => decodeUlid("u1ARYZ6S41TSV4RRFFQ69G5FAV"),
			"invalid_id",
			/'u' at position 1/,
		);
		for (const [bad, shown] of [
			["-", "'-'"],
			["*", "'\\*'"],
			[" ", "U\\+0020"],
			["\u0000", "U\\+0000"],
			["é", "U\\+00E9"],
			["Ⅰ", "U\\+2160"], // Roman numeral one, not the letter I
		] as const) {
			expectIdError(
				() => decodeUlid(`01ARYZ6S41TSV4RRFFQ69G5FA${bad}`),
				"invalid_id",
				new RegExp(`found ${shown} at position 26`),
			);
		}
	});

	it("rejects the wrong length", () => {
		for (const text of ["", SPEC_ULID.slice(1), `${SPEC_ULID}0`, SPEC_UUID]) {
			expectIdError(
				() => decodeUlid(text),
				"invalid_id",
				new RegExp(`got ${text.length} characters`),
			);
		}
	});
});

describe("ULID <-> UUID", () => {
	it("converts the spec's example both ways", () => {
		expect(ulidToUuid(SPEC_ULID)).toBe(SPEC_UUID);
		expect(uuidToUlid(SPEC_UUID)).toBe(SPEC_ULID);
		expect(uuidToUlid(SPEC_UUID.toUpperCase())).toBe(SPEC_ULID);
		expect(ulidToUuid(SPEC_ULID.toLowerCase())).toBe(SPEC_UUID);
	});

	it("rejects invalid input", () => {
		expectIdError(() => uuidToUlid(SPEC_ULID), "invalid_id");
		expectIdError(() => uuidToUlid(SPEC_UUID.replace("-", "x")), "invalid_id");
		expectIdError(() => ulidToUuid("80000000000000000000000000"), "invalid_id");
		expectIdError(() => ulidToUuid(SPEC_UUID), "invalid_id");
	});

	it("round-trips any 128 bits", () => {
		fc.assert(
			fc.property(fc.bigInt({ min: 0n, max: 2n ** 128n - 1n }), (value) => {
				const uuid = uuidOf(value);
				const ulid = uuidToUlid(uuid);
				expect(ulid).toBe(toBase32(value, 26));
				expect(ulidToUuid(ulid)).toBe(uuid);
			}),
		);
	});

	it("round-trips any valid ULID text to its canonical form", () => {
		// Each position: a digit value, written in any of the ways Crockford accepts.
		const spellings = (value: number): string[] => {
			const canonical = SPEC_ALPHABET.charAt(value);
			const extra = value === 0 ? ["O", "o"] : value === 1 ? ["I", "i", "L", "l"] : [];
			return [canonical, canonical.toLowerCase(), ...extra];
		};
		const position = (max: number) =>
			fc
				.integer({ min: 0, max })
				.chain((value) => fc.constantFrom(...spellings(value)).map((text) => ({ value, text })));
		fc.assert(
			fc.property(
				position(7),
				fc.array(position(31), { minLength: 25, maxLength: 25 }),
				(first, rest) => {
					const text = first.text + rest.map((p) => p.text).join("");
					const canonical = [first, ...rest].map((p) => SPEC_ALPHABET.charAt(p.value)).join("");
					expect(decodeUlid(text).id).toBe(canonical);
					expect(uuidToUlid(ulidToUuid(text))).toBe(canonical);
				},
			),
		);
	});
});

describe("UlidFactory", () => {
	it("writes the time and the 80 drawn bits, matching the BigInt oracle", () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 0, max: MAX_TIMESTAMP_MS }),
				fc.uint8Array({ minLength: 10, maxLength: 10 }),
				(ms, random) => {
					const id = new UlidFactory(repeating(random)).next(ms);
					expect(id).toBe(toBase32((BigInt(ms) << 80n) | bigOf(random), 26));
					const decoded = decodeUlid(id);
					expect(decoded.id).toBe(id);
					expect(decoded.timestamp).toBe(ms);
					expect(decoded.randomness).toBe(bigOf(random).toString(16).padStart(20, "0"));
					expect(decodeUlid(id.toLowerCase())).toEqual(decoded);
				},
			),
		);
	});

	it("adds 1 to the random part within a millisecond, with carry", () => {
		const factory = new UlidFactory(drawing("K7QRSTVWXYZA1YZZ"));
		expect(factory.next(T)).toBe("01ARYZ6S41K7QRSTVWXYZA1YZZ");
		expect(factory.next(T)).toBe("01ARYZ6S41K7QRSTVWXYZA1Z00");
		expect(factory.next(T)).toBe("01ARYZ6S41K7QRSTVWXYZA1Z01");
	});

	it("carries across the whole random part", () => {
		const factory = new UlidFactory(drawing("0ZZZZZZZZZZZZZZY"));
		expect(factory.nextBatch(T, 3)).toEqual([
			"01ARYZ6S410ZZZZZZZZZZZZZZY",
			"01ARYZ6S410ZZZZZZZZZZZZZZZ",
			"01ARYZ6S411000000000000000",
		]);
	});

	it("counts exactly +1 per ID through many carries", () => {
		const start = fromBase32("00000000000ZZZ00");
		const ids = new UlidFactory(drawing(toBase32(start, 16))).nextBatch(T, 5000);
		ids.forEach((id, i) => {
			expect(id).toBe(`01ARYZ6S41${toBase32(start + BigInt(i), 16)}`);
		});
	});

	it("draws fresh random bits for a later millisecond", () => {
		const factory = new UlidFactory(drawing("AAAAAAAAAAAAAAAA", "0000000000000000"));
		expect(factory.next(T)).toBe("01ARYZ6S41AAAAAAAAAAAAAAAA");
		expect(factory.next(T)).toBe("01ARYZ6S41AAAAAAAAAAAAAAAB");
		expect(factory.next(T + 1)).toBe("01ARYZ6S420000000000000000");
	});

	it("throws 'overloaded' after the largest random part and never wraps", () => {
		const factory = new UlidFactory(repeating(new Uint8Array([0xff])));
		const last = factory.next(T);
		expect(last).toBe("01ARYZ6S41ZZZZZZZZZZZZZZZZ");
		const error = expectIdError(() => factory.next(T), "overloaded", /80-bit random part/);
		expect(error.retryAfterSeconds).toBe(1);
		expectIdError(() => factory.next(T), "overloaded"); // still refused, state not advanced
		expectIdError(() => factory.next(T - 10), "overloaded"); // clock back: still that ms
		expectIdError(() => factory.nextBatch(T, 1), "overloaded");
		const after = factory.next(T + 1);
		expect(after > last).toBe(true);
		expect(decodeUlid(after).timestamp).toBe(T + 1);
	});

	it("keeps increasing when the clock goes back, on the last timestamp", () => {
		const factory = new UlidFactory(drawing("AAAAAAAAAAAAAAAA"));
		const ids = [factory.next(T), factory.next(T - 1), factory.next(T - 5000), factory.next(T)];
		expect(ids).toEqual([
			"01ARYZ6S41AAAAAAAAAAAAAAAA",
			"01ARYZ6S41AAAAAAAAAAAAAAAB",
			"01ARYZ6S41AAAAAAAAAAAAAAAC",
			"01ARYZ6S41AAAAAAAAAAAAAAAD",
		]);
	});

	it("makes 10,000 strictly increasing, unique IDs in one millisecond", () => {
		const ids = new UlidFactory().nextBatch(T, 10_000);
		expect(ids).toHaveLength(10_000);
		expectTextIncreasing(ids);
		expect(new Set(ids).size).toBe(10_000);
		for (const id of ids) expect(id).toMatch(/^01ARYZ6S41[0-9A-HJKMNP-TV-Z]{16}$/);
	});

	it("calls the random source once per 16 new milliseconds, not per ID", () => {
		let calls = 0;
		const factory = new UlidFactory((bytes) => {
			calls++;
			crypto.getRandomValues(bytes);
		});
		for (let ms = 0; ms < 160; ms++) factory.nextBatch(T + ms, 10);
		expect(calls).toBe(10);
	});

	it("validates time and count", () => {
		const factory = new UlidFactory();
		expect(decodeUlid(factory.next(MAX_TIMESTAMP_MS)).timestamp).toBe(MAX_TIMESTAMP_MS);
		expectIdError(
			() => new UlidFactory().next(MAX_TIMESTAMP_MS + 1),
			"layout_exhausted",
			/beyond the 48-bit timestamp of ULID \(/,
		);
		expectBadInputsRefused(factory, T);
	});

	it("strictly increases under any clock sequence, including backward jumps", () => {
		fc.assert(
			fc.property(clockWalk.start, clockWalk.steps, fc.integer(), (start, steps, seed) => {
				// Random bytes mostly 0xff, so carries and the 80-bit overflow both happen.
				let state = seed | 1;
				const factory = new UlidFactory((bytes) => {
					for (let i = 0; i < bytes.length; i++) {
						state ^= state << 13;
						state ^= state >>> 17;
						state ^= state << 5;
						bytes[i] = (state & 3) === 0 ? state >>> 24 : 0xff;
					}
				});
				const ids = walkClock(start, steps, (clock, maxClock) => {
					let id: string;
					try {
						id = factory.next(clock);
					} catch (error) {
						if (!(error instanceof IdError && error.code === "overloaded")) throw error;
						return undefined;
					}
					expect(decodeUlid(id).timestamp).toBe(maxClock);
					return id;
				});
				expectTextIncreasing(ids);
			}),
		);
	});
});
