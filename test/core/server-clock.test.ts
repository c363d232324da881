/** The lease holder's clock: the service's time carried by the monotonic clock, never back. */
import { describe, expect, it } from "vitest";
import { ServerClock } from "../../src/ids/leases/holder/server-clock";

describe("ServerClock", () => {
	it("reads the anchor plus the monotonic time since it arrived, whatever the wall clock says", () => {
		let monotonic = 5_000;
		const clock = new ServerClock(
			() => monotonic,
			async () => {},
		);
		expect(clock.now()).toBeNaN();
		clock.anchor(1_700_000_000_000);
		monotonic += 250;
		expect(clock.now()).toBe(1_700_000_000_250);
	});

	it("moves on to an anchor ahead of it and ignores one behind it (never steps back)", () => {
		let monotonic = 0;
		const clock = new ServerClock(
			() => monotonic,
			async () => {},
		);
		clock.anchor(10_000);
		monotonic = 100;
		clock.anchor(10_050); // an answer that took 50 ms: behind the clock's 10,100
		expect(clock.now()).toBe(10_100);
		clock.anchor(10_400); // another object, 300 ms ahead
		expect(clock.now()).toBe(10_400);
		monotonic = 200;
		expect(clock.now()).toBe(10_500);
	});

	it("steps back to an anchor further behind than it is told to allow, and only then", () => {
		let monotonic = 0;
		const clock = new ServerClock(
			() => monotonic,
			async () => {},
		);
		clock.anchor(70_000); // an object whose clock stepped 60 s ahead
		monotonic = 10_000;
		expect(clock.anchor(50_000, 30_000)).toBe(false); // 30 s behind: not more than allowed
		expect(clock.now()).toBe(80_000);
		expect(clock.anchor(20_000)).toBe(false); // no bound given: never back
		expect(clock.anchor(20_000, 30_000)).toBe(true); // 60 s behind: the reading was wrong
		expect(clock.now()).toBe(20_000);
		monotonic = 10_500;
		expect(clock.now()).toBe(20_500);
	});
});
