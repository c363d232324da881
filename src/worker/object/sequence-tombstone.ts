/**
 * What a retired sequence's object keeps: a tombstone (its name, when it was
 * retired, and its last status), one key, and nothing else. Writing it deletes every
 * other key and table of the object in the same synchronous step, so storage holds
 * either the live sequence or the tombstone, never half of each: a restart finds the
 * name retired for good, and a create of it is refused (a new sequence starting
 * again would repeat numbers already handed out).
 *
 *   bury(ctx.storage, { name: "orders", retiredAtMs: now, status });
 *   readTombstone(ctx.storage);            // { name: "orders", retiredAtMs, status }
 *   throw retiredRefusal(tombstone);       // 410 sequence_retired
 */
import type { SequenceStatus } from "../../wire";
import { serviceError } from "../errors";

/** The one key a retired sequence's object stores. */
const TOMBSTONE_KEY = "retired";

export interface Tombstone {
	name: string;
	retiredAtMs: number;
	/** Its status when it was retired (`retiredAt` included): what a retire answers, again and again. */
	status: SequenceStatus;
}

/** The tombstone, if this object's sequence was retired. */
export function readTombstone(storage: DurableObjectStorage): Tombstone | undefined {
	return storage.kv.get<Tombstone>(TOMBSTONE_KEY);
}

/** The runtime's own tables (its key-value store among them), and SQLite's. */
const USER_TABLES =
	"SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'";

/**
 * Deletes every key and table of the object and writes `tombstone`, synchronously:
 * writes with no await between them commit together. (The alarm is the caller's to
 * delete, asynchronously; a late alarm finds the tombstone and does nothing.)
 */
export function bury(storage: DurableObjectStorage, tombstone: Tombstone): void {
	const keys = [...storage.kv.list()].map(([key]) => key);
	for (const key of keys) storage.kv.delete(key);
	const tables = storage.sql.exec<{ name: string }>(USER_TABLES).toArray();
	for (const { name } of tables) storage.sql.exec(`DROP TABLE "${name.replaceAll('"', '""')}"`);
	storage.kv.put(TOMBSTONE_KEY, tombstone);
}

/** Any call on a retired sequence but a create and a retire: gone (410). */
export function retiredRefusal({ name, status }: Tombstone) {
	return serviceError(
		"sequence_retired",
		`sequence "${name}" was retired at ${status.retiredAt}, after issuing ${status.issued} numbers; it issues nothing more and its name cannot be created again: use another name`,
	);
}

/** A create of a retired sequence's name (answered under 409 by the create). */
export function retiredCreateRefusal({ name, status }: Tombstone) {
	return serviceError(
		"sequence_retired",
		`sequence "${name}" was retired at ${status.retiredAt} and its name cannot be created again: a new "${name}" would repeat numbers it issued (its next was ${status.next ?? "past 2^63 - 1"}); create the sequence under another name`,
	);
}
