/**
 * Request schemas built on first use (a new isolate's startup does not build them):
 * the proxy must behave as the schema itself for validators and the OpenAPI document.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { lazySchema } from "../../src/worker/lazy-schema";
import { snowflakeQuery } from "../../src/worker/validation";

describe("lazySchema", () => {
	it("builds the schema on its first read, once", () => {
		let builds = 0;
		const schema = lazySchema(() => {
			builds++;
			return z.object({ count: z.string() });
		});
		expect(builds).toBe(0);
		expect(schema.safeParse({ count: "3" }).success).toBe(true);
		expect(schema.safeParse({ count: 3 }).success).toBe(false);
		expect(Object.keys(schema.shape)).toEqual(["count"]);
		expect(builds).toBe(1);
	});

	it("passes for the schema it builds: its class, its fields and their descriptions", () => {
		expect(snowflakeQuery).toBeInstanceOf(z.ZodObject);
		expect(Object.keys(snowflakeQuery.shape)).toEqual(["count", "format", "prefix"]);
		expect(snowflakeQuery.shape.count.description).toMatch(/^How many/);
		expect(snowflakeQuery.parse({ count: "12" })).toEqual({ count: 12 });
	});
});
