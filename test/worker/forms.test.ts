/** TypeIDs, Snowflake text forms, decode of both, and /range, through the Worker. */

import { describe, expect, it } from "vitest";
import { snowflakeFromBase32, snowflakeToBase32 } from "../../src/ids/snowflake/base32";
import type { ErrorBody } from "../../src/wire";
import { INVALID_TYPEIDS, VALID_TYPEIDS } from "../core/typeid-spec";
import { expectSnowflakesIncreasing, expectTextIncreasing } from "../shared/order";
import { call, callJson } from "./helpers";

type Ids = { type: string; prefix?: string; workerId?: number; ids: string[] };
const TYPEID = /^user_[0-7][0-9a-hjkmnp-tv-z]{25}$/;

describe("/typeid", () => {
	it("issues UUIDv7-based TypeIDs under a prefix, strictly increasing, uncached", async () => {
		const response = await call("/typeid?prefix=user&count=50");
		expect(response.status).toBe(200);
		expect(response.headers.get("Cache-Control")).toBe("no-store");
		const body = (await response.json()) as Ids;
		expect(body).toMatchObject({ type: "typeid", prefix: "user" });
		expect(body.ids).toHaveLength(50);
		for (const id of body.ids) expect(id).toMatch(TYPEID);
		expectTextIncreasing(body.ids);
		const decoded = await callJson(`/decode/${body.ids[0]}`);
		expect(decoded.body).toMatchObject({ type: "typeid", prefix: "user", version: 7 });
	});

	it("without a prefix: bare 26-character TypeIDs; POST takes a JSON body; text/plain lists them", async () => {
		const bare = await callJson<Ids>("/typeid");
		expect(bare.body.prefix).toBe("");
		expect(bare.body.ids[0]).toMatch(/^[0-7][0-9a-hjkmnp-tv-z]{25}$/);
		const posted = await callJson<Ids>("/typeid", {
			method: "POST",
			headers: { "Content-Type": "application/json" },
			body: JSON.stringify({ prefix: "order", count: 2 }),
		});
		expect(posted.body.ids).toHaveLength(2);
		for (const id of posted.body.ids) expect(id).toMatch(/^order_/);
		const text = await call("/typeid?prefix=user&count=2", { headers: { Accept: "text/plain" } });
		expect((await text.text()).trim().split("\n")).toHaveLength(2);
	});

	it.each(["User", "_user", "user_", "us3r", "x".repeat(64), "caf%C3%A9"])(
		"refuses prefix %s with 400 invalid_prefix saying the rule",
		async (prefix) => {
			const { status, body } = await callJson<ErrorBody>(`/typeid?prefix=${prefix}`);
			expect(status).toBe(400);
			expect(body.error.code).toBe("invalid_prefix");
			expect(body.error.message).toContain("at most 63 characters of a-z and _");
		},
	);

	it("refuses a repeated prefix, a bad prefix in a body, and one in both places", async () => {
		expect((await callJson<ErrorBody>("/typeid?prefix=a&prefix=b")).body.error.code).toBe(
			"invalid_prefix",
		);
		const json = { method: "POST", headers: { "Content-Type": "application/json" } };
		const bad = await callJson<ErrorBody>("/typeid", { ...json, body: '{"prefix":"Bad"}' });
		expect([bad.status, bad.body.error.code]).toEqual([400, "invalid_prefix"]);
		const typed = await callJson<ErrorBody>("/typeid", { ...json, body: '{"prefix":7}' });
		expect([typed.status, typed.body.error.code]).toEqual([400, "invalid_prefix"]);
		const both = await callJson<ErrorBody>("/typeid?prefix=a", { ...json, body: '{"prefix":"b"}' });
		expect([both.status, both.body.error.code]).toEqual([400, "invalid_prefix"]);
	});

	it("HEAD issues nothing (405)", async () => {
		expect((await call("/typeid", { method: "HEAD" })).status).toBe(405);
	});
});

