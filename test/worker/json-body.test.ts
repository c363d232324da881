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

	it.each([
		["/ulid", "application/x-www-form-urlencoded", "count=5"], // curl -d count=5
		["/ulid", "application/x-www-form-urlencoded", '{"count":5}'], // curl -d '{"count":5}'
		["/uuidv7", "text/plain;charset=UTF-8", '{"count":5}'], // fetch(url, { body: string })
		["/snowflake/303", "text/json", '{"count":2}'],
		["/snowflake", "application/jsonl", "\n count=5"],
		["/snowflake/blocks", "application/octet-stream", "x".repeat(5000)],
	])(
		"POST %s with a non-empty body of type %s → 415, naming application/json",
		async (path, type, body) => {
			const { status, body: answer } = await post(path, body, type);
			expect(status).toBe(415);
			expect(answer.error?.code).toBe("unsupported_media_type");
			expect(answer.error?.message).toContain("'Content-Type: application/json'");
			expect(answer.error?.message).toContain(`got Content-Type: ${type}`);
		},
	);

	it("a body without any Content-Type → 415; an empty one of any type asks for the defaults", async () => {
		const untyped = await callJson<Answer>("/ulid", {
			method: "POST",
			body: new Blob(["count=5"]),
		});
		expect(untyped.status).toBe(415);
		expect(untyped.body.error?.message).toMatch(/got no Content-Type$/);
		for (const [body, type] of [
			["", "application/x-www-form-urlencoded"], // curl -X POST -d ''
			[" \r\n", "text/plain"],
			["", "application/json"],
		] as const) {
			const { status, body: answer } = await post("/ulid", body, type);
			expect(status, `${JSON.stringify(body)} as ${type}`).toBe(200);
			expect(answer.ids).toHaveLength(1);
		}
		const none = await callJson<Answer>("/ulid?count=2", { method: "POST" });
		expect(none.status).toBe(200);
		expect(none.body.ids).toHaveLength(2);
	});

	it("reads JSON declared with parameters or a +json suffix", async () => {
		for (const type of [
			"application/json; charset=utf-8",
			"Application/JSON",
			"application/vnd.api+json",
		]) {
			const { status, body } = await post("/ulid", '{"count":3}', type);
			expect(status, type).toBe(200);
			expect(body.ids, type).toHaveLength(3);
		}
	});

	it("does not echo a long Content-Type", async () => {
		const type = `text/${"x".repeat(300)}`;
		const { status, body } = await post("/ulid", "count=5", type);
		expect(status).toBe(415);
		expect(body.error?.message).toMatch(/got a Content-Type of 305 characters$/);
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
			/^count must be an integer in \[1, 10000\]; got "5"$/,
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
			"invalid_request",
			/^unknown parameter "cout"; it takes count, format$/,
		],
		[
			"/snowflake",
			'{"count":2,"workerId":3}',
			"invalid_request",
			/^unknown parameter "workerId"; it takes count, format, prefix$/,
		],
		["/ulid", `{"count":1,"pad":"${"x".repeat(1100)}"}`, "invalid_body", /at most 1024 bytes/],
	])("POST %s %s → 400 %s", async (path, body, code, message) => {
		const { status, body: answer } = await post(path, body);
		expect(status).toBe(400);
		expect(answer.error?.code).toBe(code);
		expect(answer.error?.message).toMatch(message);
	});
});
