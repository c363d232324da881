/**
 * What the client puts into a URL path is checked before any request: a worker ID
 * must be a non-negative safe integer, an ID a string that is not empty, "." or
 * ".." (encoded or not); anything else is refused with the service's code, status
 * 400 and a message naming what was wrong. A good ID is percent-encoded.
 */
import { describe, expect, it } from "vitest";
import { IdsError } from "../../src/client";
import { recordingClient } from "./recording-fetch";

const WORKER_RULE =
	"invalid_worker_id: workerId must be a non-negative integer (a number, one of the service's WORKER_IDS); got";
const ID_RULE = "invalid_id: id must be a Snowflake, a ULID or a UUID; got";

describe("a worker ID in a path", () => {
	it.each([
		[-1, "-1"],
		[7.5, "7.5"],
		[Number.NaN, "NaN"],
		[Number.MAX_SAFE_INTEGER + 1, "9007199254740992"],
		["7", '"7" (string)'],
		["..", '".." (string)'],
		[null, "null (object)"],
	])(
		"refuses %j before any request, naming it (and its type when no number)",
		async (workerId, shown) => {
			// Every method taking a worker ID is checked in client-deadline.test.ts; here, the words.
			const { client, sent } = recordingClient({});
			const error = await client.stats(workerId as number).catch((thrown: unknown) => thrown);
			expect(error).toBeInstanceOf(IdsError);
			expect(error).toMatchObject({
				code: "invalid_worker_id",
				status: 400,
				retryAfter: undefined,
				message: `${WORKER_RULE} ${shown}`,
			});
			expect(sent).toEqual([]);
		},
	);

	it("takes 0 and the largest safe integer as they are", async () => {
		const { client, sent } = recordingClient({ issued: 0 });
		await client.stats(0);
		await client.stats(Number.MAX_SAFE_INTEGER);
		expect(sent.map(({ url }) => url)).toEqual([
			"https://ids.test/v1/snowflake/0/stats",
			"https://ids.test/v1/snowflake/9007199254740991/stats",
		]);
	});
});

describe("an ID in a path", () => {
	it.each([
		["", '""'],
		[".", '"."'],
		["..", '".."'],
		["%2e", '"%2e"'],
		["%2E%2e", '"%2E%2e"'],
		[".%2E", '".%2E"'],
		[5, "5"],
	])("refuses %j before any request", async (id, shown) => {
		const { client, sent } = recordingClient({});
		const error = await client.decode(id as string).catch((thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(IdsError);
		expect(error).toMatchObject({
			code: "invalid_id",
			status: 400,
			retryAfter: undefined,
			message: `${ID_RULE} ${shown}`,
		});
		expect(sent).toEqual([]);
	});

	it("percent-encodes what could reach another route, and takes dots within an ID", async () => {
		const { client, sent } = recordingClient({ kind: "snowflake" });
		expect(await client.decode("1?count=3")).toEqual({ kind: "snowflake" });
		await client.decode("a/b#c");
		await client.decode("...");
		await client.decode("x.");
		expect(sent.map(({ url }) => url)).toEqual([
			"https://ids.test/v1/decode/1%3Fcount%3D3",
			"https://ids.test/v1/decode/a%2Fb%23c",
			"https://ids.test/v1/decode/...",
			"https://ids.test/v1/decode/x.",
		]);
	});
});
