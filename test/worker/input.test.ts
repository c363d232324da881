/**
 * The routes read requests with plain checks (src/worker/input.ts); the OpenAPI
 * document shows zod schemas made from the same fields (src/worker/openapi/input-schemas.ts).
 * Both must take exactly the same values: for every input a route reads, random
 * values (fast-check, fixed seed) are read both ways, and the plain read must agree
 * with zod's parse on success, on the value (keys in the same order), on the first
 * field refused and on the unknown names a JSON body may not carry.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { field, type Input, input } from "../../src/worker/input";
import { documentedOperations } from "../../src/worker/openapi/document";
import { inputSchema } from "../../src/worker/openapi/input-schemas";

/** Every input the routes read, by a name for failures. */
const ROUTE_INPUTS = new Map<Input, string>();
for (const spec of documentedOperations) {
	for (const part of ["params", "query", "body"] as const) {
		const read = spec[part];
		if (read && !ROUTE_INPUTS.has(read))
			ROUTE_INPUTS.set(read, `${spec.method} ${spec.path} ${part}`);
	}
}

/** Values a query, a path or a JSON body may hold, biased to each field's edges. */
function valueFor(names: string[]) {
	const text = fc.oneof(
		fc.constantFrom("", "0", "007", "12", "1e3", "-1", "1.5", " 1", "99999999999999999999"),
		fc.constantFrom("ulid", "uuid", "decimal", "base32", "typeid", "snowflake", "uuidv7"),
		fc.constantFrom("twitter", "discord", "sonyflake", "instagram", "TWITTER"),
		fc.constantFrom("user", "order_item", "a_", "_a", "Bad", "a".repeat(63), "a".repeat(64)),
		fc.string({ maxLength: 8 }),
		fc.stringMatching(/^[0-9]{1,20}$/),
	);
	const number = fc.oneof(
		fc.integer({ min: -5, max: 10_001 }),
		fc.constantFrom(0.5, -0, 2 ** 53, -(2 ** 53), 1e21, Number.POSITIVE_INFINITY, Number.NaN),
		fc.double(),
	);
	const any = fc.oneof(
		text,
		number,
		fc.array(text, { maxLength: 3 }),
		fc.constantFrom(null, true, false, undefined),
		fc.constant({ nested: 1 }),
	);
	// A body may take no fields at all (renewing a lease).
	const unknown = fc.constantFrom("cout", "extra", "__proto__");
	const key = names.length > 0 ? fc.oneof(fc.constantFrom(...names), unknown) : unknown;
	return fc.oneof(
		{ weight: 8, arbitrary: fc.dictionary(key, any, { maxKeys: names.length + 1 }) },
		{ weight: 1, arbitrary: any },
	);
}

describe("input", () => {
	it("reads every route input exactly as zod parses the document's schema for it", () => {
		expect(ROUTE_INPUTS.size).toBeGreaterThanOrEqual(14);
		for (const [read, name] of ROUTE_INPUTS) {
			const schema = inputSchema(read);
			fc.assert(
				fc.property(valueFor(Object.keys(read.shape)), (raw) => {
					const plain = read.read(raw);
					const parsed = schema.safeParse(raw);
					expect(plain.ok, `${name}: ${JSON.stringify(raw)}`).toBe(parsed.success);
					if (plain.ok) {
						expect(plain.value).toStrictEqual(parsed.data);
						expect(Object.keys(plain.value)).toEqual(Object.keys(parsed.data ?? {}));
						return;
					}
					const issue = parsed.error?.issues[0];
					if (issue?.code === "unrecognized_keys") {
						expect(plain.unknown, name).toEqual(issue.keys);
					} else {
						expect(plain.field, `${name}: ${JSON.stringify(raw)}`).toBe(issue?.path[0]);
					}
				}),
				{ seed: 32, numRuns: 400 },
			);
		}
	});

	it("names the first refused field in the shape's order, and unknown names only after every field passed", () => {
		const body = input.strictObject({
			count: field.integer().optional(),
			format: field.oneOf(["ulid", "uuid"]).optional(),
		});
		expect(body.read({ format: "x", count: 1.5, cout: 1 })).toEqual({ ok: false, field: "count" });
		expect(body.read({ count: 2, cout: 1, x: 2 })).toEqual({ ok: false, unknown: ["cout", "x"] });
		expect(body.read({ format: "uuid", count: 2 })).toEqual({
			ok: true,
			value: { count: 2, format: "uuid" },
		});
		expect(body.read([1])).toEqual({ ok: false });
	});

	it("reads decimal digits only, leading zeros allowed, as numbers; leaves absent fields out", () => {
		const query = input.object({ count: field.digits().optional(), id: field.text() });
		expect(query.read({ count: "007", id: "x", other: "y" })).toEqual({
			ok: true,
			value: { count: 7, id: "x" },
		});
		expect(query.read({ id: "x" })).toEqual({ ok: true, value: { id: "x" } });
		for (const count of ["", "1e3", "-1", " 1", ["1", "2"]]) {
			expect(query.read({ count, id: "x" })).toEqual({ ok: false, field: "count" });
		}
		expect(query.read({ count: "1" })).toEqual({ ok: false, field: "id" });
	});
});
