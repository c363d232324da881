/**
 * ID bounds refused: each bad window or kind answers invalid_range (or the kind's
 * own code) with a message naming what was wrong and what is allowed.
 */
import { describe, expect, it } from "vitest";
import { describeValue, IdError } from "../../src/ids/errors";
import {
	BOUNDS_KINDS,
	type BoundsKind,
	idBounds,
	readTime,
	TIME_RULE,
} from "../../src/ids/ranges/id-bounds";
import { MAX_DATE_MS, SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";

function refusal(call: () => unknown): IdError {
	try {
		call();
	} catch (error) {
		expect(error).toBeInstanceOf(IdError);
		return error as IdError;
	}
	throw new Error("expected a refusal");
}

describe("refusals say what was wrong and what is allowed", () => {
	const layout = new SnowflakeLayout(TWITTER_LAYOUT);

	it("a time that is not one: the end named, the value, the forms taken", () => {
		for (const value of [null, true, {}, [], undefined, [5], ["2026-11-01"]]) {
			const error = refusal(() => readTime("to", value));
			expect(error.code).toBe("invalid_range");
			expect(error.detail).toBe(`to must be ${TIME_RULE}; got ${describeValue(value)}`);
		}
		expect(refusal(() => idBounds({ kind: "ulid", from: "x", to: 5 })).detail).toMatch(
			/^from must be/,
		);
		expect(refusal(() => idBounds({ kind: "ulid", from: 5, to: "x" })).detail).toMatch(
			/^to must be/,
		);
	});

	it("a + sent unencoded in a query string (a space before the zone) is named as that", () => {
		expect(refusal(() => readTime("from", "2026-11-01T00:00:00 01:00")).detail).toBe(
			`from must be ${TIME_RULE}; got "2026-11-01T00:00:00 01:00" (a + in a query string is written %2B)`,
		);
		expect(refusal(() => readTime("from", "2026-11-01T00:00:00 01:00x")).detail).toBe(
			`from must be ${TIME_RULE}; got "2026-11-01T00:00:00 01:00x"`,
		);
	});

	it("the largest time a Date holds is taken, one more is not", () => {
		expect(readTime("from", MAX_DATE_MS)).toBe(MAX_DATE_MS);
		expect(readTime("from", -MAX_DATE_MS)).toBe(-MAX_DATE_MS);
		expect(refusal(() => readTime("from", MAX_DATE_MS + 1)).code).toBe("invalid_range");
		expect(refusal(() => readTime("from", String(MAX_DATE_MS + 1))).code).toBe("invalid_range");
	});

	it("a reversed or empty window, for every kind", () => {
		for (const kind of BOUNDS_KINDS) {
			for (const [from, to] of [
				[1_800_000_000_005, 1_800_000_000_005],
				[1_800_000_000_006, 1_800_000_000_005],
			] as const) {
				const error = refusal(() => idBounds({ kind, from, to, layout }));
				expect(error.code).toBe("invalid_range");
				expect(error.detail).toBe(
					`from must be before to (the window is [from, to)); got from ${new Date(from).toISOString()}, to ${new Date(to).toISOString()}`,
				);
			}
		}
		expect(idBounds({ kind: "ulid", from: 5, to: 6 }).fromMs).toBe(5);
	});

	it("an unknown kind, and options a kind does not take", () => {
		expect(refusal(() => idBounds({ kind: "nope" as BoundsKind, from: 1, to: 2 })).detail).toBe(
			'kind must be one of snowflake, ulid, uuidv7, typeid; got "nope"',
		);
		for (const kind of ["ulid", "uuidv7", "typeid"] as const) {
			expect(refusal(() => idBounds({ kind, from: 1, to: 2, workerId: 3 })).detail).toBe(
				`workerId applies to kind=snowflake only; got kind=${kind}`,
			);
			expect(refusal(() => idBounds({ kind, from: 1, to: 2, format: "decimal" })).detail).toBe(
				`format applies to kind=snowflake only; got kind=${kind}`,
			);
		}
		for (const kind of ["ulid", "uuidv7"] as const) {
			const error = refusal(() => idBounds({ kind, from: 1, to: 2, prefix: "user" }));
			expect([error.code, error.detail]).toEqual([
				"invalid_prefix",
				`prefix applies to kind=typeid and kind=snowflake only; got kind=${kind}`,
			]);
		}
		expect(idBounds({ kind: "typeid", from: 1, to: 2, prefix: "user" }).min).toMatch(/^user_/);
	});

	it("a window a 48-bit time cannot hold", () => {
		expect(refusal(() => idBounds({ kind: "uuidv7", from: -10, to: 0 })).detail).toBe(
			"a uuidv7's time is a 48-bit Unix millisecond count, from 1970-01-01T00:00:00.000Z to 10889-08-02T05:31:50.655Z; the window [1969-12-31T23:59:59.990Z, 1970-01-01T00:00:00.000Z) lies outside it",
		);
		expect(idBounds({ kind: "uuidv7", from: -10, to: 1 }).min).toBe(
			"00000000-0000-7000-8000-000000000000",
		);
	});

	it("Snowflakes: a layout is needed, and a worker ID of it", () => {
		const error = refusal(() => idBounds({ kind: "snowflake", from: 1, to: 2 }));
		expect([error.code, error.detail]).toEqual([
			"invalid_config",
			"kind=snowflake needs the layout its IDs use",
		]);
		const from = layout.epoch;
		for (const workerId of [-1, 1.5, 1024, Number.NaN]) {
			const refused = refusal(() =>
				idBounds({ kind: "snowflake", from, to: from + 1, layout, workerId }),
			);
			expect([refused.code, refused.detail]).toEqual([
				"invalid_worker_id",
				`workerId must be an integer in [0, 1023] (the layout's worker field); got ${describeValue(workerId)}`,
			]);
		}
		for (const workerId of [0, 1023]) {
			const { min, max } = idBounds({ kind: "snowflake", from, to: from + 1, layout, workerId });
			expect(layout.decompose(BigInt(min)).workerId).toBe(workerId);
			expect(layout.decompose(BigInt(max)).workerId).toBe(workerId);
		}
	});

	it("Snowflakes: a window no tick starts in says why, with the tick only where it is longer than 1 ms", () => {
		const epoch = layout.epoch;
		expect(refusal(() => idBounds({ kind: "snowflake", from: 0, to: epoch, layout })).detail).toBe(
			`the layout's IDs carry times from ${new Date(epoch).toISOString()} (its epoch) until ${new Date(layout.exhaustsAt).toISOString()}; the window [${new Date(0).toISOString()}, ${new Date(epoch).toISOString()}) holds none`,
		);
		const tens = new SnowflakeLayout({ ...TWITTER_LAYOUT, timeUnitMs: 10 });
		const window = [epoch + 1, epoch + 9] as const;
		expect(
			refusal(() => idBounds({ kind: "snowflake", from: window[0], to: window[1], layout: tens }))
				.detail,
		).toBe(
			`the layout's IDs carry times from ${new Date(epoch).toISOString()} (its epoch) until ${new Date(tens.exhaustsAt).toISOString()} (a tick starts every 10 ms from the epoch; none starts in this window); the window [${new Date(window[0]).toISOString()}, ${new Date(window[1]).toISOString()}) holds none`,
		);
	});
});
