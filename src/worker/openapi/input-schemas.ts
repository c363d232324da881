/**
 * The zod schemas the OpenAPI document shows for a route's inputs (../input.ts),
 * built only where the document is generated. Each field becomes the zod chain that
 * accepts exactly what its plain read accepts: checks first (in the order max, then
 * regex), then `.optional()`, then `.describe()`.
 *
 *   inputSchema(ulidQuery); // z.object({ count: z.string().regex(/^[0-9]+$/).transform(Number).optional().describe(…), … })
 */
import * as z from "zod";
import type { Field, Input } from "../input";

const DIGITS = /^[0-9]+$/;

function baseOf(field: Field): z.ZodType {
	switch (field.kind) {
		case "digits":
			return z.string().regex(DIGITS).transform(Number);
		case "text": {
			let text = z.string();
			if (field.maxLength !== undefined) text = text.max(field.maxLength);
			if (field.pattern !== undefined) text = text.regex(field.pattern);
			return text;
		}
		case "oneOf":
			return z.enum(field.values as [string, ...string[]]);
		case "integer":
			return z.number().int();
		case "number":
			return z.number();
	}
}

function fieldSchema(field: Field): z.ZodType {
	let schema = baseOf(field);
	if (field.isOptional) schema = schema.optional();
	if (field.description !== undefined) schema = schema.describe(field.description);
	return schema;
}

const built = new WeakMap<Input, z.ZodObject>();

/** The input's fields as a zod object (strict for a JSON body), built once per input. */
export function inputSchema(input: Input): z.ZodObject {
	let schema = built.get(input);
	if (!schema) {
		const shape = Object.fromEntries(
			Object.entries(input.shape).map(([name, field]) => [name, fieldSchema(field)]),
		);
		schema = input.strict ? z.strictObject(shape) : z.object(shape);
		built.set(input, schema);
	}
	return schema;
}
