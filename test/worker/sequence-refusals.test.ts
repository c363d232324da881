/**
 * What the /sequences routes refuse, and with which code and status: a bad name
 * (400 invalid_sequence_name), a name never created (404 unknown_sequence, writing
 * nothing), bad settings and `to` (400 invalid_sequence_options), counts past
 * MAX_BATCH and MAX_BLOCK_COUNT, and names a route does not take (400 invalid_request).
 */
import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/wire";
import { call, callJson } from "./helpers";
import { sequenceName } from "./sequence-helpers";

const json = (method: string, body: unknown): RequestInit => ({
	method,
	headers: { "Content-Type": "application/json" },
	body: JSON.stringify(body),
});

async function refused(path: string, init?: RequestInit) {
	const { status, body } = await callJson<ErrorBody>(path, init);
	return { status, ...body.error };
}

describe("/sequences refusals", () => {
	it.each([".hidden", "-x", "~catalog", "a".repeat(65), "caf%C3%A9", "a%2Fb"])(
		"refuses the name %s with 400 invalid_sequence_name",
		async (name) => {
			for (const [path, init] of [
				[`/sequences/${name}`, { method: "PUT" }],
				[`/sequences/${name}/next`, undefined],
				[`/sequences/${name}`, undefined],
			] as const) {
				const refusal = await refused(path, init);
				expect(refusal.status).toBe(400);
				expect(refusal.code).toBe("invalid_sequence_name");
				expect(refusal.message).toContain(
					"name must be 1-64 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit; got ",
				);
			}
		},
	);

	it("answers 404 unknown_sequence for a name never created, on every route, creating nothing", async () => {
		const name = sequenceName("never");
		for (const [path, init] of [
			[`/sequences/${name}/next`, undefined],
			[`/sequences/${name}/next`, { method: "POST" }],
			[`/sequences/${name}/reserve?count=5`, { method: "POST" }],
			[`/sequences/${name}/advance`, json("POST", { to: 5 })],
			[`/sequences/${name}`, undefined],
		] as const) {
			const refusal = await refused(path, init);
			expect([refusal.status, refusal.code], path).toEqual([404, "unknown_sequence"]);
			expect(refusal.message).toContain(`PUT /sequences/${name}`);
		}
		// Still never created: the first create is a 201.
		expect((await call(`/sequences/${name}`, { method: "PUT" })).status).toBe(201);
	});

	it("refuses bad settings and advances with 400 invalid_sequence_options in one wording", async () => {
		const name = sequenceName("bad-settings");
		expect(await refused(`/sequences/${name}`, json("PUT", { mode: "fast" }))).toEqual({
			status: 400,
			code: "invalid_sequence_options",
			message: 'mode must be "ordered" or "pooled"; got "fast"',
		});
		expect(await refused(`/sequences/${name}?start=-1`, { method: "PUT" })).toEqual({
			status: 400,
			code: "invalid_sequence_options",
			message:
				'start must be an integer in [0, 9223372036854775807] (above 2^53 written as a decimal string); got "-1"',
		});
		expect(
			await refused(`/sequences/${name}`, json("PUT", { start: "9223372036854775808" })),
		).toMatchObject({
			code: "invalid_sequence_options",
		});
		expect(await refused(`/sequences/${name}`, json("PUT", { timeZone: "Mars/Olympus" }))).toEqual({
			status: 400,
			code: "invalid_sequence_options",
			message:
				'timeZone must be an IANA time zone name such as "UTC", "Europe/London" or "Asia/Kathmandu"; got "Mars/Olympus"',
		});
		expect(await refused(`/sequences/${name}`, json("PUT", { strat: 5 }))).toEqual({
			status: 400,
			code: "invalid_request",
			message: 'unknown parameter "strat"; it takes start, mode, reset, timeZone',
		});
		await call(`/sequences/${name}`, { method: "PUT" });
		expect(await refused(`/sequences/${name}/advance`, { method: "POST" })).toEqual({
			status: 400,
			code: "invalid_sequence_options",
			message:
				"to must be an integer in [0, 9223372036854775807] (above 2^53 written as a decimal string); it is missing",
		});
	});

	it("bounds counts by MAX_BATCH (next) and MAX_BLOCK_COUNT (reserve); reserve needs one", async () => {
		const name = sequenceName("counts");
		await call(`/sequences/${name}`, { method: "PUT" });
		expect(await refused(`/sequences/${name}/next?count=10001`)).toEqual({
			status: 400,
			code: "invalid_count",
			message: "count must be an integer in [1, 10000]; got 10001",
		});
		expect(await refused(`/sequences/${name}/reserve?count=1000001`, { method: "POST" })).toEqual({
			status: 400,
			code: "invalid_count",
			message: "count must be an integer in [1, 1000000]; got 1000001",
		});
		expect(await refused(`/sequences/${name}/reserve`, { method: "POST" })).toMatchObject({
			code: "invalid_count",
			message: "count must be an integer in [1, 1000000]; it is missing",
		});
		expect(await refused(`/sequences/${name}/next?cout=2`)).toEqual({
			status: 400,
			code: "invalid_request",
			message: 'unknown parameter "cout"; it takes count',
		});
	});
});
