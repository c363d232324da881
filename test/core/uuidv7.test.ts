import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RandomBytes } from "../../src/ids/clock";
import { MAX_TIMESTAMP_MS } from "../../src/ids/forms/crockford";
import { formatUuid, isUuidV7, parseUuid, uuidV7Timestamp } from "../../src/ids/forms/uuid";
import { MAX_UUIDV7_COUNTER, UuidV7Factory } from "../../src/ids/forms/uuidv7";
import { expectTextIncreasing } from "../shared/order";
import { expectIdError, uuidOf } from "./oracle";
import { clockWalk, expectBadInputsRefused, walkClock } from "./text-id-checks";

// Independent oracle: the RFC 9562 bit layout assembled with BigInt.
function expectedUuidV7(ms: number, counter: number, random32: number): string {
	const counterBits = BigInt(counter);
	const value =
		(BigInt(ms) << 80n) |
		(0x7n << 76n) | // version
		((counterBits >> 30n) << 64n) | // rand_a: counter bits 41..30
		(0b10n << 62n) | // variant
		((counterBits & 0x3fffffffn) << 32n) | // rand_b top 30: counter bits 29..0
		BigInt(random32);
	return uuidOf(value);
}

function fields(uuid: string): { ms: number; version: number; variant: number; counter: number } {
	const value = BigInt(`0x${uuid.replaceAll("-", "")}`);
	return {
		ms: Number(value >> 80n),
		version: Number((value >> 76n) & 0xfn),
		variant: Number((value >> 62n) & 0b11n),
		counter: Number((((value >> 64n) & 0xfffn) << 30n) | ((value >> 32n) & 0x3fffffffn)),
	};
}

/** RandomBytes that writes 0, 1, 2, … continuing across calls (mod 256). */
function counting(): RandomBytes {
	let next = 0;
	return (bytes) => {
		for (let i = 0; i < bytes.length; i++) bytes[i] = next++ & 0xff;
	};
}

const fill =
	(byte: number): RandomBytes =>
	(bytes) => {
		bytes.fill(byte);
	};

const RFC_EXAMPLE = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
const T = 1645557742000;
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("parseUuid", () => {
	it("parses the RFC 9562 UUIDv7 example", () => {
		const parsed = parseUuid(RFC_EXAMPLE);
		expect(parsed.id).toBe(RFC_EXAMPLE);
		expect(parsed.version).toBe(7);
		expect(Array.from(parsed.bytes)).toEqual([
			0x01, 0x7f, 0x22, 0xe2, 0x79, 0xb0, 0x7c, 0xc3, 0x98, 0xc4, 0xdc, 0x0c, 0x0c, 0x07, 0x39,
			0x8f,
		]);
		expect(uuidV7Timestamp(parsed.bytes)).toBe(1645557742000);
	});

	it("accepts any case and any version, answering lowercase", () => {
		expect(parseUuid(RFC_EXAMPLE.toUpperCase()).id).toBe(RFC_EXAMPLE);
		expect(parseUuid("F47AC10B-58CC-4372-A567-0E02B2C3D479").version).toBe(4);
		expect(parseUuid("00000000-0000-0000-0000-000000000000").version).toBe(0);
		expect(parseUuid("ffffffff-ffff-ffff-ffff-ffffffffffff").version).toBe(15);
	});

	it("round-trips any 128 bits through formatUuid", () => {
		fc.assert(
			fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (bytes) => {
				const text = formatUuid(bytes);
				expect(text).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
				expect(parseUuid(text).bytes).toEqual(bytes);
				expect(parseUuid(text.toUpperCase()).id).toBe(text);
			}),
		);
	});

	it("rejects anything that is not 36 characters with hyphens at 8-4-4-4-12", () => {
		const cases: [string, RegExp][] = [
			["", /got 0 characters/],
			[RFC_EXAMPLE.slice(1), /got 35 characters/],
			[`${RFC_EXAMPLE}0`, /got 37 characters/],
			[RFC_EXAMPLE.replaceAll("-", ""), /got 32 characters/],
			[`{${RFC_EXAMPLE}}`, /got 38 characters/],
			[`urn:uuid:${RFC_EXAMPLE}`, /got 45 characters/],
			["017f22e279-b0-7cc3-98c4-dc0c0c07398f", /expected '-' at position 9, found '7'/],
			["017f22e2-79b0-7cc3-98c4+dc0c0c07398f", /expected '-' at position 24, found '\+'/],
			["017f22e2-79b0-7cc3-98c4-dc0c0c07398g", /found 'g' at position 36/],
			["017f22e2-79b0-7cc3-98c4- c0c0c07398f", /found U\+0020 at position 25/],
			["017f22e2-79b0-7cc3-98c4-dc0c0c07398é", /found U\+00E9 at position 36/],
		];
		for (const [text, message] of cases) {
			const error = expectIdError(() => parseUuid(text), "invalid_id", message);
			expect(error.detail).toMatch(/36 characters.*hyphens at 8-4-4-4-12/);
		}
	});

	it("reads the timestamp only from 16 bytes", () => {
		expect(() => uuidV7Timestamp(new Uint8Array(15))).toThrow(
			new RangeError("a UUID has 16 bytes, got 15"),
		);
		expect(uuidV7Timestamp(new Uint8Array(16).fill(0xff))).toBe(MAX_TIMESTAMP_MS);
	});
});

