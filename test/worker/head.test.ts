/** HEAD never issues IDs: a 405 on the routes that issue them, GET without a body elsewhere. */
import { describe, expect, it } from "vitest";
import { call, snowflakeStub } from "./helpers";

describe("HEAD", () => {
	it.each(["/snowflake/71?count=10000", "/snowflake?count=10000", "/ulid?count=5", "/uuidv7"])(
		"%s is 405 with Allow: GET, POST",
		async (path) => {
			const response = await call(path, { method: "HEAD" });
			expect(response.status).toBe(405);
			expect(response.headers.get("Allow")).toBe("GET, POST");
			expect(await response.text()).toBe("");
		},
	);

	it("issues nothing on the worker ID's object", async () => {
		const before = await snowflakeStub(72).stats(72);
		await call("/snowflake/72?count=10000", { method: "HEAD" });
		const after = await snowflakeStub(72).stats(72);
		expect(after).toEqual(before);
		expect(after).toMatchObject({ ok: true, stats: { issued: 0, requests: 0 } });
	});

	it.each(["/health", "/layout", "/decode/910499571847892992", "/snowflake/73/stats"])(
		"%s answers like GET, without a body",
		async (path) => {
			const response = await call(path, { method: "HEAD" });
			expect(response.status).toBe(200);
			expect(await response.text()).toBe("");
		},
	);
});
