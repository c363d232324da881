/**
 * The vocabulary of the input contracts: a field (its type, the rule it must meet,
 * the refusal code and wording, its default), a contract (an operation's fields), and
 * the one check every way in hands its plain values to. A reader only turns its source
 * into plain values (a query's text "0" becomes the number 0); the rules and messages
 * are here, so `count=0`, `{"count": 0}` and `ulid({ count: 0 })` get the same answer.
 * Runtime-neutral (no Workers APIs, no config type): the client imports it too.
 *
 *   const ulid = contract("ulid", { count: idCount, format: field.oneOf("invalid_format", ["ulid", "uuid"], "…") });
 *   readInput(ulid, limits, { count: 0 });
 *   // throws invalid_count: count must be an integer in [1, 10000]; got 0
 *   readInput(ulid, limits, { cout: 5 });
 *   // throws invalid_request: unknown parameter "cout"; it takes count, format
 */

import { describeValue, IdError } from "../../ids/errors";
import type { ServiceErrorCode } from "../../wire";

/** A set of worker IDs as the rules need it (a WorkerIdSet is one). */
export interface IdSet {
	has(workerId: number): boolean;
	readonly size: number;
	toString(): string;
}

/** What this deployment allows, for the rules that depend on it (./limits.ts makes it from the config). */
export interface Limits {
	/** The most IDs one request may ask for (MAX_BATCH, or fewer under a slow layout). */
	maxCount: number;
	/** The most IDs one blocks request may ask for (MAX_BLOCK_COUNT, or fewer). */
	maxBlockCount: number;
	/** The largest worker ID of the layout. */
	maxWorkerId: number;
	/** WORKER_IDS. */
	workerIds: IdSet;
	/** LEASE_WORKER_IDS; undefined when leases are off. */
	leaseWorkerIds: IdSet | undefined;
	/** The most numbers one sequence `next` may ask for (MAX_BATCH). */
	maxSequenceCount: number;
	/** The most numbers one sequence `reserve` may ask for (MAX_BLOCK_COUNT). */
	maxSequenceRange: number;
}

/** Limits for the rules that read none (a leaseId, a sequence name): the client checks those with it. */
export const NO_LIMITS: Limits = {
	maxCount: 0,
	maxBlockCount: 0,
	maxWorkerId: 0,
	workerIds: { has: () => false, size: 0 },
	leaseWorkerIds: undefined,
	maxSequenceCount: 0,
	maxSequenceRange: 0,
};

/** How a reader turns text (a query or path value) into the field's value. */
export type FieldType =
	/** Decimal digits become a number (leading zeros allowed); other text stays text, and is refused. */
	| "integer"
	/** Text stays text. */
	| "text"
	/** One of `values`. */
	| "oneOf"
	/** A time: Unix ms as a number, or text (digits or ISO 8601), read by the operation. */
	| "time"
	/** An integer above 2^53 too: a safe integer as a number, any as decimal text (text stays text). */
	| "decimal";

/** One input of an operation. `T`: its value once checked; `Optional`: may be absent. */
export interface Field<T = unknown, Optional extends boolean = boolean> {
	readonly type: FieldType;
	readonly code: ServiceErrorCode;
	readonly optional: Optional;
	/** For the OpenAPI document. */
	readonly description: string;
	readonly values?: readonly string[];
	readonly pattern?: RegExp;
	readonly maxLength?: number;
	/** What the field must be, for the refusal: "an integer in [1, 10000]". */
	rule(limits: Limits): string;
	/** Whether `value` (present) meets the rule. */
	accepts(value: unknown, limits: Limits): value is T;
	/** The value as a refusal shows it (a secret or long value is described, not echoed). */
	show(value: unknown): string;
}

/** A value as a refusal shows it: the project's one rule (`describeValue`: text cut to 64 characters, other kinds by their type). */
export const shown = describeValue;

/** Decimal digits without leading zeros, at most 19 (2^63 − 1 has 19). */
const DECIMAL_TEXT = /^(0|[1-9][0-9]{0,18})$/;

type Spec<T> = Omit<Field<T, false>, "optional" | "show"> & { show?: Field["show"] };

