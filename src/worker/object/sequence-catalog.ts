/**
 * The catalog of sequence names: a name is recorded when a create succeeds, never
 * on the issuing path (next, reserve, advance and status never touch it), and
 * listed a page at a time in name order. The store is one object of the sequence
 * namespace under a name no sequence can take ("~catalog": a sequence name starts
 * with a letter or digit), holding a SQLite table of names (./sequence-object.ts,
 * `recordName`, `listNames`). These two functions are its only callers, so the
 * store can move (to a fleet catalog) without touching the operations.
 *
 *   await recordSequenceName(env, "orders");
 *   await listSequenceNames(env, { limit: 2 }); // { type: "sequence-list", names: ["invoices", "orders"], cursor: "orders" }
 */
import type { SequenceList } from "../../api";
import type { ObjectFailure } from "./object-answers";
import { callSequenceObject } from "./sequence-calls";
import type { SequenceObject } from "./sequence-object";

/** The catalog's object name: outside the sequence name rule, so no sequence shares its object. */
export const CATALOG_OBJECT_NAME = "~catalog";
/** Names per page when the caller gives no limit. */
export const DEFAULT_LIST_LIMIT = 100;

function callCatalog<T extends { ok: true } | ObjectFailure>(
	env: Env,
	call: (stub: DurableObjectStub<SequenceObject>) => Promise<T>,
): Promise<Extract<T, { ok: true }>> {
	return callSequenceObject(env, CATALOG_OBJECT_NAME, call, "the sequence catalog", "");
}

/** Records `name` as created (again is a no-op). */
export async function recordSequenceName(env: Env, name: string): Promise<void> {
	await callCatalog(env, (stub) => stub.recordName(name));
}

/** A page of created names after `cursor`, in name order; `cursor` of the answer is null on the last page. */
export async function listSequenceNames(
	env: Env,
	input: { limit?: number; cursor?: string },
): Promise<SequenceList> {
	const limit = input.limit ?? DEFAULT_LIST_LIMIT;
	const { names, more } = await callCatalog(env, (stub) =>
		stub.listNames(input.cursor ?? null, limit),
	);
	return { type: "sequence-list", names, cursor: more ? (names.at(-1) ?? null) : null };
}