describe("/decode reads TypeIDs", () => {
	it.each(VALID_TYPEIDS)(
		"the spec's $name: $typeid (with format=typeid)",
		async ({ typeid, prefix, uuid }) => {
			const { status, body } = await callJson(
				`/decode/${encodeURIComponent(typeid)}?format=typeid`,
			);
			expect(status).toBe(200);
			expect(body).toMatchObject({ type: "typeid", id: typeid, prefix, uuid });
		},
	);

	it.each(INVALID_TYPEIDS)("refuses the spec's $name with 400 invalid_id", async ({ typeid }) => {
		for (const query of ["", "?format=typeid"]) {
			const { status, body } = await callJson<ErrorBody>(
				`/decode/${encodeURIComponent(typeid)}${query}`,
			);
			expect([status, body.error.code]).toEqual([400, "invalid_id"]);
		}
	});

	it("a bare 26-character text stays a ULID; format=typeid reads it as a TypeID", async () => {
		const ulid = await callJson("/decode/01h455vb4pex5vsknk084sn02q");
		expect(ulid.body).toMatchObject({ type: "ulid", id: "01H455VB4PEX5VSKNK084SN02Q" });
		const typeid = await callJson("/decode/01h455vb4pex5vsknk084sn02q?format=typeid");
		expect(typeid.body).toEqual({
			type: "typeid",
			id: "01h455vb4pex5vsknk084sn02q",
			prefix: "",
			uuid: "01890a5d-ac96-774b-bcce-b302099a8057",
			version: 7,
			timestamp: 1688096058518,
			time: "2023-06-30T03:34:18.518Z",
		});
	});

	it("refuses an unknown decode format with invalid_format", async () => {
		const { status, body } = await callJson<ErrorBody>("/decode/123?format=hex");
		expect([status, body.error.code]).toEqual([400, "invalid_format"]);
		expect(body.error.message).toContain('"typeid"');
	});
});

describe("Snowflake text forms", () => {
	it("format=base32: 13 characters, same IDs as decimal would be, sorting as the numbers", async () => {
		const { body } = await callJson<Ids>("/snowflake/21?count=300&format=base32");
		expect(body.workerId).toBe(21);
		for (const id of body.ids) expect(id).toMatch(/^[0-7][0-9a-hjkmnp-tv-z]{12}$/);
		const numbers = body.ids.map(snowflakeFromBase32);
		expectSnowflakesIncreasing(numbers);
		expectTextIncreasing(body.ids);
		const decoded = await callJson(`/decode/${body.ids[0]}?format=base32`);
		expect(decoded.body).toMatchObject({
			type: "snowflake",
			id: (numbers[0] as bigint).toString(),
			workerId: 21,
			base32: body.ids[0],
		});
	});

	it("a prefix implies base32, on the explicit, auto and blocks routes, GET and POST", async () => {
		const explicit = await callJson<Ids>("/snowflake/22?prefix=order&count=2");
		for (const id of explicit.body.ids) expect(id).toMatch(/^order_[0-7][0-9a-hjkmnp-tv-z]{12}$/);
		const auto = await callJson<Ids>("/snowflake", {
			method: "POST",
			headers: { "Content-Type": "application/json" },
			body: '{"prefix":"order","count":3}',
		});
		for (const id of auto.body.ids) expect(id).toMatch(/^order_/);
		const blocks = await callJson<{ blocks: { first: string; count: number }[] }>(
			"/snowflake/22/blocks?count=5000&format=base32",
		);
		const decimal = await callJson<{ blocks: { first: string }[] }>("/snowflake/22/blocks?count=1");
		for (const block of blocks.body.blocks) expect(block.first).toMatch(/^[0-7][0-9a-z]{12}$/);
		expect(
			snowflakeToBase32(decimal.body.blocks[0]?.first as string) >
				(blocks.body.blocks.at(-1)?.first as string),
		).toBe(true);
		const decoded = await callJson(`/decode/${explicit.body.ids[0]}`);
		expect(decoded.body).toMatchObject({ type: "snowflake", workerId: 22, prefix: "order" });
	});

	it("refuses a bad format with invalid_format and a prefix with format=decimal with invalid_prefix", async () => {
		const format = await callJson<ErrorBody>("/snowflake/23?format=hex");
		expect([format.status, format.body.error.code]).toEqual([400, "invalid_format"]);
		expect(format.body.error.message).toContain('"decimal" or "base32"');
		const both = await callJson<ErrorBody>("/snowflake/23?format=decimal&prefix=order");
		expect([both.status, both.body.error.code]).toEqual([400, "invalid_prefix"]);
		const bad = await callJson<ErrorBody>("/snowflake/blocks?prefix=Order");
		expect([bad.status, bad.body.error.code]).toEqual([400, "invalid_prefix"]);
	});

	it("a bare all-digit text still decodes as decimal", async () => {
		const { body } = await callJson("/decode/1234567890123");
		expect(body).toMatchObject({ type: "snowflake", id: "1234567890123" });
		expect(body).not.toHaveProperty("base32");
	});
});