function make<T>(spec: Spec<T>) {
	const required: Field<T, false> = { show: shown, ...spec, optional: false };
	return Object.assign(required, {
		optional: false as const,
		/** The same field, which may be absent. */
		orAbsent: (): Field<T, true> => ({ ...required, optional: true }),
	});
}

/** The kinds of field. */
export const field = {
	/** A safe integer meeting `within` (worded by `rule`). */
	integer: (
		code: ServiceErrorCode,
		description: string,
		rule: (limits: Limits) => string,
		within: (value: number, limits: Limits) => boolean,
	) =>
		make<number>({
			type: "integer",
			code,
			description,
			rule,
			accepts: (value, limits): value is number =>
				typeof value === "number" && Number.isSafeInteger(value) && within(value, limits),
		}),
	/** An integer in `[min, max]`, the bounds this deployment's. */
	between: (
		code: ServiceErrorCode,
		description: string,
		min: (limits: Limits) => number,
		max: (limits: Limits) => number,
		extra = "",
	) =>
		field.integer(
			code,
			description,
			(limits) => `an integer in [${min(limits)}, ${max(limits)}]${extra}`,
			(value, limits) => value >= min(limits) && value <= max(limits),
		),
	/** One of `values`; the rule names them (or `rule` words it). */
	oneOf: <const V extends readonly [string, ...string[]]>(
		code: ServiceErrorCode,
		values: V,
		description: string,
		rule = values.length === 2 ? `"${values[0]}" or "${values[1]}"` : `one of ${values.join(", ")}`,
	) =>
		make<V[number]>({
			type: "oneOf",
			code,
			description,
			values,
			rule: () => rule,
			accepts: (value): value is V[number] => values.includes(value as string),
		}),
	/** Text; `test` narrows it (`pattern` and `maxLength` say the same for the document). */
	text: (
		code: ServiceErrorCode,
		description: string,
		rule: string,
		more: {
			test?: (text: string) => boolean;
			pattern?: RegExp;
			maxLength?: number;
			show?: Field["show"];
		} = {},
	) =>
		make<string>({
			type: "text",
			code,
			description,
			rule: () => rule,
			...(more.pattern ? { pattern: more.pattern } : {}),
			...(more.maxLength !== undefined ? { maxLength: more.maxLength } : {}),
			...(more.show ? { show: more.show } : {}),
			accepts: (value): value is string =>
				typeof value === "string" && (more.test?.(value) ?? true),
		}),
	/**
	 * A non-negative integer up to `max`, as a safe integer or as decimal digits (no
	 * leading zeros): JSON numbers above 2^53 lose digits, so those are sent as text.
	 */
	decimal: (code: ServiceErrorCode, description: string, max: bigint) =>
		make<number | string>({
			type: "decimal",
			code,
			description,
			pattern: DECIMAL_TEXT,
			rule: () => `an integer in [0, ${max}] (above 2^53 written as a decimal string)`,
			accepts: (value, _limits): value is number | string => {
				if (typeof value === "number") return Number.isSafeInteger(value) && value >= 0;
				return typeof value === "string" && DECIMAL_TEXT.test(value) && BigInt(value) <= max;
			},
		}),
	/** A time: a number or text, read (and refused in the same words) by the operation. */
	time: (code: ServiceErrorCode, description: string, rule: string) =>
		make<number | string>({
			type: "time",
			code,
			description,
			rule: () => rule,
			accepts: (value): value is number | string =>
				typeof value === "string" || (typeof value === "number" && Number.isFinite(value)),
		}),
};

export type Fields = Record<string, Field>;

/** One operation's inputs. */
export interface Contract<F extends Fields = Fields> {
	/** The operation's name, as RPC calls it. */
	readonly name: string;
	readonly fields: F;
	/** Checked before anything else: leases refused when they are off. */
	readonly before?: (limits: Limits) => void;
	/** Checked after every field: a rule between fields (a retire's `confirm` must be its name). */
	across?(input: InputOf<F>): void;
}

export function contract<F extends Fields>(
	name: string,
	fields: F,
	before?: (limits: Limits) => void,
	across?: (input: InputOf<F>) => void,
): Contract<F> {
	return { name, fields, ...(before ? { before } : {}), ...(across ? { across } : {}) };
}

