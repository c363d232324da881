/**
 * How GET /range reads what it is sent: window ends to the nanosecond (a fraction
 * beyond the millisecond rounds up), impossible dates refused, and any worker ID of
 * the layout, as over RPC: a range query may target another deployment's worker IDs.
 */
import { describe, expect, it } from "vitest";
import { decodeId } from "../../src/ids/forms/decode";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";
import type { ErrorBody } from "../../src/wire";
import { envWith, fetchApp, jsonAnswer } from "../shared/fetch-app";

type Range = { kind: string; from: string; to: string; min: string; max: string };

const layout = new SnowflakeLayout(TWITTER_LAYOUT);
const get = async <T>(path: string, vars: Record<string, unknown> = {}) =>
	jsonAnswer<T>(await fetchApp(path, undefined, envWith(vars)));

describe("GET /range reads its window exactly", () => {
	// Only millisecond …01.000 is in [00.9995, 01.0005): ⌈from⌉ = 01.000, ⌈to⌉ = 01.001.
	const from = encodeURIComponent("2026-11-01T00:00:00.999500+00:00");
	const to = encodeURIComponent("2026-11-01T00:00:01.000500+00:00");

	it.each([
		["snowflake", ""],
		["snowflake", "&format=base32"],
		["ulid", ""],
		["uuidv7", ""],
		["typeid", "&prefix=order"],
	])(
		"%s%s: the bounds are IDs of the one millisecond inside, rounded up at both ends",
		async (kind, extra) => {
			const { status, body } = await get<Range>(
				`/range?kind=${kind}&from=${from}&to=${to}${extra}`,
			);
			expect(status).toBe(200);
			expect([body.from, body.to]).toEqual([
				"2026-11-01T00:00:01.000Z",
				"2026-11-01T00:00:01.001Z",
			]);
			const format = extra.includes("base32") ? "base32" : undefined;
			for (const bound of [body.min, body.max]) {
				const decoded = decodeId(bound, layout, format) as { timestamp: number };
				expect(new Date(decoded.timestamp).toISOString()).toBe("2026-11-01T00:00:01.000Z");
			}
		},
	);

	it.each([
		["2026-02-30", "2026-02 has 28 days"],
		["2026-13-01", "month 13"],
		["2026-11-01T24:30:00Z", "hour 24"],
		["2026-11-01T12:00:00+25:00", "offset +25:00"],
	])(
		"from=%s is 400 invalid_range naming the value, why, and the accepted forms",
		async (text, why) => {
			const { status, body } = await get<ErrorBody>(
				`/range?kind=ulid&from=${encodeURIComponent(text)}&to=2026-12-01`,
			);
			expect([status, body.error.code]).toEqual([400, "invalid_range"]);
			expect(body.error.message).toContain(JSON.stringify(text));
			expect(body.error.message).toContain(why);
			expect(body.error.message).toContain("ISO 8601 with a zone");
		},
	);
});

describe("GET /range takes any worker ID of the layout, like RPC", () => {
	const owned = { WORKER_IDS: "0-7" };

	it("a worker ID outside WORKER_IDS answers bounds of that worker ID's IDs", async () => {
		const { status, body } = await get<Range>(
			"/range?kind=snowflake&from=2026-11-01&to=2026-11-02&workerId=100",
			owned,
		);
		expect(status).toBe(200);
		for (const bound of [body.min, body.max]) {
			expect(layout.decompose(BigInt(bound)).workerId).toBe(100);
		}
		// The ID routes still take owned worker IDs only.
		const issue = await get<ErrorBody>("/snowflake/100", owned);
		expect([issue.status, issue.body.error.code]).toEqual([400, "invalid_worker_id"]);
	});

	it.each(["1024", "0001024", "99999999999999999999"])(
		"workerId=%s, beyond the layout, is 400 invalid_worker_id naming [0, 1023] and the value sent",
		async (sent) => {
			const { status, body } = await get<ErrorBody>(
				`/range?kind=snowflake&from=2026-11-01&to=2026-11-02&workerId=${sent}`,
				owned,
			);
			expect([status, body.error.code]).toEqual([400, "invalid_worker_id"]);
			expect(body.error.message).toContain("[0, 1023]");
			// "1024" is the number 1024; text that reads as another number is quoted as sent.
			expect(body.error.message).toMatch(
				new RegExp(`; got ${sent === "1024" ? sent : JSON.stringify(sent)}$`),
			);
			expect(body.error.message).not.toContain("WORKER_IDS");
		},
	);
});
