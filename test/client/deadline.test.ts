/**
 * One call's deadline (src/client/deadline.ts) on its own, on fake timers: the
 * timeout it checks, a race started after it passed, what it blames, and that
 * `end()` leaves nothing listening on the callers' signals.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { checkTimeoutMs, startDeadline } from "../../src/client/deadline";
import { IdsError } from "../../src/client/errors";

beforeEach(() => {
	vi.useFakeTimers();
});
afterEach(() => {
	vi.useRealTimers();
});

describe("checkTimeoutMs", () => {
	it("takes (0, 2^31 - 1] ms, the longest a timer keeps", () => {
		expect(checkTimeoutMs("timeoutMs", 1)).toBe(1);
		expect(checkTimeoutMs("timeoutMs", 2 ** 31 - 1)).toBe(2 ** 31 - 1);
	});

	it.each([
		[0, "0"],
		[2 ** 31, "2147483648"],
		[Number.NaN, "NaN"],
		["7", '"7"'],
		[null, "null"],
	])("refuses %o, naming the option and the value", (value, shown) => {
		expect(() => checkTimeoutMs("refillTimeoutMs", value as number)).toThrow(
			expect.objectContaining({
				code: "invalid_config",
				message: `invalid_config: refillTimeoutMs must be a number of milliseconds in (0, 2147483647]; got ${shown}`,
			}),
		);
	});
});

describe("startDeadline", () => {
	it("a race started after the deadline passed fails at once", async () => {
		const deadline = startDeadline(10, [], "GET /ulid");
		await vi.advanceTimersByTimeAsync(10);
		await expect(deadline.race(new Promise(() => {}))).rejects.toMatchObject({
			code: "timeout",
			message: "timeout: GET /ulid had no answer within 10 ms",
		});
		deadline.end();
	});

	it("blames the deadline for what the work threw once it passed, and only then", async () => {
		const deadline = startDeadline(10, [], "GET /ulid");
		const thrown = new TypeError("fetch failed");
		expect(deadline.blame(thrown)).toBe(thrown);
		await vi.advanceTimersByTimeAsync(10);
		expect(deadline.blame(thrown)).toMatchObject({ code: "timeout" });
		deadline.end();
	});

	it("a caller's abort is blamed as aborted, the reason kept", () => {
		const caller = new AbortController();
		const deadline = startDeadline(1_000, [undefined, caller.signal], "GET /ulid");
		const reason = new Error("navigated away");
		caller.abort(reason);
		const blamed = deadline.blame(new Error("whatever the work threw")) as IdsError;
		expect(blamed).toBeInstanceOf(IdsError);
		expect(blamed).toMatchObject({
			code: "aborted",
			message: "aborted: GET /ulid was aborted by the caller's signal",
			cause: reason,
		});
		deadline.end();
	});

	it("end() clears the timer and stops listening to the callers' signals", async () => {
		const caller = new AbortController();
		const deadline = startDeadline(1_000, [caller.signal], "GET /ulid");
		expect(vi.getTimerCount()).toBe(1);
		deadline.end();
		expect(vi.getTimerCount()).toBe(0);
		caller.abort(new Error("later"));
		await vi.advanceTimersByTimeAsync(2_000);
		expect(deadline.signal.aborted).toBe(false);
	});
});