type OptionalKeys<F extends Fields> = {
	[K in keyof F]: F[K] extends Field<unknown, true> ? K : never;
}[keyof F];
type Flatten<T> = { [K in keyof T]: T[K] };

/** An operation's checked input: every required field, the optional ones given. */
export type InputOf<F extends Fields> = Flatten<
	{ [K in Exclude<keyof F, OptionalKeys<F>>]: F[K] extends Field<infer T> ? T : never } & {
		[K in OptionalKeys<F>]?: F[K] extends Field<infer T> ? T : never;
	}
>;
export type ContractInput<C extends Contract> = C extends Contract<infer F> ? InputOf<F> : never;

/** The refusal of `value` for `name`: the one wording of the field's rule. */
export function refusal(
	name: string,
	spec: Field,
	limits: Limits,
	value: unknown,
	sent?: string,
): IdError<ServiceErrorCode> {
	const shownValue = sent === undefined ? spec.show(value) : JSON.stringify(sent);
	const got = value === undefined ? "it is missing" : `got ${shownValue}`;
	return new IdError<ServiceErrorCode>(spec.code, `${name} must be ${spec.rule(limits)}; ${got}`);
}

/** `invalid_request` for names an operation does not take, naming what it takes. */
export function unknownNames(
	names: readonly string[],
	takes: readonly string[],
): IdError<ServiceErrorCode> {
	const which = names.map((name) => JSON.stringify(name)).join(", ");
	const accepted = takes.length === 0 ? "it takes none" : `it takes ${takes.join(", ")}`;
	return new IdError<ServiceErrorCode>(
		"invalid_request",
		`unknown parameter${names.length > 1 ? "s" : ""} ${which}; ${accepted}`,
	);
}

/** The names a caller may give in `values` (the contract's, but those given elsewhere). */
export function namesTaken(of: Contract, elsewhere: readonly string[] = []): string[] {
	return Object.keys(of.fields).filter((name) => !elsewhere.includes(name));
}

/**
 * The contract's check of plain values: `before` first (leases off answer so, whatever
 * was sent), then unknown names in `values` (`fixed` holds those a transport places
 * itself: path segments, positional RPC arguments), then each field in the contract's order; an absent optional field is left
 * out, then `across` (a rule between fields). An undefined value is an absent one.
 */
export function readInput<C extends Contract>(
	of: C,
	limits: Limits,
	values: Record<string, unknown>,
	fixed: Record<string, unknown> = {},
	how: {
		/** The names `values` may hold (default: the contract's, but those in `fixed`). */
		takes?: readonly string[];
		/** Text a number was read from, where it is not the number's own digits ("007"): a refusal quotes it. */
		sent?: Record<string, string>;
	} = {},
): ContractInput<C> {
	const takes = how.takes ?? namesTaken(of, Object.keys(fixed));
	of.before?.(limits);
	const unknown = Object.keys(values).filter(
		(name) => values[name] !== undefined && !takes.includes(name),
	);
	if (unknown.length > 0) throw unknownNames(unknown, takes);
	const all = { ...values, ...fixed };
	const input: Record<string, unknown> = {};
	for (const [name, spec] of Object.entries(of.fields)) {
		const value = Object.hasOwn(all, name) ? all[name] : undefined;
		if (value === undefined && spec.optional) continue;
		if (!spec.accepts(value, limits)) throw refusal(name, spec, limits, value, how.sent?.[name]);
		input[name] = value;
	}
	of.across?.(input as never);
	return input as ContractInput<C>;
}

const DIGITS = /^[0-9]+$/;

/**
 * A text value (a query or path parameter) as the field's plain value: decimal digits
 * a number for an integer field; any other text, and a repeated parameter (an array),
 * as given, for the field to refuse or take.
 */
export function fromText(spec: Field | undefined, text: string | string[]): unknown {
	if (spec?.type !== "integer" || typeof text !== "string" || !DIGITS.test(text)) return text;
	const value = Number(text);
	return Number.isSafeInteger(value) ? value : text;
}
