/**
 * The HTTP client's named-sequence calls put on the wire exactly what the
 * `/sequences` routes read (method, path, query, JSON body, headers) and return
 * the answer as parsed; a name outside the service's rule is refused before any
 * request, in the service's words.
 */
import { describe, expect, it } from "vitest";
import { IdsError } from "../../src/client";
import { recordingClient } from "./recording-fetch";

const JSON_HEADERS = { Accept: "application/json", "Content-Type": "application/json" };
const ANSWER = { name: "orders", next: "1000", retiredAt: null };

describe("sequence calls with a body", () => {
	it("createSequence PUTs the settings whole, or {} without them", async () => {
		const { client, sent } = recordingClient(ANSWER);
		const settings = { start: 1000, mode: "pooled", reset: "daily", timeZone: "UTC" } as const;
		expect(await client.createSequence("orders", settings)).toEqual(ANSWER);
		await client.createSequence("orders");
		expect(sent).toEqual([
			{
				method: "PUT",
				url: "https://ids.test/v1/sequences/orders",
				headers: JSON_HEADERS,
				body: JSON.stringify(settings),
			},
			{
				method: "PUT",
				url: "https://ids.test/v1/sequences/orders",
				headers: JSON_HEADERS,
				body: "{}",
			},
		]);
	});

	it("nextInSequence POSTs to /next with its count, {} without one", async () => {
		const { client, sent } = recordingClient({ first: "7", numbers: ["7", "8"] });
		expect(await client.nextInSequence("inv-2026.a_b", { count: 2 })).toEqual({
			first: "7",
			numbers: ["7", "8"],
		});
		await client.nextInSequence("inv-2026.a_b");
		expect(sent.map(({ method, url, body }) => [method, url, body])).toEqual([
			["POST", "https://ids.test/v1/sequences/inv-2026.a_b/next", '{"count":2}'],
			["POST", "https://ids.test/v1/sequences/inv-2026.a_b/next", "{}"],
		]);
		expect(sent[0]?.headers).toEqual(JSON_HEADERS);
	});

	it("reserveInSequence POSTs {count} to /reserve", async () => {
		const { client, sent } = recordingClient({ first: "10", last: "19" });
		expect(await client.reserveInSequence("orders", { count: 10 })).toEqual({
			first: "10",
			last: "19",
		});
		expect(sent).toEqual([
			{
				method: "POST",
				url: "https://ids.test/v1/sequences/orders/reserve",
				headers: JSON_HEADERS,
				body: '{"count":10}',
			},
		]);
	});

	it('advanceSequence POSTs {"to": …} to /advance, a number or a decimal string as given', async () => {
		const { client, sent } = recordingClient(ANSWER);
		expect(await client.advanceSequence("orders", { to: 5000 })).toEqual(ANSWER);
		await client.advanceSequence("orders", { to: "90071992547409930" });
		expect(sent.map(({ method, url, body }) => [method, url, body])).toEqual([
			["POST", "https://ids.test/v1/sequences/orders/advance", '{"to":5000}'],
			["POST", "https://ids.test/v1/sequences/orders/advance", '{"to":"90071992547409930"}'],
		]);
	});

	it('retireSequence DELETEs with {"confirm": name} as the body', async () => {
		const { client, sent } = recordingClient({ ...ANSWER, retiredAt: "2026-11-29T07:00:00Z" });
		expect(await client.retireSequence("orders", { confirm: "orders" })).toEqual({
			...ANSWER,
			retiredAt: "2026-11-29T07:00:00Z",
		});
		expect(sent).toEqual([
			{
				method: "DELETE",
				url: "https://ids.test/v1/sequences/orders",
				headers: JSON_HEADERS,
				body: '{"confirm":"orders"}',
			},
		]);
	});
});

describe("sequence calls without a body", () => {
	it("sequenceStatus GETs the name's path with no body and no Content-Type", async () => {
		const { client, sent } = recordingClient(ANSWER);
		expect(await client.sequenceStatus("orders")).toEqual(ANSWER);
		expect(sent).toEqual([
			{
				method: "GET",
				url: "https://ids.test/v1/sequences/orders",
				headers: { Accept: "application/json" },
				body: undefined,
			},
		]);
	});

	it("sequenceHistory GETs /history, with minutes only when given", async () => {
		const { client, sent } = recordingClient({ name: "orders", minutes: [] });
		expect(await client.sequenceHistory("orders", { minutes: 15 })).toEqual({
			name: "orders",
			minutes: [],
		});
		await client.sequenceHistory("orders");
		expect(sent.map(({ method, url, body }) => [method, url, body])).toEqual([
			["GET", "https://ids.test/v1/sequences/orders/history?minutes=15", undefined],
			["GET", "https://ids.test/v1/sequences/orders/history", undefined],
		]);
	});

	it("listSequences puts limit, cursor and prefix in the query only when given, encoded", async () => {
		const page = { sequences: [{ name: "a" }], cursor: "a" };
		const { client, sent } = recordingClient(page);
		expect(await client.listSequences({ limit: 2, cursor: "inv 1&x=2", prefix: "in" })).toEqual(
			page,
		);
		await client.listSequences({ prefix: "ord" });
		await client.listSequences({ limit: undefined, cursor: "b" });
		await client.listSequences();
		expect(sent.map(({ method, url, body }) => [method, url, body])).toEqual([
			["GET", "https://ids.test/v1/sequences?limit=2&cursor=inv+1%26x%3D2&prefix=in", undefined],
			["GET", "https://ids.test/v1/sequences?prefix=ord", undefined],
			["GET", "https://ids.test/v1/sequences?cursor=b", undefined],
			["GET", "https://ids.test/v1/sequences", undefined],
		]);
	});
});

describe("a sequence name outside the service's rule", () => {
	const RULE =
		"invalid_sequence_name: name must be 1-64 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit; got";

	it.each([
		["", '""'],
		["..", '".."'],
		["a/b", '"a/b"'],
		["a?b", '"a?b"'],
		["a#b", '"a#b"'],
		["a b", '"a b"'],
		["-orders", '"-orders"'],
		[".orders", '".orders"'],
		["%2F", '"%2F"'],
	])("refuses %j before any request, as the service does (400)", async (name, shown) => {
		const { client, sent } = recordingClient(ANSWER);
		const calls = [
			() => client.createSequence(name),
			() => client.nextInSequence(name),
			() => client.reserveInSequence(name, { count: 1 }),
			() => client.advanceSequence(name, { to: 1 }),
			() => client.sequenceStatus(name),
			() => client.retireSequence(name, { confirm: name }),
			() => client.sequenceHistory(name),
		];
		for (const call of calls) {
			const error = await call().catch((thrown: unknown) => thrown);
			expect(error).toBeInstanceOf(IdsError);
			expect(error).toMatchObject({
				code: "invalid_sequence_name",
				status: 400,
				retryAfter: undefined,
				message: `${RULE} ${shown}`,
			});
		}
		expect(sent).toEqual([]);
	});

	it("refuses a name of 65 characters and a non-string; takes one of 64", async () => {
		const { client, sent } = recordingClient(ANSWER);
		await expect(client.sequenceStatus("a".repeat(65))).rejects.toMatchObject({
			code: "invalid_sequence_name",
		});
		await expect(client.sequenceStatus(7 as unknown as string)).rejects.toMatchObject({
			code: "invalid_sequence_name",
			message: `${RULE} 7`,
		});
		expect(sent).toEqual([]);
		await client.sequenceStatus("a".repeat(64));
		expect(sent.map(({ url }) => url)).toEqual([`https://ids.test/v1/sequences/${"a".repeat(64)}`]);
	});
});
