/**
 * What a request may send (its query, path parameters or JSON body), declared once
 * as plain data: the routes read requests with it, and the OpenAPI document is built
 * from it (./openapi/input-schemas.ts turns each field into the zod schema the
 * document shows, outside the Worker). A few plain checks per field, no schema
 * library at request time: a new isolate's first request would otherwise build and
 * compile one before it could answer (docs/PERFORMANCE.md, "A new isolate's first request").
 *
 *   const count = field.digits().optional().describe("How many");
 *   export const countQuery = input.object({ count });
 *   countQuery.read({ count: "12" });  // { ok: true, value: { count: 12 } }
 *   countQuery.read({ count: "1e3" }); // { ok: false, field: "count" }
 *
 * The reads are zod's, field for field (the schemas the document shows accept
 * exactly what the routes accept): each field is checked in the shape's order and the
 * first refused one is named; an absent optional field is left out of the value; an
 * `object` drops unknown names, a `strictObject` refuses them after every field passed.
 */

/** How a field's raw value is read. */
export type FieldKind =
	/** Decimal digits in text (a query or path parameter), read as a number. */
	| "digits"
	/** Any text; `maxLength` and `pattern` narrow it. */
	| "text"
	/** One of `values`, in text. */
	| "oneOf"
	/** A JSON number that is a safe integer. */
	| "integer"
	/** A finite JSON number. */
	| "number";

const DIGITS = /^[0-9]+$/;

/** A field's value when read: `Out`; what a caller sends: `In`; `Optional`: may be absent. */
export interface Field<Out = unknown, In = unknown, Optional extends boolean = boolean> {
	readonly kind: FieldKind;
	readonly isOptional: Optional;
	readonly description?: string;
	readonly maxLength?: number;
	readonly pattern?: RegExp;
	readonly values?: readonly string[];
	/** The field's value read from `raw`, or NOT_READ when `raw` is not one. */
	read(raw: unknown): Out | typeof NOT_READ;
	/** The same field, allowed to be absent. */
	optional(): Field<Out, In, true>;
	/** The same field with its description for the document (it does not validate). */
	describe(description: string): Field<Out, In, Optional>;
	/** Text of at most `length` characters (UTF-16 code units, as zod counts). */
	max(length: number): Field<Out, In, Optional>;
	/** Text matching `pattern`. */
	regex(pattern: RegExp): Field<Out, In, Optional>;
}

/** What `read` answers for a value the field does not take. */
export const NOT_READ: unique symbol = Symbol("not read");

type Spec = Omit<Field, "read" | "optional" | "describe" | "max" | "regex">;

function reader(spec: Spec): (raw: unknown) => unknown {
	const { maxLength, pattern, values } = spec;
	switch (spec.kind) {
		case "digits":
			return (raw) => (typeof raw === "string" && DIGITS.test(raw) ? Number(raw) : NOT_READ);
		case "text":
			return (raw) =>
				typeof raw === "string" &&
				(maxLength === undefined || raw.length <= maxLength) &&
				(pattern === undefined || pattern.test(raw))
					? raw
					: NOT_READ;
		case "oneOf":
			return (raw) => (typeof raw === "string" && values?.includes(raw) ? raw : NOT_READ);
		case "integer":
			return (raw) => (typeof raw === "number" && Number.isSafeInteger(raw) ? raw : NOT_READ);
		case "number":
			return (raw) => (typeof raw === "number" && Number.isFinite(raw) ? raw : NOT_READ);
	}
}

function make<Out, In, Optional extends boolean>(spec: Spec): Field<Out, In, Optional> {
	const with_ = (more: Partial<Spec>) => make<Out, In, Optional>({ ...spec, ...more });
	return {
		...spec,
		isOptional: spec.isOptional as Optional,
		read: reader(spec) as Field<Out, In, Optional>["read"],
		optional: () => make<Out, In, true>({ ...spec, isOptional: true }),
		describe: (description) => with_({ description }),
		max: (maxLength) => with_({ maxLength }),
		regex: (pattern) => with_({ pattern }),
	};
}

/** The kinds of field. */
export const field = {
	/** A query or path integer: decimal digits only (leading zeros allowed), read as a number. */
	digits: () => make<number, string, false>({ kind: "digits", isOptional: false }),
	text: () => make<string, string, false>({ kind: "text", isOptional: false }),
	oneOf: <const V extends readonly [string, ...string[]]>(values: V) =>
		make<V[number], V[number], false>({ kind: "oneOf", isOptional: false, values }),
	integer: () => make<number, number, false>({ kind: "integer", isOptional: false }),
	number: () => make<number, number, false>({ kind: "number", isOptional: false }),
};

export type Shape = Record<string, Field>;
type OptionalKeys<S extends Shape> = {
	[K in keyof S]: S[K] extends Field<unknown, unknown, true> ? K : never;
}[keyof S];
type RequiredKeys<S extends Shape> = Exclude<keyof S, OptionalKeys<S>>;
type Flatten<T> = { [K in keyof T]: T[K] };

/** What reading an input answers: its value, `Out`; what a caller sends: `In`. */
export type OutputOf<S extends Shape> = Flatten<
	{ [K in RequiredKeys<S>]: S[K] extends Field<infer O> ? O : never } & {
		[K in OptionalKeys<S>]?: S[K] extends Field<infer O> ? O : never;
	}
>;
export type InputOf<S extends Shape> = Flatten<
	{ [K in RequiredKeys<S>]: S[K] extends Field<unknown, infer I> ? I : never } & {
		[K in OptionalKeys<S>]?: S[K] extends Field<unknown, infer I> ? I : never;
	}
>;

export type InputRead<S extends Shape> =
	| { ok: true; value: OutputOf<S> }
	/** `field`: the first field refused; absent when the value is no object at all. */
	| { ok: false; field?: keyof S & string; unknown?: undefined }
	/** Every field passed, but these names are not fields (a strict input only). */
	| { ok: false; field?: undefined; unknown: string[] };

/** A request's fields: its query, its path parameters or its JSON body. */
export interface Input<S extends Shape = Shape> {
	readonly shape: S;
	/** Whether a name that is no field is refused (JSON bodies) rather than dropped. */
	readonly strict: boolean;
	read(raw: unknown): InputRead<S>;
}

function inputOf<S extends Shape>(shape: S, strict: boolean): Input<S> {
	const names = Object.keys(shape);
	return {
		shape,
		strict,
		read(raw) {
			if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { ok: false };
			const given = raw as Record<string, unknown>;
			const value: Record<string, unknown> = {};
			for (const name of names) {
				const spec = shape[name] as Field;
				const raw = given[name];
				if (raw === undefined && spec.isOptional) {
					// Absent: left out. (Present but undefined, which no request can send: kept.)
					if (name in given) value[name] = undefined;
					continue;
				}
				const read = spec.read(raw);
				if (read === NOT_READ) return { ok: false, field: name };
				value[name] = read;
			}
			if (strict) {
				const unknown: string[] = [];
				for (const name in given) if (!names.includes(name)) unknown.push(name);
				if (unknown.length > 0) return { ok: false, unknown };
			}
			return { ok: true, value: value as OutputOf<S> };
		},
	};
}

export const input = {
	/** Fields, any other name dropped (a query, path parameters). */
	object: <S extends Shape>(shape: S) => inputOf(shape, false),
	/** Fields, any other name refused (a JSON body: `{"cout": 5}` would ask for the default). */
	strictObject: <S extends Shape>(shape: S) => inputOf(shape, true),
};
