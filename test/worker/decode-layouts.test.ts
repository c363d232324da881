/** `/decode/:id?layout=…` and RPC `decode(id, options)`: other systems' IDs, other UUID forms. */

import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/wire";
import { IdService } from "../../src/worker/rpc/id-service";
import { callJson } from "./helpers";

const rpc = () => new IdService(createExecutionContext(), env);
describe("decode with another system's layout", () => {
	it.each([
		[
			"Discord's documented ID with layout=discord",
			"/decode/175928847299117063?layout=discord",
			{
				layout: "discord",
				time: "2016-04-30T11:18:25.796Z",
				workerId: 1,
				processId: 0,
				increment: 7,
			},
		],
		[
			"explicit widths, with epoch and unit",
			"/decode/494152093532361268?timeBits=39&workerBits=8&sequenceBits=16&epoch=1409529600000&timeUnitMs=10",
			{ layout: "custom", time: "2024-01-01T00:00:00.000Z", workerId: 3 },
		],
		[
			// The same fields as under v1's 2014-09-01 start, 10 years 10 months later.
			"a preset with its system's own start time (Sonyflake v2 starts at 2025-01-01)",
			"/decode/494152093532361268?layout=sonyflake&epoch=1735689600000",
			{ layout: "sonyflake", time: "2034-05-03T00:00:00.000Z", sequence: 3, machineId: 0x1234 },
		],
		[
			"a 64-bit ID under a layout that uses all 64 bits",
			"/decode/18446744073709551615?layout=instagram",
			{ shardId: 8191, sequence: 1023 },
		],
	])("reads %s", async (_, path, fields) => {
		const { status, body } = await callJson(path);
		expect(status).toBe(200);
		expect(body).toMatchObject(fields);
	});

	it("reads the same ID as the service's own layout without the parameter", async () => {
		const { body } = await callJson("/decode/175928847299117063");
		expect(body).toMatchObject({ type: "snowflake", workerId: 32, sequence: 7 });
		expect(body).not.toHaveProperty("layout");
	});

	it.each([
		[
			"/decode/1?layout=snowfake",
			"invalid_layout",
			/layout must be one of twitter, discord, sonyflake, instagram/,
		],
		[
			"/decode/1?layout=discord&layout=twitter",
			"invalid_layout",
			/^layout must be one of twitter, discord, sonyflake, instagram; got an array of 2 items$/,
		],
		["/decode/1?layout=discord&timeBits=41", "invalid_layout", /not both; got layout and timeBits/],
		[
			"/decode/1?layout=sonyflake&epoch=9000000000000000",
			"invalid_layout",
			/epoch must be Unix ms/,
		],
		["/decode/1?timeBits=41", "invalid_layout", /need timeBits, workerBits and sequenceBits/],
		["/decode/1?timeBits=41&workerBits=10&sequenceBits=10", "invalid_layout", /= 63 or 64/],
		[
			"/decode/1?timeBits=-1&workerBits=10&sequenceBits=10",
			"invalid_layout",
			/^timeBits must be a non-negative integer; got "-1"$/,
		],
		["/decode/18446744073709551616?layout=discord", "invalid_id", /below 2\^64/],
	])("%s → 400 %s", async (path, code, message) => {
		const { status, body } = await callJson<ErrorBody>(path);
		expect(status).toBe(400);
		expect(body.error.code).toBe(code);
		expect(body.error.message).toMatch(message);
	});

	it("reads UUIDs without hyphens, in braces and as urn:uuid:", async () => {
		for (const form of [
			"017f22e279b07cc398c4dc0c0c07398f",
			"%7B017f22e2-79b0-7cc3-98c4-dc0c0c07398f%7D",
			"urn:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398f",
		]) {
			const { status, body } = await callJson(`/decode/${form}`);
			expect(status).toBe(200);
			expect(body).toMatchObject({ type: "uuidv7", id: "017f22e2-79b0-7cc3-98c4-dc0c0c07398f" });
		}
	});
});

describe("RPC: decode options, layout() and stats(), in RPC's own words", () => {
	it("decodes with a preset", async () => {
		expect(await rpc().decode("175928847299117063", { layout: "discord" })).toMatchObject({
			processId: 0,
			increment: 7,
		});
	});

	it("answers layout() and stats(workerId) like the HTTP routes", async () => {
		const { body: layout } = await callJson("/layout");
		expect(await rpc().layout()).toEqual(layout);
		await rpc().snowflake({ workerId: 91, count: 3 });
		expect(await rpc().stats(91)).toMatchObject({ workerId: 91, issued: 3 });
	});

	it.each([
		[
			() => rpc().snowflake({ workerId: "7" as unknown as number }),
			/^invalid_worker_id: workerId must be an integer in \[0, 1023\]; got "7"$/,
		],
		[
			() => rpc().snowflake({ workerId: 1024 }),
			/^invalid_worker_id: workerId must be an integer in \[0, 1023\]; got 1024$/,
		],
		[
			() => rpc().ulid({ count: "5" as unknown as number }),
			/^invalid_count: count must be an integer in \[1, 10000\]; got "5"$/,
		],
		[
			() => rpc().uuidv7({ count: 0 }),
			/^invalid_count: count must be an integer in \[1, 10000\]; got 0$/,
		],
		[
			() => rpc().stats(-1),
			/^invalid_worker_id: workerId must be an integer in \[0, 1023\]; got -1$/,
		],
		[
			() => rpc().decode("1", { timeBits: "41" as unknown as number }),
			/^invalid_layout: timeBits must be a non-negative integer; got "41"$/,
		],
	])("words a refusal as HTTP does, plus the request ID (%#)", async (call, message) => {
		const error = (await call().catch((thrown: unknown) => thrown)) as Error;
		// `code: detail`, then the call's request ID.
		const [detail, requestId] = error.message.split(/ \(request ([0-9a-f-]{36})\)$/);
		expect(requestId).toBeDefined();
		expect(detail).toMatch(message);
		expect(error.message).not.toMatch(/decimal digits/);
	});
});
