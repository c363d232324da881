import { describe, expect, it } from "vitest";
import { expectSnowflakesIncreasing, expectTextIncreasing } from "./order";

describe("the order checks", () => {
	it("compares Snowflakes as numbers, not as decimal text", () => {
		expectSnowflakesIncreasing(["999", "1000", 1001n]);
		expect(() => expectSnowflakesIncreasing(["1000", "999"])).toThrow(/not increasing at 1/);
		expect(() => expectSnowflakesIncreasing(["5", "5"])).toThrow(/not increasing at 1/);
	});

	it("compares text IDs as text, and only IDs of one width", () => {
		expectTextIncreasing(["01ARYZ6S41AAAAAAAAAAAAAAAZ", "01ARYZ6S41AAAAAAAAAAAAAAB0"]);
		expect(() => expectTextIncreasing(["b", "a"])).toThrow(/not increasing at 1/);
		expect(() => expectTextIncreasing(["999", "1000"])).toThrow(/not fixed-width/);
	});
});