describe("UuidV7Factory", () => {
	it("lays out time, version, counter, variant and random bits per RFC 9562", () => {
		const counter = 0x123_4567_89ab;
		const factory = new UuidV7Factory(counting(), () => counter);
		const first = factory.next(T);
		expect(first).toBe(expectedUuidV7(T, counter, 0x00010203));
		expect(first.startsWith("017f22e2-79b0-7")).toBe(true);
		expect(factory.next(T)).toBe(expectedUuidV7(T, counter + 1, 0x04050607));
		expect(uuidV7Timestamp(parseUuid(first).bytes)).toBe(T);
	});

	it("seeds the counter randomly each millisecond with its top bit 0", () => {
		// 41 bits: the top 11 of the first 32-bit draw, then the top 30 of the second.
		const seeded = new UuidV7Factory(counting()).next(T);
		expect(seeded).toBe(
			expectedUuidV7(T, (0x00010203 >>> 21) * 2 ** 30 + (0x04050607 >>> 2), 0x08090a0b),
		);
		const allOnes = fields(new UuidV7Factory(fill(0xff)).next(T));
		expect(allOnes.counter).toBe(2 ** 41 - 1);
		const factory = new UuidV7Factory();
		const counters = new Set<number>();
		for (let ms = 0; ms < 1000; ms++) {
			const { counter } = fields(factory.next(T + ms));
			expect(counter).toBeLessThan(2 ** 41);
			counters.add(counter);
		}
		expect(counters.size).toBeGreaterThan(990); // reseeded, not carried over
	});

	it("sets version 7 and variant 10 on every UUID", () => {
		const factory = new UuidV7Factory();
		for (const id of [...factory.nextBatch(T, 1000), ...factory.nextBatch(T + 1, 1000)]) {
			expect(id).toMatch(UUID_TEXT);
			const { version, variant } = fields(id);
			expect(version).toBe(7);
			expect(variant).toBe(0b10);
			expect(parseUuid(id).version).toBe(7);
		}
	});

	it("makes 10,000 strictly increasing, unique UUIDs in one millisecond", () => {
		const ids = new UuidV7Factory().nextBatch(T, 10_000);
		expect(ids).toHaveLength(10_000);
		expectTextIncreasing(ids);
		expect(new Set(ids).size).toBe(10_000);
		const first = fields(ids[0] ?? "");
		ids.forEach((id, i) => {
			expect(fields(id)).toEqual({ ...first, counter: first.counter + i });
		});
	});

	it("increases across milliseconds and when the clock goes back", () => {
		const factory = new UuidV7Factory(counting(), () => 100);
		const ids = [T, T + 1, T, T - 1000, T + 1, T + 2].map((ms) => factory.next(ms));
		expectTextIncreasing(ids);
		expect(ids.map((id) => [fields(id).ms - T, fields(id).counter])).toEqual([
			[0, 100],
			[1, 100],
			[1, 101], // clock back: the last timestamp, counter + 1
			[1, 102],
			[1, 103],
			[2, 100],
		]);
	});

	it("carries from rand_b into rand_a", () => {
		const factory = new UuidV7Factory(fill(0), () => 2 ** 30 - 1);
		expect(factory.nextBatch(T, 2)).toEqual([
			expectedUuidV7(T, 2 ** 30 - 1, 0),
			expectedUuidV7(T, 2 ** 30, 0),
		]);
	});

	it("advances the timestamp by 1 ms and reseeds when the counter overflows", () => {
		const seeds = [MAX_UUIDV7_COUNTER - 1, 7];
		const factory = new UuidV7Factory(fill(0), () => seeds.shift() ?? 0);
		const ids = factory.nextBatch(T, 4);
		expectTextIncreasing(ids);
		expect(ids).toEqual([
			expectedUuidV7(T, MAX_UUIDV7_COUNTER - 1, 0),
			expectedUuidV7(T, MAX_UUIDV7_COUNTER, 0),
			expectedUuidV7(T + 1, 7, 0),
			expectedUuidV7(T + 1, 8, 0),
		]);
		expect(factory.next(T + 1)).toBe(expectedUuidV7(T + 1, 9, 0)); // the real clock caught up
	});

	it("refuses to borrow a millisecond past the 48-bit range, without changing state", () => {
		const factory = new UuidV7Factory(fill(0), () => MAX_UUIDV7_COUNTER);
		const last = factory.next(MAX_TIMESTAMP_MS);
		expect(last).toBe("ffffffff-ffff-7fff-bfff-ffff00000000");
		expectIdError(
			() => factory.next(MAX_TIMESTAMP_MS),
			"layout_exhausted",
			/beyond the 48-bit timestamp of UUIDv7 \(/,
		);
		expectIdError(() => factory.next(MAX_TIMESTAMP_MS), "layout_exhausted");
	});

	it("validates time and count", () => {
		const factory = new UuidV7Factory();
		expectIdError(
			() => factory.next(MAX_TIMESTAMP_MS + 1),
			"layout_exhausted",
			/beyond the 48-bit timestamp of UUIDv7 \(/,
		);
		expectBadInputsRefused(factory, T);
	});

	it("draws random bytes in blocks, not once per UUID", () => {
		let calls = 0;
		const factory = new UuidV7Factory((bytes) => {
			calls++;
			crypto.getRandomValues(bytes);
		});
		factory.nextBatch(T, 10_000); // 8 seed bytes + 4 per UUID = 40,008 bytes
		expect(calls).toBeLessThanOrEqual(40);
	});

	it("strictly increases under any clock sequence, including backward jumps and overflows", () => {
		fc.assert(
			fc.property(
				clockWalk.start,
				clockWalk.steps,
				fc.array(
					fc.oneof(
						fc.constant(MAX_UUIDV7_COUNTER),
						fc.integer({ min: MAX_UUIDV7_COUNTER - 30, max: MAX_UUIDV7_COUNTER }),
						fc.integer({ min: 2 ** 30 - 30, max: 2 ** 30 }),
						fc.integer({ min: 0, max: 2 ** 41 - 1 }),
					),
					{ minLength: 1 },
				),
				(start, steps, seeds) => {
					let nextSeed = 0;
					const factory = new UuidV7Factory(undefined, () => seeds[nextSeed++ % seeds.length] ?? 0);
					const ids = walkClock(start, steps, (clock, maxClock) => {
						const id = factory.next(clock);
						expect(id).toMatch(UUID_TEXT);
						expect(fields(id).ms).toBeGreaterThanOrEqual(maxClock);
						return id;
					});
					expectTextIncreasing(ids);
				},
			),
		);
	});
});

describe("isUuidV7", () => {
	it("needs version 7 and the RFC 9562 variant (10)", () => {
		const bytes = (version: string, variant: string) =>
			parseUuid(`017f22e2-79b0-${version}cc3-${variant}8c4-dc0c0c07398f`).bytes;
		expect(isUuidV7(bytes("7", "9"))).toBe(true);
		expect(isUuidV7(bytes("7", "b"))).toBe(true);
		expect(isUuidV7(bytes("4", "9"))).toBe(false);
		expect(isUuidV7(bytes("8", "9"))).toBe(false);
		expect(isUuidV7(bytes("7", "c"))).toBe(false); // variant 110: Microsoft's
		expect(isUuidV7(bytes("7", "7"))).toBe(false); // variant 0: NCS
	});
});
