/** POST generation routes read their parameters from a JSON body too. */
import { describe, expect, it } from "vitest";
import { callJson } from "./helpers";

type Answer = { ids?: string[]; workerId?: number; error?: { code: string; message: string } };
const post = (path: string, body: string, type = "application/json") =>
	callJson<Answer>(path, { method: "POST", body, headers: { "Content-Type": type } });

describe("JSON bodies on POST", () => {
	it.each([
		["/ulid", '{"count":5}', 5],
		["/uuidv7", '{"count":3}', 3],
		["/snowflake", '{"count":4}', 4],
		["/snowflake/301", '{"count":2}', 2],
		["/ulid", "", 1],
	])("POST %s %s answers %i IDs", async (path, body, n) => {
		const { status, body: answer } = await post(path, body);
		expect(status).toBe(200);
		expect(answer.ids).toHaveLength(n);
	});

	it("takes format from the body", async () => {
		const { body } = await post("/ulid", '{"count":2,"format":"uuid"}');
		expect(body.ids?.[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
	});

	it("ignores the body of another content type, as before", async () => {
		const { status, body } = await post("/ulid", '{"count":5}', "text/plain");
		expect(status).toBe(200);
		expect(body.ids).toHaveLength(1);
	});

	it.each([
		[
			"/ulid?count=2",
			'{"count":5}',
			"invalid_count",
			/given both in the query and in the JSON body/,
		],
		[
			"/ulid",
			'{"count":"5"}',
			"invalid_count",
			/must be a number, an integer in \[1, 10000\]; got "5"/,
		],
		["/ulid", '{"count":0}', "invalid_count", /\[1, 10000\]/],
		["/ulid", '{"count":1.5}', "invalid_count", /got 1.5/],
		["/ulid", '{"format":"hex"}', "invalid_format", /"ulid" or "uuid"/],
		["/snowflake/blocks", '{"count":"5"}', "invalid_count", /an integer in \[1, 1000000\]/],
		["/ulid", "[1,2]", "invalid_body", /must be a JSON object/],
		["/ulid", '"5"', "invalid_body", /must be a JSON object/],
		["/ulid", "null", "invalid_body", /must be a JSON object/],
		["/snowflake/302", "{count: 5}", "invalid_body", /not valid JSON/],
		[
			"/ulid",
			'{"cout":5}',
			"invalid_body",
			/unknown field "cout" in the JSON body; allowed: count, format/,
		],
		[
			"/snowflake",
			'{"count":2,"workerId":3}',
			"invalid_body",
			/unknown field "workerId".*allowed: count, format, prefix$/,
		],
		["/ulid", `{"count":1,"pad":"${"x".repeat(1100)}"}`, "invalid_body", /at most 1024 bytes/],
	])("POST %s %s → 400 %s", async (path, body, code, message) => {
		const { status, body: answer } = await post(path, body);
		expect(status).toBe(400);
		expect(answer.error?.code).toBe(code);
		expect(answer.error?.message).toMatch(message);
	});
});
