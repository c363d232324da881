/**
 * The two orders the service promises, as checks. Snowflakes increase as 64-bit
 * numbers (their decimal text does not sort: "999" > "1000"); ULID, UUIDv7, TypeID
 * and base32 Snowflake text increase as text, which holds only because every such
 * ID of one kind has the same width, so the text check also asserts that.
 */
import { expect } from "vitest";

/** Each Snowflake (decimal text or bigint) is greater than the one before, as a number. */
export function expectSnowflakesIncreasing(ids: readonly (string | bigint | undefined)[]): void {
	const numbers = ids.map((id) => BigInt(id as string | bigint));
	const at = numbers.findIndex((n, i) => i > 0 && n <= (numbers[i - 1] as bigint));
	expect(at, `not increasing at ${at}: ${ids[at - 1]} then ${ids[at]}`).toBe(-1);
}

/** Each fixed-width text ID (ULID, UUIDv7, TypeID, base32) sorts after the one before, as text. */
export function expectTextIncreasing(ids: readonly string[]): void {
	const width = ids[0]?.length;
	const other = ids.findIndex((id) => id.length !== width);
	expect(other, `not fixed-width: ${ids[0]} then ${ids[other]}`).toBe(-1);
	const at = ids.findIndex((id, i) => i > 0 && id <= (ids[i - 1] as string));
	expect(at, `not increasing at ${at}: ${ids[at - 1]} then ${ids[at]}`).toBe(-1);
}