describe("/range", () => {
	it("bounds every Snowflake issued in a window, and no Snowflake issued after it", async () => {
		const from = Date.now();
		const inside = await callJson<Ids>("/snowflake/24?count=20");
		await scheduler.wait(2);
		const to = Date.now();
		await scheduler.wait(2);
		const after = await callJson<Ids>("/snowflake/24?count=1");
		const { status, body } = await callJson<{ min: string; max: string; from: string }>(
			`/range?kind=snowflake&from=${from}&to=${to}&workerId=24`,
		);
		expect(status).toBe(200);
		expect(body).toMatchObject({ kind: "snowflake", from: new Date(from).toISOString() });
		for (const id of inside.body.ids) {
			expect(BigInt(body.min) <= BigInt(id) && BigInt(id) <= BigInt(body.max)).toBe(true);
		}
		expect(BigInt(after.body.ids[0] as string) > BigInt(body.max)).toBe(true);
	});

	it("ULID, UUIDv7 and TypeID bounds as text, from ISO 8601 times", async () => {
		const from = "2026-11-01T00:00:00Z";
		const to = "2026-11-02";
		const ulid = await callJson<{ min: string; max: string }>(
			`/range?kind=ulid&from=${from}&to=${to}`,
		);
		expect(ulid.body).toMatchObject({
			kind: "ulid",
			from: "2026-11-01T00:00:00.000Z",
			to: "2026-11-02T00:00:00.000Z",
		});
		expect(ulid.body.min).toMatch(/0{16}$/);
		const typeid = await callJson<{ min: string }>(
			`/range?kind=typeid&prefix=order&from=${from}&to=${to}`,
		);
		expect(typeid.body.min).toMatch(/^order_[0-7]/);
		const uuid = await callJson<{ min: string; max: string }>(
			`/range?kind=uuidv7&from=${Date.UTC(2026, 10, 1)}&to=${to}`,
		);
		expect(uuid.body.min).toMatch(/-7000-8000-000000000000$/);
		const base32 = await callJson<{ min: string }>(
			`/range?kind=snowflake&prefix=order&from=${from}&to=${to}`,
		);
		expect(base32.body.min).toMatch(/^order_[0-7][0-9a-z]{12}$/);
	});

	it.each([
		["/range?kind=snowflake&from=5&to=5", "invalid_range"],
		["/range?kind=snowflake&from=6&to=5", "invalid_range"],
		["/range?kind=snowflake&from=0&to=1000", "invalid_range"], // before the epoch
		["/range?kind=ulid&from=yesterday&to=5", "invalid_range"],
		["/range?kind=ulid&to=5", "invalid_range"],
		["/range?kind=nope&from=1&to=5", "invalid_range"],
		["/range?from=1&to=5", "invalid_range"],
		["/range?kind=ulid&from=1&to=5&prefix=x", "invalid_prefix"],
		["/range?kind=typeid&from=1&to=5&prefix=X", "invalid_prefix"],
		["/range?kind=snowflake&from=1&to=5&format=hex", "invalid_format"],
		["/range?kind=snowflake&from=1&to=5&workerId=1024", "invalid_worker_id"],
		["/range?kind=uuidv7&from=1&to=5&workerId=3", "invalid_worker_id"],
	])("%s is 400 %s", async (path, code) => {
		const { status, body } = await callJson<ErrorBody>(path);
		expect([status, body.error.code]).toEqual([400, code]);
	});
});
