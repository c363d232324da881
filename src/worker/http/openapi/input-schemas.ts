/**
 * The zod schemas the OpenAPI document shows for a route's inputs, made from the
 * operation's contract (../contracts/) as the route reads it (../http-inputs.ts): path (always required)
 * and query values as text (an integer as its decimal digits), a JSON body's as JSON
 * values. Built only where the document is generated. The bounds that depend on the
 * deployment (MAX_BATCH, WORKER_IDS) are in the descriptions.
 *
 *   inputSchemas(http.ulidPost); // { query: z.object({ count: …, format: … }), body: z.strictObject(…) }
 */
import * as z from "zod";
import type { Field } from "../../contracts/fields";
import { type HttpInput, openNames, queryNames } from "../http-inputs";

const DIGITS = /^[0-9]+$/;

function textSchema(field: Field): z.ZodType {
	switch (field.type) {
		case "integer":
			return z.string().regex(DIGITS).transform(Number);
		case "oneOf":
			return z.enum(field.values as [string, ...string[]]);
		default:
			return plainText(field);
	}
}

/** A decimal field's JSON: a safe integer, or the digits as text. */
function decimalJson(field: Field): z.ZodType {
	return z.union([z.number().int().min(0), plainText(field)]);
}

function plainText(field: Field): z.ZodString {
	let text = z.string();
	if (field.maxLength !== undefined) text = text.max(field.maxLength);
	if (field.pattern !== undefined) text = text.regex(field.pattern);
	return text;
}

function jsonSchema(field: Field): z.ZodType {
	switch (field.type) {
		case "integer":
			return z.number().int();
		case "oneOf":
			return z.enum(field.values as [string, ...string[]]);
		case "time":
			return z.union([z.number(), z.string()]);
		case "decimal":
			return decimalJson(field);
		default:
			return plainText(field);
	}
}

function objectOf(
	input: HttpInput,
	names: readonly string[],
	schemaOf: (field: Field) => z.ZodType,
	strict: boolean,
	required = false,
): z.ZodObject {
	const shape = Object.fromEntries(
		names.map((name) => {
			const field = input.contract.fields[name] as Field;
			let schema = schemaOf(field);
			if (field.optional && !required) schema = schema.optional();
			return [name, schema.describe(field.description)];
		}),
	);
	return strict ? z.strictObject(shape) : z.object(shape);
}

/** The route's path, query and body schemas (each absent when it takes none). */
export function inputSchemas(input: HttpInput): {
	params?: z.ZodObject;
	query?: z.ZodObject;
	body?: z.ZodObject;
} {
	const open = openNames(input);
	return {
		...(input.path.length > 0
			? { params: objectOf(input, input.path, textSchema, false, true) }
			: {}),
		...(queryNames(input).length > 0
			? { query: objectOf(input, queryNames(input), textSchema, false) }
			: {}),
		...(input.body ? { body: objectOf(input, open, jsonSchema, true) } : {}),
	};
}
